/**
 * The PSP's notification (`POST {webhookUrl}/pix` with `{ pix: [...] }`): a wake-up call, nothing
 * more. The body only names end-to-end ids; each is read back from the PSP (`GET /pix/{e2eid}`,
 * then `GET /cob/{txid}` of the charge it paid) with our credentials, and what the PSP answers is
 * what is decided (sync.ts). A forged body can at most make us ask the PSP about a Pix.
 *
 * Shapes read: `{ pix: [...] }` (the spec) and a bare array `[...]` at the root (as Inter posts);
 * anything else is answered 200 with nothing read (not ours to refuse). Items are read one by one:
 * one without a valid `endToEndId` is skipped, not the whole body. At most MAX_ITEMS items are read
 * (the spec sends up to 100 a call; some PSPs batch more).
 *
 * The answer must come quickly (PSPs time out and retry): the first SYNC_ITEMS ids are re-read at
 * once, within SYNC_BUDGET_MS; for the rest, the charge an item names (its `txid`, if one of ours
 * still pending) and the open refunds of its e2eid are marked due ahead of everything else (NOTIFIED_DUE),
 * and the reconciliation (api-pix-reconcile.ts) does the PSP calls on its next tick. Marking due
 * decides nothing.
 */
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { pspCharges, pspRefunds } from "@/lib/db/schema";
import { getLogger } from "@/lib/logger";
import { clientFor, incompleteReason, pspConfigByWebhookToken } from "@/lib/processors/api-pix/config";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { OPEN_REFUND_STATUSES, openRefundsOf, applyDevolucao, applyMedReturns } from "./api-pix-refunds";
import { devolucaoSchema, E2EID_REGEX, TXID_REGEX } from "@/lib/processors/api-pix/schemas";
import { chargeByTxid, syncCharge } from "./api-pix-sync";

/** Items read of one notification at most (the spec's batches are of 100). */
export const MAX_ITEMS = 1000;
/** Ids re-read at the PSP before answering; the rest are left to the reconciliation. */
export const SYNC_ITEMS = 10;
/** Time spent re-reading before answering, at most (then the rest is marked due). */
export const SYNC_BUDGET_MS = 5_000;

/**
 * What a notified charge or refund is marked due for: the reconciliation takes the due rows oldest
 * `next_check_at` first, so a notified one marked "due now" would wait behind every charge merely
 * due by its schedule (a busy account has a batch's worth of them at any time); the epoch puts it
 * first. Only the schedule: a failed read's backoff counts from the last good read, not from this.
 */
export const NOTIFIED_DUE = new Date(0);

type Item = { e2eid: string; txid?: string };

/** The items of a notification: `{ pix: [...] }` or a bare array; malformed items skipped, ids once. */
export function notificationItems(body: unknown): Item[] {
  const list = Array.isArray(body) ? body : body && typeof body === "object" && Array.isArray((body as { pix?: unknown }).pix) ? (body as { pix: unknown[] }).pix : [];
  const out = new Map<string, Item>();
  for (const raw of list.slice(0, MAX_ITEMS)) {
    const item = z.looseObject({ endToEndId: z.string().regex(E2EID_REGEX), txid: z.string().optional().catch(undefined) }).safeParse(raw);
    if (!item.success || out.has(item.data.endToEndId)) continue;
    const txid = item.data.txid && TXID_REGEX.test(item.data.txid) ? item.data.txid : undefined;
    out.set(item.data.endToEndId, { e2eid: item.data.endToEndId, ...(txid ? { txid } : {}) });
  }
  return [...out.values()];
}

export type WebhookOutcome = { found: false } | { found: true; ids: number; checked: number; failed: number; deferred: number };

export async function handleApiPixWebhook(token: string, body: unknown, now: Date = new Date()): Promise<WebhookOutcome> {
  const config = await pspConfigByWebhookToken(token);
  if (!config) return { found: false };
  const log = getLogger().child({ component: "api-pix-webhook", account: config.companyId });
  const items = notificationItems(body);
  if (items.length === 0 || incompleteReason(config)) return { found: true, ids: items.length, checked: 0, failed: 0, deferred: 0 };
  const client = clientFor(config);
  const started = Date.now();
  let checked = 0;
  let failed = 0;
  const deferred: Item[] = [];
  for (const [i, { e2eid }] of items.entries()) {
    if (i >= SYNC_ITEMS || Date.now() - started > SYNC_BUDGET_MS) {
      deferred.push(items[i]);
      continue;
    }
    try {
      const pix = await client.getPix(e2eid);
      if (pix.txid) {
        const charge = await chargeByTxid(config.companyId, pix.txid);
        if (charge) {
          await syncCharge(client, charge, now);
          checked++;
        }
      }
      // A return the PSP made by itself (MED) on a Pix that paid one of our charges: booked once.
      await applyMedReturns(config.companyId, pix, now);
      for (const refund of await openRefundsOf(config.companyId, e2eid)) {
        // Our own devolução in the list is read strictly before it decides anything (its status
        // among the known ones); one that does not read is left to the refund's own re-read.
        const listed = (pix.devolucoes ?? []).find((d) => d.id === refund.devolucaoId);
        const dev = listed ? devolucaoSchema.safeParse(listed) : null;
        if (dev?.success) await applyDevolucao(refund, dev.data, now);
      }
    } catch (e) {
      failed++;
      // The reconciliation finds what could not be read now.
      log.warn(e instanceof ApiPixError ? { code: e.code, operation: e.operation } : { code: "internal" }, "api-pix webhook: re-read failed");
    }
  }
  if (deferred.length > 0) await markDue(config.companyId, deferred);
  log.info({ ids: items.length, checked, failed, deferred: deferred.length }, "api-pix webhook handled");
  return { found: true, ids: items.length, checked, failed, deferred: deferred.length };
}

/** The charges and open refunds the items name, due for the reconciliation first (nothing is decided here). */
async function markDue(companyId: number, items: Item[]): Promise<void> {
  const db = getDb();
  const txids = items.flatMap((i) => (i.txid ? [i.txid] : []));
  for (let i = 0; i < txids.length; i += 500) {
    await db
      .update(pspCharges)
      .set({ nextCheckAt: NOTIFIED_DUE })
      .where(and(eq(pspCharges.companyId, companyId), eq(pspCharges.status, "pending"), inArray(pspCharges.txid, txids.slice(i, i + 500))));
  }
  const e2eids = items.map((i) => i.e2eid);
  for (let i = 0; i < e2eids.length; i += 500) {
    await db
      .update(pspRefunds)
      .set({ nextCheckAt: NOTIFIED_DUE })
      .where(and(eq(pspRefunds.companyId, companyId), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES]), inArray(pspRefunds.e2eid, e2eids.slice(i, i + 500))));
  }
}
