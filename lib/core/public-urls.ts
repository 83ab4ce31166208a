import { getEnv } from "@/lib/env";

/** The hosted checkout page of a transaction. */
export function secureUrlOf(secureId: string): string {
  return `${getEnv().checkoutUrl}/checkout/${secureId}`;
}

/** Public URL of a boleto's PDF: on the checkout host, since the payer opens it without credentials. */
export function boletoUrlOf(secureId: string): string {
  return `${getEnv().checkoutUrl}/checkout/${secureId}/boleto.pdf`;
}
