/**
 * A transaction in Portuguese, for the dashboard's pages and its CSV export alike: statuses (with the
 * derived "Expirado"), payment methods, and the payer's phone as Brazilians write it.
 */
import { isPastExpiry } from "./expiry";

export const STATUS_LABEL: Record<string, string> = {
  pending: "Pendente",
  processing: "Processando",
  paid: "Pago",
  approved: "Aprovado",
  refused: "Recusado",
  refunded: "Reembolsado",
  chargedback: "Chargeback",
  in_protest: "Em contestação",
};

export const METHOD_LABEL: Record<string, string> = {
  pix: "PIX",
  credit_card: "Cartão de crédito",
  boleto: "Boleto",
};

/**
 * The status a merchant sees: a PIX or boleto still pending past its expiry can no longer be paid
 * and reads "Expirado". Derived at display time; the stored status stays "pending".
 */
export function displayStatus(t: { status: string; paymentMethod: string; expiresAt: Date | string | null }, now: Date): string {
  if (t.status !== "pending" || !t.expiresAt || t.paymentMethod === "credit_card") return t.status;
  // The same instant as the list's "Expirado" filter (listTransactions' pendingExpiry).
  return isPastExpiry(typeof t.expiresAt === "string" ? new Date(t.expiresAt) : t.expiresAt, now) ? "expired" : t.status;
}

/** Transaction statuses with the derived "Expirado". */
export const TX_STATUS_LABEL: Record<string, string> = { ...STATUS_LABEL, expired: "Expirado" };

export function formatPhone(p: string | null): string {
  if (!p) return "—";
  const d = p.replace(/\D/g, "").replace(/^55(?=\d{10,11}$)/, "");
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  return p;
}
