/**
 * The reconciliation of API Pix charges and refunds: catches what a notification never said.
 *
 * Each tick, in bounded batches, and safe to run on any number of instances (each item is claimed
 * with a lease, taken with FOR UPDATE SKIP LOCKED, so two instances never work on the same one):
 * 1. pending charges due for a look: `GET /cob/{txid}` (sync.ts decides);
 * 2. open refunds: `GET /pix/{e2eid}/devolucao/{id}` (or the request again, if it was never answered);
 * 3. per PSP configuration, at most once a minute: `GET /pix?inicio=&fim=` over the time since the
 *    last read (with an overlap), and a re-read of every charge of ours a listed Pix names that was
 *    not decided yet (a late payment of an expired charge included).
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { accountPspConfigs, pspCharges, pspPixReceived, pspRefunds } from "@/lib/db/schema";
import { getLogger } from "@/lib/logger";
import { API_PIX_PROCESSOR, clientFor, incompleteReason, pspConfigOf, type PspConfigRow } from "@/lib/processors/api-pix/config";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { OPEN_REFUND_STATUSES, syncRefund } from "./api-pix-refunds";
import { chargeByTxid, syncCharge } from "./api-pix-sync";

export type ReconcileOptions = { limit?: number; now?: Date; leaseMs?: number; scanIntervalMs?: number };
export type ReconcileResult = { charges: number; refunds: number; scans: number; errors: number };

/** How far back the first `GET /pix` of a configuration reads, and how much consecutive windows overlap. */
export const FIRST_SCAN_LOOKBACK_MS = 24 * 3_600_000;
export const SCAN_OVERLAP_MS = 10 * 60_000;

const log = () => getLogger().child({ component: "api-pix-reconcile" });

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
  const result: ReconcileResult = { charges: 0, refunds: 0, scans: 0, errors: 0 };
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
  for (const charge of charges) {
    const config = await configs(cache, charge.companyId);
    try {
      if (!config) throw new Error("no usable PSP configuration");
      await syncCharge(clientFor(config), charge, now);
      result.charges++;
    } catch (e) {
      result.errors++;
      log().warn({ account: charge.companyId, transaction: charge.transactionId, ...errorFields(e) }, "api-pix charge re-read failed");
      await db
        .update(pspCharges)
        .set({ leaseUntil: null, nextCheckAt: new Date(now.getTime() + 2 * 60_000) })
        .where(eq(pspCharges.transactionId, charge.transactionId));
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

  // 3. The `GET /pix` scan of each API Pix configuration due (leaseUntil doubles as "not before").
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
      const listed = await client.listAllPix({ inicio, fim: now, txIdPresente: true }, 20);
      const seen = new Set<string>();
      for (const pix of listed) {
        if (!pix.txid || seen.has(pix.txid)) continue;
        const [decided] = await db.select({ e2eid: pspPixReceived.e2eid }).from(pspPixReceived).where(eq(pspPixReceived.e2eid, pix.endToEndId));
        if (decided) continue;
        const charge = await chargeByTxid(config.companyId, pix.txid);
        if (!charge) continue;
        seen.add(pix.txid);
        await syncCharge(client, charge, now);
        result.charges++;
      }
      scannedUntil = now;
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
