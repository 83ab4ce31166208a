/**
 * The payer's e-mail receipt: after a payment, the amount, the shop, the order reference, the
 * transaction number and the link to the payment's page. Sent by a background loop that claims
 * paid transactions without a receipt (FOR UPDATE SKIP LOCKED: any number of processes), only
 * when SMTP_URL is set, and only for payments of the last two days (turning SMTP on does not mail
 * the whole history).
 */
import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { formatBRL } from "@/lib/domain/money";
import { installmentsText } from "@/lib/domain/installments";
import { getEnv } from "@/lib/env";
import { getLogger, scrub } from "@/lib/logger";
import { findAccountById } from "@/lib/services/accounts/accounts";
import { getBranding } from "@/lib/services/accounts/branding";
import { secureUrlOf, type TransactionRow } from "@/lib/services/transactions/transaction-view";
import { sendMail, type Mail } from "./transport";

const WINDOW_MS = 2 * 86_400_000;
const METHOD: Record<string, string> = { pix: "PIX", boleto: "Boleto", credit_card: "Cartão de crédito" };

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function when(d: Date): string {
  const date = new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "America/Sao_Paulo" }).format(d);
  const time = new Intl.DateTimeFormat("pt-BR", { hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" }).format(d);
  return `${date} às ${time}`;
}

export function receiptMail(
  t: Pick<TransactionRow, "id" | "secureId" | "amount" | "paidAmount" | "paymentMethod" | "paidAt" | "externalRef" | "customer" | "installments">,
  merchant: { name: string; supportEmail: string | null },
): Mail {
  const link = secureUrlOf(t.secureId);
  // A card in installments with interest was charged their total (paidAmount), above the order's amount.
  const charged = t.paymentMethod === "credit_card" && t.paidAmount > t.amount ? t.paidAmount : t.amount;
  const rows: [string, string][] = [
    ["Valor", formatBRL(charged)],
    ...(charged > t.amount ? ([["Valor do pedido", formatBRL(t.amount)]] as [string, string][]) : []),
    ["Loja", merchant.name],
    ...(t.externalRef ? ([["Pedido", t.externalRef]] as [string, string][]) : []),
    ["Transação", `#${t.id}`],
    ["Meio", METHOD[t.paymentMethod] + (t.installments > 1 ? ` em ${t.installments}x` : "")],
    // Each installment as the card bills it (the first carries the centavos the split leaves), so they add up to the total.
    ...(t.paymentMethod === "credit_card" && t.installments > 1
      ? ([["Parcelas", `${installmentsText(charged, t.installments)}${charged > t.amount ? " com juros" : " sem juros"}`]] as [string, string][])
      : []),
    ...(t.paidAt ? ([["Pago em", when(t.paidAt)]] as [string, string][]) : []),
  ];
  const first = t.customer.name.trim().split(/\s+/)[0] ?? "";
  const support = merchant.supportEmail ? `Dúvidas sobre o pedido? Fale com a loja: ${merchant.supportEmail}` : "Dúvidas sobre o pedido? Fale com a loja.";
  const text = [
    `Olá, ${first}!`,
    "",
    `Recebemos seu pagamento de ${formatBRL(charged)} para ${merchant.name}.`,
    "",
    ...rows.map(([k, v]) => `${k}: ${v}`),
    "",
    `Ver o pagamento: ${link}`,
    "",
    support,
  ].join("\n");
  const html = `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#111827">
<p>Olá, ${esc(first)}!</p>
<p>Recebemos seu pagamento de <strong>${esc(formatBRL(charged))}</strong> para ${esc(merchant.name)}.</p>
<table>${rows.map(([k, v]) => `<tr><td style="color:#4b5563;padding-right:16px">${esc(k)}</td><td><strong>${esc(v)}</strong></td></tr>`).join("")}</table>
<p><a href="${esc(link)}">Ver o pagamento</a></p>
<p style="color:#4b5563">${esc(support)}</p>
</body></html>`;
  return { to: t.customer.email, subject: `Comprovante de pagamento · ${merchant.name}`, text, html };
}

/** One tick of the receipt loop: claims up to `limit` paid transactions without a receipt and mails them. */
export async function sendDueReceipts(opts: { limit: number; now?: Date }): Promise<number> {
  if (!getEnv().smtpUrl) return 0;
  const now = opts.now ?? new Date();
  const db = getDb();
  const claimed = await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.status, "paid"), isNull(transactions.receiptSentAt), gt(transactions.paidAt, new Date(now.getTime() - WINDOW_MS))))
      .orderBy(asc(transactions.id))
      .limit(opts.limit)
      .for("update", { skipLocked: true });
    if (rows.length) await tx.update(transactions).set({ receiptSentAt: now }).where(inArray(transactions.id, rows.map((r) => r.id)));
    return rows;
  });
  for (const t of claimed) {
    try {
      const account = await findAccountById(t.companyId);
      const branding = account ? await getBranding(account.id) : null;
      await sendMail(receiptMail(t, { name: branding?.displayName || account?.name || "a loja", supportEmail: branding?.supportEmail ?? null }));
    } catch (err) {
      // Back in the queue for the next tick; the message says why without the payer's address.
      await db.update(transactions).set({ receiptSentAt: null }).where(eq(transactions.id, t.id));
      getLogger().warn({ transactionId: t.id, err: scrub(err instanceof Error ? err.message : String(err)) }, "receipt e-mail not sent");
    }
  }
  return claimed.length;
}
