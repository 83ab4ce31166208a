/**
 * The payer's e-mail receipt goes through SMTP (SMTP_URL) to a real local SMTP server that keeps
 * what it receives: the right amount, shop, order reference, transaction number and link; once per
 * payment; nothing for unpaid charges; and nothing at all without SMTP_URL.
 */
import { startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";

const receiver: SmtpReceiver = await startSmtpReceiver(0);
process.env.SMTP_URL = receiver.url;
process.env.MAIL_FROM = "Arara Testes <recibos@arara.test>";

const { afterAll, beforeAll, describe, expect, it } = await import("vitest");
const { call } = await import("../helpers/app");
const { createTestAccount } = await import("../helpers/accounts");
const { sendDueReceipts } = await import("@/lib/mail/receipt");
const { parseEnv } = await import("@/lib/env");

type Account = Awaited<ReturnType<typeof createTestAccount>>;
let a: Account;

beforeAll(async () => {
  a = await createTestAccount("Café do Porto");
});
afterAll(async () => {
  await receiver.close();
});

/** The text part of a MIME message, with quoted-printable undone. */
function textOf(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(qp, "latin1").toString("utf8");
}

async function charge(body: Record<string, unknown>) {
  const res = await call("POST", "/api/v1/transactions", {
    auth: a.secretKey,
    body: {
      paymentMethod: "pix",
      amount: 15_900,
      items: [{ title: "Cafeteira", unitPrice: 14_900, quantity: 1, tangible: true }],
      shipping: { fee: 1_000 },
      customer: { name: "Joana Pereira", email: "joana.pereira@example.com", document: { type: "cpf", number: "11144477735" } },
      externalRef: "pedido-9001",
      ...body,
    },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; secureId: string };
}

describe("payer's e-mail receipt", () => {
  it("is received by the SMTP server after the payment, with the amount, the order, the number and the link; once", async () => {
    const t = await charge({});
    expect(await sendDueReceipts({ limit: 10 })).toBe(0); // pending: nothing to send
    const paid = await call("PUT", `/api/v1/transactions/${t.id}/test`, { auth: a.secretKey, body: { status: "paid" } });
    expect(paid.status).toBe(200);

    expect(await sendDueReceipts({ limit: 10 })).toBe(1);
    expect(receiver.mails).toHaveLength(1);
    const mail = receiver.mails[0];
    expect(mail.to).toEqual(["joana.pereira@example.com"]);
    expect(mail.from).toBe("recibos@arara.test");
    const body = textOf(mail.raw);
    expect(body).toMatch(/Recebemos seu pagamento de R\$\s159,00 para Café do Porto/);
    expect(body).toContain("Pedido: pedido-9001");
    expect(body).toContain(`Transação: #${t.id}`);
    expect(body).toContain(`Ver o pagamento: http://localhost:3000/checkout/${t.secureId}`);

    // Once: the next tick finds nothing.
    expect(await sendDueReceipts({ limit: 10 })).toBe(0);
    expect(receiver.mails).toHaveLength(1);
  });

  it("says a card's installments as billed, adding up to what was paid (R$ 299,00 in 3x: R$ 99,68 + 2 × R$ 99,66)", async () => {
    const { cardBody } = await import("../helpers/cash-in");
    const before = receiver.mails.length;
    const body = await cardBody(a.publicKey, "4242424242424242", {
      amount: 29_900,
      items: [{ title: "Curso de fotografia", unitPrice: 29_900, quantity: 1, tangible: false }],
      installments: 3,
      customer: { name: "Joana Pereira", email: "joana.pereira@example.com", document: { type: "cpf", number: "11144477735" } },
    });
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body });
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe("paid");
    expect(await sendDueReceipts({ limit: 10 })).toBe(1);
    const text = textOf(receiver.mails[before].raw);
    expect(text).toMatch(/Recebemos seu pagamento de R\$\s299,00/);
    expect(text).toMatch(/Parcelas: 1x de R\$\s99,68 \+ 2x de R\$\s99,66 sem juros/);
    expect(text).not.toMatch(/99,67/);
  });

  it("is not sent when SMTP_URL is unset (the configuration has no SMTP then)", () => {
    expect(parseEnv({}).smtpUrl).toBeUndefined();
    expect(() => parseEnv({ SMTP_URL: "http://mail.example.com" })).toThrow(/SMTP_URL/);
    expect(parseEnv({ SMTP_URL: "smtps://user:pass@mail.example.com:465" }).smtpUrl).toBe("smtps://user:pass@mail.example.com:465");
  });
});
