/**
 * A sale's delivery: whether it has goods to deliver, when they may be said shipped, and how the
 * dashboard says it (the API's PUT /transactions/{id}/delivery, lib/services/transactions/update-delivery.ts).
 */

/** Goods may have been shipped before a refund or a chargeback; never before the payment. */
const WAS_PAID: readonly string[] = ["paid", "refunded", "chargedback", "in_protest"];

/** Whether a sale has goods to deliver: a shipping address or freight, or a physical item. */
export function hasDelivery(t: { shipping: unknown; items: readonly { tangible?: boolean }[] }): boolean {
  return t.shipping != null || t.items.some((i) => i.tangible === true);
}

/** Whether goods may be said in transit or delivered: the sale was paid (a refund or chargeback since does not undo a shipment). */
export function mayShip(status: string): boolean {
  return WAS_PAID.includes(status);
}

/** The delivery status of a sale's goods (PUT /api/v1/transactions/{id}/delivery), as the dashboard says it. */
export const DELIVERY_STATUS_LABEL: Record<string, string> = {
  waiting: "Aguardando envio",
  in_transit: "Em trânsito",
  delivered: "Entregue",
};

/** A delivery address as a charge was sent with it (every part optional). */
export type ShippingAddress = {
  street?: string | null;
  streetNumber?: string | null;
  complement?: string | null;
  zipCode?: string | null;
  neighborhood?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
};

/**
 * A delivery address as it is written on a parcel in Brazil, one line per part: "Rua das Flores, 100 —
 * Apto 2", "Centro", "São Paulo/SP", "CEP 01310-100" (and the country when not Brazil). Parts not
 * given are left out; no line at all when none was.
 */
export function addressLines(a: ShippingAddress | null | undefined): string[] {
  if (!a) return [];
  const street = [a.street, a.streetNumber].filter(Boolean).join(", ");
  const first = [street, a.complement].filter(Boolean).join(" — ");
  const place = [a.city, a.state].filter(Boolean).join("/");
  const cep = a.zipCode ? `CEP ${/^\d{8}$/.test(a.zipCode) ? `${a.zipCode.slice(0, 5)}-${a.zipCode.slice(5)}` : a.zipCode}` : "";
  const country = a.country && !/^(br|bra|brasil|brazil)$/i.test(a.country.trim()) ? a.country : "";
  return [first, a.neighborhood ?? "", place, cep, country].filter((l) => l !== "");
}
