/**
 * Charges Arara no longer takes, removed at the PSP so no payer can pay them there.
 *
 * The one case: a payment link's PIX charge, still pending, after another charge paid the link (the
 * payer paid by card, or paid the link's other PIX). From then on the payer's page shows the link's
 * payment and serves neither this charge's QR code nor its copy-and-paste code
 * (checkout-lookup.ts, linkPaidByAnother); a payer who copied it before could still pay it at the
 * PSP, and that money would be booked and returned (api-pix-sync.ts, a link's duplicate). Every other
 * PIX charge is payable at Arara until the expiry the PSP gave it (`transactions.expires_at` is the
 * cob's `calendario`), and Arara has no cancel: there is nothing else to remove early.
 *
 * Done by the reconciliation (api-pix-reconcile.ts) when it next looks at such a charge (its schedule:
 * 1 to 15 minutes), never inside a database transaction nor a request: `PATCH /cob/{txid}`
 * `{ "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR" }`, then the usual `GET /cob/{txid}` decides. A cob
 * the PSP no longer has ATIVA is refused by the spec (400 CobOperacaoInvalida; 404 for one it does
 * not know; 409 from some): the read says why. REMOVIDA_PELO_USUARIO_RECEBEDOR: the charge stops
 * being followed (`psp_charge_removed`). CONCLUIDA (the payer paid before the removal): the money
 * arrived, and it is booked as any Pix for a link already paid (paid, flagged as the duplicate, its
 * devolução asked of the PSP). A PSP that fails otherwise (5xx, a 422, no PATCH, a time-out) is
 * logged; the charge is read all the same and the removal asked again at its next look: removing is
 * idempotent.
 */
import { and, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { getLogger } from "@/lib/logger";
import type { ApiPixClient } from "@/lib/processors/api-pix/client";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import type { PspChargeRow } from "./api-pix-sync";

/** Of these transactions, the ones still waiting for payment on a payment link another charge paid. */
export async function abandonedAmong(transactionIds: readonly number[]): Promise<Set<number>> {
  if (transactionIds.length === 0) return new Set();
  const payment = alias(transactions, "link_payment");
  const rows = await getDb()
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        inArray(transactions.id, [...transactionIds]),
        isNotNull(transactions.checkoutId),
        inArray(transactions.status, ["pending", "processing"]),
        // The link's payment, by transactions_one_payment_per_link_idx (the rule linkPaymentOf reads).
        sql`exists (${getDb()
          .select({ one: sql`1` })
          .from(payment)
          .where(and(eq(payment.checkoutId, transactions.checkoutId), isNotNull(payment.paidAt), isNull(payment.duplicateOfId), ne(payment.id, transactions.id)))})`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** Statuses of a refused removal that only say the cob is not ATIVA (or not there): the read that follows decides. */
const NOT_REMOVABLE = new Set([400, 404, 409]);

/**
 * Asks the PSP to remove the charge. Returns what the PSP said: "removed", or "not_active" (refused
 * as not ATIVA, or unknown: read the charge to know whether it was paid). Any other failure is logged
 * and thrown; the reconciliation reads the charge all the same (a PSP refusing the removal, or with no
 * PATCH at all, must never keep a payment from being booked) and asks again at its next look.
 */
export async function removeAbandonedCob(client: ApiPixClient, charge: Pick<PspChargeRow, "txid" | "companyId" | "transactionId">): Promise<"removed" | "not_active"> {
  const fields = { component: "api-pix", account: charge.companyId, transaction: charge.transactionId };
  try {
    const { status } = await client.removeCob(charge.txid);
    getLogger().info({ ...fields, cobStatus: status.slice(0, 40) }, "api-pix: a charge of a payment link paid by another charge removed at the PSP");
    return "removed";
  } catch (e) {
    if (e instanceof ApiPixError && e.httpStatus !== undefined && NOT_REMOVABLE.has(e.httpStatus)) {
      getLogger().info({ ...fields, httpStatus: e.httpStatus }, "api-pix: a charge to remove is no longer ATIVA at the PSP: read to know why");
      return "not_active";
    }
    getLogger().warn(
      { ...fields, httpStatus: e instanceof ApiPixError ? e.httpStatus : undefined, code: e instanceof ApiPixError ? e.code : undefined },
      "api-pix: the PSP did not remove a charge of a payment link paid by another charge: read as usual, asked again at its next look",
    );
    throw e;
  }
}
