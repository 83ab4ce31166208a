/** Request bodies and card tokens for the cash-in tests. */
import { call } from "./app";

export const CARD = {
  number: "4111111111111111",
  holderName: "MARIA SILVA",
  expirationMonth: "12",
  expirationYear: "2030",
  cvv: "123",
};

export function baseBody(over: Record<string, unknown> = {}): Record<string, any> {
  return {
    paymentMethod: "pix",
    amount: 1500,
    customer: {
      name: "Maria Silva",
      email: "maria@example.com",
      phone: "11987654321",
      document: { type: "cpf", number: "11144477735" },
    },
    items: [
      { title: "Camiseta", unitPrice: 500, quantity: 2, tangible: true },
      { title: "Adesivo", unitPrice: 500, quantity: 1, tangible: true },
    ],
    ...over,
  };
}

export async function tokenize(publicKey: string, card: Record<string, unknown> = CARD): Promise<string> {
  const res = await call("POST", `/api/v1/card-token?publicKey=${publicKey}`, { body: card });
  if (res.status !== 200) throw new Error(`tokenization failed: ${res.status} ${res.text}`);
  return res.text;
}

export async function cardBody(publicKey: string, number = CARD.number, over: Record<string, unknown> = {}) {
  const hash = await tokenize(publicKey, { ...CARD, number });
  return baseBody({ paymentMethod: "credit_card", ip: "203.0.113.7", installments: "1", card: { hash }, ...over });
}
