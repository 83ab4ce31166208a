import type { Tx } from "@/lib/db/client";
import { webhookEvents } from "@/lib/db/schema";
import type { WebhookEventKind } from "@/lib/domain/status";
import type { TransactionRow } from "@/lib/core/rows";
import { transactionEventPayload } from "./payloads";

/**
 * Writes a notification into the outbox, inside the caller's database transaction: it exists if and
 * only if the change it reports was committed. Without a postbackUrl the row is kept (`skipped`) for
 * the timeline and can be delivered by hand later.
 */
export async function enqueueTransactionEvent(tx: Tx, t: TransactionRow, kind: WebhookEventKind, now: Date): Promise<number> {
  const [row] = await tx
    .insert(webhookEvents)
    .values({
      companyId: t.companyId,
      type: "transaction",
      transactionId: t.id,
      orderingKey: `transaction:${t.id}`,
      status: kind,
      url: t.postbackUrl,
      ...transactionEventPayload(t, kind),
      deliveryState: t.postbackUrl ? "pending" : "skipped",
      nextAttemptAt: t.postbackUrl ? now : null,
      createdAt: now,
    })
    .returning({ id: webhookEvents.id });
  return row.id;
}

/** Cash-out notifications (`type: "cash_out"`), same outbox and same guarantees. */
export async function enqueueCashOutEvent(
  tx: Tx,
  c: { id: number; companyId: number; postbackUrl: string | null; status: string },
  data: Record<string, unknown>,
  now: Date,
): Promise<number> {
  const [row] = await tx
    .insert(webhookEvents)
    .values({
      companyId: c.companyId,
      type: "cash_out",
      cashOutId: c.id,
      orderingKey: `cash_out:${c.id}`,
      status: c.status,
      url: c.postbackUrl,
      payload: data,
      deliveryState: c.postbackUrl ? "pending" : "skipped",
      nextAttemptAt: c.postbackUrl ? now : null,
      createdAt: now,
    })
    .returning({ id: webhookEvents.id });
  return row.id;
}
