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
 * The answer must come quickly (PSPs time out and retry): only the first SYNC_ITEMS items may be
 * re-read at once, within SYNC_BUDGET_MS; for the rest, the charge an item names (its `txid`, if one
 * of ours still pending), the open refunds of its e2eid and its Pix, if that Pix paid one of our
 * charges (psp_pix_received: a MED return, or a devolução made in the PSP's app, notified weeks after
 * the payment, when no charge of it is polled any more), are marked due ahead of everything else
 * (NOTIFIED_DUE, in the database), and the reconciliation (api-pix-reconcile.ts) does the PSP calls on
 * its next tick. Marking due decides nothing.
 *
 * What a notification may cost at the PSP. The webhook's token is in a URL (it leaks through PSP
 * panels and proxies' logs), and each re-read is made with the merchant's credentials against the
 * merchant's PSP quotas: a holder of the token must not be able to spend them. So, of those first
 * SYNC_ITEMS items (looked up in two queries, scoped by the account):
 *
 * - An item that names one of our charges (its `txid`, any status: a charge expired or abandoned
 *   here may still have been paid at the PSP) or one of our Pix (its e2eid in psp_pix_received, or
 *   the e2eid of one of our refunds) is re-read as before (`GET /pix/{e2eid}`, the charge it paid),
 *   within the charge's budget: NOTIFIED_READS_PER_WINDOW reads per NOTIFIED_READS_WINDOW_MS,
 *   whichever instance receives the notifications, each read taking one unit by a guarded UPDATE of
 *   `psp_charges.notified_reads` (windowBudget). Past it the item is not read (`throttled`): the
 *   charge (if pending), the open refunds of the e2eid and its Pix (if it paid one of our charges)
 *   are marked due as an item past the first ones is, so a real notification that arrives just after
 *   a replay (a payment, or a return on a paid Pix) is read by the reconciliation's next tick. Replaying one real e2eid 1,000 times costs a few PSP calls per window, not 2,000; and
 *   made-up e2eids beside a real txid spend that charge's budget, not the PSP's quotas. More than one
 *   read per window: a charge is legitimately notified several times within seconds (paid twice; a
 *   devolução settled just after the payment), and one read would leave the second to the scan.
 * - An item whose `txid` is present and not one of our charges names another system's charge on the
 *   same key: never read (`notOurs`).
 * - An item with no txid and an e2eid that is not ours (`unknown`) can concern us in one case only:
 *   a PSP that leaves the txid out of its notification of a Pix that paid one of our charges (the
 *   spec's Pix carries the txid of the charge it paid, and the PSPs met so far send it). For that case
 *   such items are re-read within a budget of the account, UNKNOWN_READS_PER_MINUTE, counted in
 *   account_psp_configs (the same guarded UPDATE, across instances); past it they are skipped, and
 *   the payment is still found by the reconciliation (each pending charge's own `GET /cob` on its
 *   schedule, the `GET /pix` scan every minute). A per-notification budget would not do: the token's
 *   holder sends as many notifications as they like.
 *
 * One warning per notification gives the counts of items throttled or skipped past the budget (never
 * the token, which the route's log redacts too).
 */
import { and, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, pspCharges, pspPixReceived, pspRefunds } from "@/lib/db/schema";
import { getLogger } from "@/lib/logger";
import { clientFor, incompleteReason, pspConfigByWebhookToken } from "@/lib/processors/api-pix/config";
import type { ApiPixClient } from "@/lib/processors/api-pix/client";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { applyReturnsListed, OPEN_REFUND_STATUSES, PAYING_DECISIONS } from "./api-pix-refunds";
import { E2EID_REGEX, TXID_REGEX } from "@/lib/processors/api-pix/schemas";
import { chargeByTxid, syncCharge } from "./api-pix-sync";

/** Items read of one notification at most (the spec's batches are of 100). */
export const MAX_ITEMS = 1000;
/** Ids re-read at the PSP before answering; the rest are left to the reconciliation. */
export const SYNC_ITEMS = 10;
/** Time spent re-reading before answering, at most (then the rest is marked due). */
export const SYNC_BUDGET_MS = 5_000;
/**
 * Re-reads of one charge the webhook makes per NOTIFIED_READS_WINDOW_MS at most (across instances and
 * notifications); an item past them marks the charge due instead. More than one: a charge is
 * legitimately notified several times within seconds (paid twice; a devolução settled right after).
 */
export const NOTIFIED_READS_PER_WINDOW = 3;
export const NOTIFIED_READS_WINDOW_MS = 10_000;
/** Re-reads of items that name nothing of ours, per account per minute (across instances and notifications). */
export const UNKNOWN_READS_PER_MINUTE = 5;
const UNKNOWN_READS_WINDOW_MS = 60_000;

/**
 * What a notified charge, refund or received Pix is marked due for: the reconciliation takes the due
 * rows oldest `next_check_at` first, so a notified one marked "due now" would wait behind every charge
 * merely due by its schedule (a busy account has a batch's worth of them at any time); the epoch puts
 * it first. Only the schedule: a failed read's backoff counts from the last good read (a received
 * Pix's, from `due_since`, when it was first marked), not from this.
 */
export const NOTIFIED_DUE = new Date(0);

type Item = { e2eid: string; txid?: string };

/** The items of a notification: `{ pix: [...] }` or a bare array; malformed items skipped, ids once. */
export function notificationItems(body: unknown): Item[] {
  const list = Array.isArray(body) ? body : body && typeof body === "object" && Array.isArray((body as { pix?: unknown }).pix) ? (body as { pix: unknown[] }).pix : [];
  const out = new Map<string, Item>();
  for (const raw of list.slice(0, MAX_ITEMS)) {
    const item = z
      .looseObject({ endToEndId: z.string().regex(E2EID_REGEX), txid: z.string().optional().catch(undefined), txId: z.string().optional().catch(undefined) })
      .safeParse(raw);
    if (!item.success || out.has(item.data.endToEndId)) continue;
    // Santander writes `txId`; `txid` (the spec's) wins when both are there.
    const named = item.data.txid ?? item.data.txId;
    const txid = named && TXID_REGEX.test(named) ? named : undefined;
    out.set(item.data.endToEndId, { e2eid: item.data.endToEndId, ...(txid ? { txid } : {}) });
  }
  return [...out.values()];
}

export type WebhookOutcome =
  | { found: false }
  | { found: true; ids: number; checked: number; failed: number; deferred: number; throttled: number; notOurs: number; unknownRead: number; unknownSkipped: number };

type Counts = Omit<Extract<WebhookOutcome, { found: true }>, "found" | "ids">;

export async function handleApiPixWebhook(token: string, body: unknown, now: Date = new Date()): Promise<WebhookOutcome> {
  const config = await pspConfigByWebhookToken(token);
  if (!config) return { found: false };
  const log = getLogger().child({ component: "api-pix-webhook", account: config.companyId });
  const items = notificationItems(body);
  const n: Counts = { checked: 0, failed: 0, deferred: 0, throttled: 0, notOurs: 0, unknownRead: 0, unknownSkipped: 0 };
  if (items.length === 0 || incompleteReason(config)) return { found: true, ids: items.length, ...n };
  const companyId = config.companyId;
  const client = clientFor(config);
  const started = Date.now();
  const head = items.slice(0, SYNC_ITEMS);
  const ours = await oursAmong(companyId, head);
  // What is left to the reconciliation: items past the first ones (by txid and e2eid), and the charges
  // past their budget for the window (by id: an item may name it by its e2eid alone).
  const due = { items: items.slice(SYNC_ITEMS), chargeIds: new Set<number>() };
  // A budget found spent is not asked again within the notification (one UPDATE less per item).
  let unknownSpent = false;
  for (const item of head) {
    if (Date.now() - started > SYNC_BUDGET_MS) {
      due.items.push(item);
      continue;
    }
    const chargeId = ours.byE2eid.get(item.e2eid) ?? (item.txid !== undefined ? ours.byTxid.get(item.txid) : undefined);
    try {
      if (chargeId === undefined) {
        if (item.txid !== undefined) {
          n.notOurs++;
          continue;
        }
        if (unknownSpent || !(await claimUnknownRead(config.id, now))) {
          unknownSpent = true;
          n.unknownSkipped++;
          continue;
        }
        n.unknownRead++;
      } else if (due.chargeIds.has(chargeId) || !(await claimChargeRead(companyId, chargeId, now))) {
        n.throttled++;
        due.chargeIds.add(chargeId);
        due.items.push({ e2eid: item.e2eid });
        continue;
      }
      if (await readPix(client, companyId, item.e2eid, now)) n.checked++;
    } catch (e) {
      n.failed++;
      // The reconciliation finds what could not be read now.
      log.warn(e instanceof ApiPixError ? { code: e.code, operation: e.operation } : { code: "internal" }, "api-pix webhook: re-read failed");
    }
  }
  n.deferred = due.items.length - n.throttled;
  if (due.items.length > 0) await markDue(companyId, due.items, [...due.chargeIds], now);
  if (n.throttled > 0 || n.unknownSkipped > 0) {
    log.warn({ ids: items.length, throttled: n.throttled, unknownSkipped: n.unknownSkipped }, "api-pix webhook: items not re-read now (a charge notified again within seconds, or past the budget of ids naming nothing of ours)");
  }
  log.info({ ids: items.length, ...n }, "api-pix webhook handled");
  return { found: true, ids: items.length, ...n };
}

/**
 * `GET /pix/{e2eid}` and what it says of ours: the charge it paid (`GET /cob/{txid}`), our own
 * devoluções of it, and the returns made at the PSP without Arara (MED, or in the PSP's app) on it
 * (applyReturnsListed, which the reconciliation's re-read of a received Pix does too). True when a
 * charge was re-read.
 */
async function readPix(client: ApiPixClient, companyId: number, e2eid: string, now: Date): Promise<boolean> {
  const pix = await client.getPix(e2eid);
  let checked = false;
  if (pix.txid) {
    const charge = await chargeByTxid(companyId, pix.txid);
    if (charge) {
      await syncCharge(client, charge, now);
      checked = true;
    }
  }
  await applyReturnsListed(companyId, pix, now);
  return checked;
}

/**
 * The charges of the account the items name: by e2eid (a Pix of ours: decided on one of our charges,
 * or refunded through us) and by txid (any status). Two queries for the whole batch.
 */
async function oursAmong(companyId: number, items: Item[]): Promise<{ byE2eid: Map<string, number>; byTxid: Map<string, number> }> {
  const db = getDb();
  const e2eids = items.map((i) => i.e2eid);
  const txids = items.flatMap((i) => (i.txid ? [i.txid] : []));
  const [byE2eid, byTxid] = await Promise.all([
    e2eids.length === 0
      ? []
      : db
          .select({ e2eid: pspPixReceived.e2eid, transactionId: pspPixReceived.transactionId })
          .from(pspPixReceived)
          .where(and(eq(pspPixReceived.companyId, companyId), inArray(pspPixReceived.e2eid, e2eids)))
          .unionAll(
            db
              .select({ e2eid: pspRefunds.e2eid, transactionId: pspRefunds.transactionId })
              .from(pspRefunds)
              .where(and(eq(pspRefunds.companyId, companyId), inArray(pspRefunds.e2eid, e2eids))),
          ),
    txids.length === 0
      ? []
      : db
          .select({ txid: pspCharges.txid, transactionId: pspCharges.transactionId })
          .from(pspCharges)
          .where(and(eq(pspCharges.companyId, companyId), inArray(pspCharges.txid, txids))),
  ]);
  return { byE2eid: new Map(byE2eid.map((r) => [r.e2eid, r.transactionId])), byTxid: new Map(byTxid.map((r) => [r.txid, r.transactionId])) };
}

/**
 * A fixed-window budget held in the row itself (a count and the start of its window), taken one unit
 * at a time by a guarded UPDATE: of any number of takers at once, on any instance, at most `limit`
 * get a unit per window. A window that starts after `now` (another instance's clock, or the tests')
 * counts as over, so a clock ahead never blocks the others for long.
 */
function windowBudget(since: AnyPgColumn, count: AnyPgColumn, now: Date, windowMs: number, limit: number) {
  const fresh = or(isNull(since), lte(since, new Date(now.getTime() - windowMs)), gt(since, now))!;
  return {
    set: { count: sql`case when ${fresh} then 1 else ${count} + 1 end`, since: sql`case when ${fresh} then ${sql.param(now, since)} else ${since} end` },
    available: or(fresh, sql`${count} < ${limit}`)!,
  };
}

/** One re-read of a charge of ours for a notification, if its budget for the window has one left. */
async function claimChargeRead(companyId: number, transactionId: number, now: Date): Promise<boolean> {
  const b = windowBudget(pspCharges.notifiedReadsSince, pspCharges.notifiedReads, now, NOTIFIED_READS_WINDOW_MS, NOTIFIED_READS_PER_WINDOW);
  const [row] = await getDb()
    .update(pspCharges)
    .set({ notifiedReads: b.set.count, notifiedReadsSince: b.set.since })
    .where(and(eq(pspCharges.companyId, companyId), eq(pspCharges.transactionId, transactionId), b.available))
    .returning({ id: pspCharges.transactionId });
  return row !== undefined;
}

/** One re-read of an item naming nothing of ours, if the account's budget for this minute has one left. */
async function claimUnknownRead(configId: number, now: Date): Promise<boolean> {
  const c = accountPspConfigs;
  const b = windowBudget(c.unknownReadsSince, c.unknownReads, now, UNKNOWN_READS_WINDOW_MS, UNKNOWN_READS_PER_MINUTE);
  const [row] = await getDb()
    .update(c)
    .set({ unknownReads: b.set.count, unknownReadsSince: b.set.since })
    .where(and(eq(c.id, configId), b.available))
    .returning({ id: c.id });
  return row !== undefined;
}

/**
 * What the items name, due for the reconciliation first (nothing is decided here), all scoped by the
 * account: the pending charges they name (by txid, and the charges by id), the open refunds of their
 * e2eids, and the Pix of theirs that paid one of our charges (psp_pix_received, PAYING_DECISIONS): a
 * charge paid is no longer polled, and a return the PSP made on its Pix (a MED, weeks after the
 * payment, or a devolução made in the PSP's app) is found only by reading that Pix again. Marked with
 * the epoch, as a charge is; `dueSince` keeps when it was first marked (the backoff of failed reads).
 */
async function markDue(companyId: number, items: Item[], chargeIds: number[], now: Date): Promise<void> {
  const db = getDb();
  const txids = items.flatMap((i) => (i.txid ? [i.txid] : []));
  for (let i = 0; i < txids.length; i += 500) {
    await db
      .update(pspCharges)
      .set({ nextCheckAt: NOTIFIED_DUE })
      .where(and(eq(pspCharges.companyId, companyId), eq(pspCharges.status, "pending"), inArray(pspCharges.txid, txids.slice(i, i + 500))));
  }
  if (chargeIds.length > 0) {
    await db
      .update(pspCharges)
      .set({ nextCheckAt: NOTIFIED_DUE })
      .where(and(eq(pspCharges.companyId, companyId), eq(pspCharges.status, "pending"), inArray(pspCharges.transactionId, chargeIds)));
  }
  const e2eids = items.map((i) => i.e2eid);
  for (let i = 0; i < e2eids.length; i += 500) {
    const chunk = e2eids.slice(i, i + 500);
    await db
      .update(pspRefunds)
      .set({ nextCheckAt: NOTIFIED_DUE })
      .where(and(eq(pspRefunds.companyId, companyId), inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES]), inArray(pspRefunds.e2eid, chunk)));
    await db
      .update(pspPixReceived)
      .set({ nextCheckAt: NOTIFIED_DUE, dueSince: sql`coalesce(${pspPixReceived.dueSince}, ${sql.param(now, pspPixReceived.dueSince)})` })
      .where(and(eq(pspPixReceived.companyId, companyId), inArray(pspPixReceived.decision, [...PAYING_DECISIONS]), inArray(pspPixReceived.e2eid, chunk)));
  }
}
