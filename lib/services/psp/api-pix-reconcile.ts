/**
 * The reconciliation of API Pix charges and refunds: catches what a notification never said.
 *
 * Each tick, in bounded batches, and safe to run on any number of instances (each item is claimed
 * with a lease, taken with FOR UPDATE SKIP LOCKED, so two instances never work on the same one):
 * 1. pending charges due for a look: `GET /cob/{txid}` (sync.ts decides); a payment link's charge that
 *    another charge paid is first removed at the PSP (`PATCH /cob/{txid}`, api-pix-abandon.ts). A read that fails is tried
 *    again with a growing delay (chargeRetryDelayMs), never every 2 minutes forever; a 404/410 for a
 *    charge past its expiry is the PSP having removed it (it expires as REMOVIDA_PELO_PSP would); a
 *    charge past its expiry by UNREACHABLE_AFTER_EXPIRY_MS whose reads still fail stops being polled,
 *    with a timeline note `psp_charge_unreachable` and an error log naming the transaction;
 * 2. open refunds: `GET /pix/{e2eid}/devolucao/{id}` (or the request again, if it was never answered);
 * 3. received Pix a PSP notification marked due (api-pix-webhook.ts, markDue: an item past the first
 *    ones, or past its charge's budget, naming a Pix that paid one of our charges): per account, at most
 *    RECEIVED_PER_ACCOUNT a tick, oldest mark first, `GET /pix/{e2eid}` and what it lists of returns
 *    (applyReturnsListed: our open devoluções settled, then a MED return or a devolução made in the
 *    PSP's app booked once). The mark is the claim: `next_check_at` holds the lease while the Pix is
 *    read, is cleared by a good read (unless a newer notification marked it again meanwhile), and a
 *    failed read sets it later (retryDelayMs from when it was marked, the PSP's Retry-After honoured; a
 *    429 holds back the rest of the account's batch too); one that still cannot be read
 *    RECEIVED_UNREADABLE_AFTER_MS after it was marked is dropped with an error log (needs attention);
 * 4. per PSP configuration, at most once a minute: `GET /pix?inicio=&fim=` over the time since the
 *    last read (with an overlap), and a re-read of every charge of ours a listed Pix names that was
 *    not decided yet (a late payment of an expired charge included); a return the PSP made by itself
 *    (MED), or made in the PSP's app, listed on a Pix that paid one of our charges is booked (applyMedReturns, once).
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, pspCharges, pspPixReceived, pspRefunds } from "@/lib/db/schema";
import { getLogger } from "@/lib/logger";
import { API_PIX_PROCESSOR, clientFor, incompleteReason, pspConfigOf, type PspConfigRow } from "@/lib/processors/api-pix/config";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { abandonedAmong, removeAbandonedCob } from "./api-pix-abandon";
import { applyMedReturns, applyReturnsListed, OPEN_REFUND_STATUSES, syncRefund } from "./api-pix-refunds";
import type { Pix } from "@/lib/processors/api-pix/schemas";
import { chargeByTxid, moveIfPending, syncCharge, type PspChargeRow } from "./api-pix-sync";

export type ReconcileOptions = { limit?: number; now?: Date; leaseMs?: number; scanIntervalMs?: number; receivedPerAccount?: number };
export type ReconcileResult = { charges: number; refunds: number; received: number; scans: number; errors: number };

/** Received Pix marked due by a notification that are re-read per account per tick, at most. */
export const RECEIVED_PER_ACCOUNT = 10;
/** A received Pix marked due whose re-reads keep failing this long is no longer re-read (needs attention). */
export const RECEIVED_UNREADABLE_AFTER_MS = 7 * 86_400_000;

/** How far back the first `GET /pix` of a configuration reads, and how much consecutive windows overlap. */
export const FIRST_SCAN_LOOKBACK_MS = 24 * 3_600_000;
export const SCAN_OVERLAP_MS = 10 * 60_000;
/** `GET /pix` page size: the spec's largest (paginacao.itensPorPagina up to 1000). */
export const SCAN_PAGE_SIZE = 1000;
/** Pages read per scan at most; a window with more is halved (down to SCAN_MIN_WINDOW_MS) until it fits. */
export const SCAN_MAX_PAGES = 20;
const SCAN_MIN_WINDOW_MS = 2 * SCAN_OVERLAP_MS;

type ScanClient = ReturnType<typeof clientFor>;

/**
 * The Pix received from `inicio` on, read in pages of SCAN_PAGE_SIZE: the window ends at `fim`, or
 * earlier when it holds more than SCAN_MAX_PAGES pages (halved until it fits: a busy account's
 * window advances by what was read, it never fails every minute over the same window). Returns the
 * Pix and where the window read ends (what pixScannedUntil may become).
 */
async function scanWindow(client: ScanClient, inicio: Date, fim: Date): Promise<{ listed: Pix[]; until: Date }> {
  let end = fim;
  for (;;) {
    const first = await client.listPix({ inicio, fim: end, txIdPresente: true, paginaAtual: 0, itensPorPagina: SCAN_PAGE_SIZE });
    // Undefined when the PSP did not say and the first page is full (pagesOf): pages are read until
    // one comes back empty or short, and a window still not read to its end after SCAN_MAX_PAGES is
    // halved as one said to be too long would be.
    const stated = first.parametros.paginacao.quantidadeDePaginas;
    const span = end.getTime() - inicio.getTime();
    const halve = () => new Date(inicio.getTime() + Math.max(SCAN_MIN_WINDOW_MS, Math.floor(span / 2)));
    if (stated !== undefined && stated > SCAN_MAX_PAGES && span > SCAN_MIN_WINDOW_MS) {
      end = halve();
      continue;
    }
    const listed = [...first.pix];
    // A count the PSP stated is read up to SCAN_MAX_PAGES; without one, the window is read when a page
    // comes back empty or known to be the last (short).
    let readToEnd = stated !== undefined;
    for (let page = 1; page < Math.min(stated ?? SCAN_MAX_PAGES, SCAN_MAX_PAGES) && (stated === undefined || first.pix.length > 0); page++) {
      const next = await client.listPix({ inicio, fim: end, txIdPresente: true, paginaAtual: page, itensPorPagina: SCAN_PAGE_SIZE });
      if (next.pix.length === 0) {
        readToEnd = true;
        break;
      }
      listed.push(...next.pix);
      const pages = next.parametros.paginacao.quantidadeDePaginas;
      if (stated === undefined && pages !== undefined && page + 1 >= pages) {
        readToEnd = true;
        break;
      }
    }
    if (!readToEnd && span > SCAN_MIN_WINDOW_MS) {
      end = halve();
      continue;
    }
    if ((stated ?? 0) > SCAN_MAX_PAGES || !readToEnd) log().error({ pages: stated ?? "unknown", inicio, fim: end }, "api-pix GET /pix: more Pix than a scan reads even in its smallest window: the rest is left to each charge's own re-read");
    return { listed, until: end };
  }
}

const log = () => getLogger().child({ component: "api-pix-reconcile" });

/** A charge whose reads keep failing this long past its expiry stops being polled (needs attention). */
export const UNREACHABLE_AFTER_EXPIRY_MS = 7 * 86_400_000;
const MIN_RETRY_MS = 2 * 60_000;
const MAX_RETRY_MS = 60 * 60_000;

/**
 * When to read something again after a failed read: the time since `since` (its last good read, or
 * since when it has been waiting for one), between 2 and 60 minutes, so consecutive failures wait 2,
 * 2, 4, 8, ... 60 minutes without a counter; a Retry-After the PSP sent (when the error carries one,
 * `retryAfterMs`) is honoured up to the cap.
 */
export function retryDelayMs(since: Date, now: Date, error?: unknown): number {
  let delay = Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, now.getTime() - since.getTime()));
  const retryAfter = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  if (typeof retryAfter === "number" && Number.isFinite(retryAfter) && retryAfter > delay) delay = Math.min(MAX_RETRY_MS, retryAfter);
  return delay;
}

/** A charge's retryDelayMs, counted from its last good read (or its creation). */
export function chargeRetryDelayMs(charge: Pick<PspChargeRow, "checkedAt" | "createdAt">, now: Date, error?: unknown): number {
  return retryDelayMs(charge.checkedAt ?? charge.createdAt, now, error);
}

/** A failed read of a charge: expire it (removed at the PSP), give up on it (needs attention), or try later. */
async function afterChargeError(charge: PspChargeRow, e: unknown, now: Date): Promise<void> {
  const db = getDb();
  const expired = now.getTime() > charge.expiresAt.getTime();
  const gone = e instanceof ApiPixError && (e.httpStatus === 404 || e.httpStatus === 410);
  const fields = { account: charge.companyId, transaction: charge.transactionId, ...errorFields(e) };
  if (gone && expired) {
    // The PSP removed the charge after its expiry (as some do): it expires as REMOVIDA_PELO_PSP would.
    await moveIfPending(charge.transactionId, { status: "expired", leaseUntil: null, updatedAt: now }, "psp_charge_expired", now);
    log().info(fields, "api-pix charge no longer at the PSP after its expiry: expired");
    return;
  }
  if (expired && now.getTime() > charge.expiresAt.getTime() + UNREACHABLE_AFTER_EXPIRY_MS) {
    const moved = await moveIfPending(charge.transactionId, { status: "expired", leaseUntil: null, updatedAt: now }, "psp_charge_unreachable", now);
    if (moved) log().error(fields, "api-pix charge could not be read at the PSP for 7 days after its expiry: no longer polled, needs attention (check it at the PSP)");
    return;
  }
  if (gone) log().warn(fields, "api-pix charge not found at the PSP before its expiry: checked again");
  await db
    .update(pspCharges)
    .set({ leaseUntil: null, nextCheckAt: new Date(now.getTime() + chargeRetryDelayMs(charge, now, e)) })
    .where(eq(pspCharges.transactionId, charge.transactionId));
}

function errorFields(e: unknown) {
  return e instanceof ApiPixError ? { code: e.code, operation: e.operation, httpStatus: e.httpStatus } : { code: "internal", err: e instanceof Error ? e.name : "error" };
}

async function configs(cache: Map<number, PspConfigRow | null>, companyId: number) {
  if (!cache.has(companyId)) cache.set(companyId, await pspConfigOf(companyId));
  const c = cache.get(companyId)!;
  return c && !incompleteReason(c) ? c : null;
}

export async function reconcileApiPix(opts: ReconcileOptions = {}): Promise<ReconcileResult> {
  const limit = opts.limit ?? 50;
  const now = opts.now ?? new Date();
  const leaseUntil = new Date(now.getTime() + (opts.leaseMs ?? 120_000));
  const db = getDb();
  const result: ReconcileResult = { charges: 0, refunds: 0, received: 0, scans: 0, errors: 0 };
  const cache = new Map<number, PspConfigRow | null>();

  // 1. Pending charges due.
  const dueCharges = db
    .select({ id: pspCharges.transactionId })
    .from(pspCharges)
    .where(and(sql`${pspCharges.status} = 'pending'` /* a literal: the partial due index (lib/webhooks/claim.ts) */, lte(pspCharges.nextCheckAt, now), or(isNull(pspCharges.leaseUntil), lt(pspCharges.leaseUntil, now))))
    .orderBy(asc(pspCharges.nextCheckAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  const charges = await db.update(pspCharges).set({ leaseUntil }).where(inArray(pspCharges.transactionId, dueCharges)).returning();
  // A link's charge Arara no longer takes (another charge paid the link): removed at the PSP first.
  const abandoned = await abandonedAmong(charges.map((c) => c.transactionId));
  for (const charge of charges) {
    const config = await configs(cache, charge.companyId);
    try {
      if (!config) throw new Error("no usable PSP configuration");
      const client = clientFor(config);
      // Best effort: whatever the PSP answers to the removal (a 422, no PATCH at all, a time-out), the
      // charge is read as usual, so money that arrived is booked; the removal is asked again next time.
      if (abandoned.has(charge.transactionId)) await removeAbandonedCob(client, charge).catch(() => "failed" as const);
      await syncCharge(client, charge, now);
      result.charges++;
    } catch (e) {
      result.errors++;
      log().warn({ account: charge.companyId, transaction: charge.transactionId, ...errorFields(e) }, "api-pix charge re-read failed");
      await afterChargeError(charge, e, now);
    }
  }

  // 2. Open refunds due.
  const dueRefunds = db
    .select({ id: pspRefunds.id })
    .from(pspRefunds)
    .where(
      and(
        inArray(pspRefunds.status, [...OPEN_REFUND_STATUSES]),
        lte(pspRefunds.nextCheckAt, now),
        or(isNull(pspRefunds.leaseUntil), lt(pspRefunds.leaseUntil, now)),
      ),
    )
    .orderBy(asc(pspRefunds.nextCheckAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  const refunds = await db.update(pspRefunds).set({ leaseUntil }).where(inArray(pspRefunds.id, dueRefunds)).returning();
  for (const refund of refunds) {
    const config = await configs(cache, refund.companyId);
    try {
      if (!config) throw new Error("no usable PSP configuration");
      await syncRefund(clientFor(config), refund, now);
      result.refunds++;
    } catch (e) {
      result.errors++;
      log().warn({ account: refund.companyId, refund: refund.id, ...errorFields(e) }, "api-pix refund re-read failed");
      await db.update(pspRefunds).set({ leaseUntil: null }).where(eq(pspRefunds.id, refund.id));
    }
  }

  // 3. Received Pix a notification marked due.
  await rereadReceived(opts.receivedPerAccount ?? RECEIVED_PER_ACCOUNT, Math.max(1, Math.floor(limit / 5)), now, leaseUntil, cache, result);

  // 4. The `GET /pix` scan of each API Pix configuration due (leaseUntil doubles as "not before").
  const scanInterval = opts.scanIntervalMs ?? 60_000;
  const dueConfigs = db
    .select({ id: accountPspConfigs.id })
    .from(accountPspConfigs)
    .where(and(eq(accountPspConfigs.processor, API_PIX_PROCESSOR), or(isNull(accountPspConfigs.leaseUntil), lt(accountPspConfigs.leaseUntil, now))))
    .orderBy(asc(sql`coalesce(${accountPspConfigs.pixScannedUntil}, 'epoch'::timestamptz)`))
    .limit(Math.max(1, Math.floor(limit / 5)))
    .for("update", { skipLocked: true });
  const toScan = await db.update(accountPspConfigs).set({ leaseUntil }).where(inArray(accountPspConfigs.id, dueConfigs)).returning();
  for (const config of toScan) {
    let scannedUntil = config.pixScannedUntil;
    try {
      if (incompleteReason(config)) continue;
      const inicio = new Date(Math.max(now.getTime() - FIRST_SCAN_LOOKBACK_MS, (config.pixScannedUntil?.getTime() ?? 0) - SCAN_OVERLAP_MS));
      const client = clientFor(config);
      const { listed, until } = await scanWindow(client, inicio, now);
      const seen = new Set<string>();
      for (const pix of listed) {
        if (!pix.txid) continue;
        if (!seen.has(pix.txid)) {
          const [decided] = await db.select({ e2eid: pspPixReceived.e2eid }).from(pspPixReceived).where(eq(pspPixReceived.e2eid, pix.endToEndId));
          const charge = decided ? null : await chargeByTxid(config.companyId, pix.txid);
          if (charge) {
            seen.add(pix.txid);
            try {
              await syncCharge(client, charge, now);
              result.charges++;
            } catch (e) {
              // One charge that cannot be read does not hold the window back: it is looked at again soon.
              result.errors++;
              log().warn({ account: config.companyId, transaction: charge.transactionId, ...errorFields(e) }, "api-pix charge named by GET /pix could not be re-read");
              if (charge.status === "pending") await db.update(pspCharges).set({ nextCheckAt: now }).where(eq(pspCharges.transactionId, charge.transactionId));
            }
          }
        }
        // A return made at the PSP without Arara (MED, or in the bank's own app) listed on a Pix that
        // paid one of our charges: booked once.
        if (pix.devolucoes?.length) {
          try {
            await applyMedReturns(config.companyId, pix, now);
          } catch (e) {
            result.errors++;
            log().warn({ account: config.companyId, ...errorFields(e) }, "api-pix MED return listed by GET /pix could not be applied");
          }
        }
      }
      // Never backwards: a halved window ends after the previous one (it starts at most SCAN_OVERLAP_MS before it).
      scannedUntil = config.pixScannedUntil && config.pixScannedUntil > until ? config.pixScannedUntil : until;
      result.scans++;
    } catch (e) {
      result.errors++;
      log().warn({ account: config.companyId, ...errorFields(e) }, "api-pix GET /pix scan failed");
    } finally {
      await db
        .update(accountPspConfigs)
        .set({ pixScannedUntil: scannedUntil, leaseUntil: new Date(now.getTime() + scanInterval) })
        .where(eq(accountPspConfigs.id, config.id));
    }
  }
  return result;
}

type DueReceived = { e2eid: string; companyId: number; transactionId: number; dueSince: Date | null };

/**
 * Step 3: the received Pix due (a notification's mark), of at most `accounts` accounts (those due the
 * longest first), at most `perAccount` each, oldest mark first. Each is claimed by moving its mark to
 * the lease's end (FOR UPDATE SKIP LOCKED: two instances never take the same one, and one that stops
 * mid-read leaves it due again when the lease ends), then read.
 */
async function rereadReceived(perAccount: number, accounts: number, now: Date, leaseUntil: Date, cache: Map<number, PspConfigRow | null>, result: ReconcileResult): Promise<void> {
  const db = getDb();
  const p = pspPixReceived;
  const dueAccounts = await db
    .select({ companyId: p.companyId })
    .from(p)
    .where(lte(p.nextCheckAt, now))
    .groupBy(p.companyId)
    .orderBy(asc(sql`min(${p.nextCheckAt})`))
    .limit(accounts);
  for (const { companyId } of dueAccounts) {
    const due = db
      .select({ e2eid: p.e2eid })
      .from(p)
      .where(and(eq(p.companyId, companyId), lte(p.nextCheckAt, now)))
      .orderBy(asc(p.nextCheckAt))
      .limit(perAccount)
      .for("update", { skipLocked: true });
    const claimed: DueReceived[] = await db
      .update(p)
      .set({ nextCheckAt: leaseUntil })
      .where(inArray(p.e2eid, due))
      .returning({ e2eid: p.e2eid, companyId: p.companyId, transactionId: p.transactionId, dueSince: p.dueSince });
    if (claimed.length === 0) continue;
    const config = await configs(cache, companyId);
    // A PSP that asked to wait (429, or a Retry-After) is not asked about the rest of the batch now.
    let heldBack: unknown = null;
    for (const row of claimed) {
      if (heldBack) {
        await afterReceivedError(row, heldBack, now, leaseUntil, false);
        continue;
      }
      try {
        if (!config) throw new Error("no usable PSP configuration");
        const pix = await clientFor(config).getPix(row.e2eid);
        await applyReturnsListed(companyId, pix, now);
        // Cleared only if still this claim's: a notification that marked it again meanwhile keeps it due.
        await db
          .update(p)
          .set({ nextCheckAt: null, dueSince: null })
          .where(and(eq(p.e2eid, row.e2eid), eq(p.nextCheckAt, leaseUntil)));
        result.received++;
      } catch (e) {
        result.errors++;
        if (e instanceof ApiPixError && (e.httpStatus === 429 || e.retryAfterMs !== undefined)) heldBack = e;
        await afterReceivedError(row, e, now, leaseUntil, true);
      }
    }
  }
}

/** A received Pix not read: due again later (the backoff), or, unreadable for too long, no longer. */
async function afterReceivedError(row: DueReceived, e: unknown, now: Date, leaseUntil: Date, read: boolean): Promise<void> {
  const since = row.dueSince ?? now;
  const fields = { account: row.companyId, transaction: row.transactionId, ...errorFields(e) };
  const giveUp = now.getTime() - since.getTime() > RECEIVED_UNREADABLE_AFTER_MS;
  if (giveUp) {
    log().error(fields, "api-pix: a Pix a notification named could not be re-read at the PSP for 7 days: no longer re-read, needs attention (check its returns at the PSP: a MED, or one made in the PSP's app, is not booked)");
  } else if (read) {
    log().warn(fields, "api-pix received Pix re-read failed: tried again later");
  }
  await getDb()
    .update(pspPixReceived)
    .set(giveUp ? { nextCheckAt: null, dueSince: null } : { nextCheckAt: new Date(now.getTime() + retryDelayMs(since, now, e)), dueSince: since })
    .where(and(eq(pspPixReceived.e2eid, row.e2eid), eq(pspPixReceived.nextCheckAt, leaseUntil)));
}
