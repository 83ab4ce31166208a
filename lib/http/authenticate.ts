import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Db } from "@/lib/db/client";
import { preparedOn } from "@/lib/db/prepared";
import { accountPspConfigs, apiKeys, companies } from "@/lib/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { SECRET_KEY_RE } from "@/lib/services/accounts/accounts";
import type { Account } from "@/lib/services/context";
import { clientAddress } from "./client-address";
import { PUBLIC_LIMITS } from "./public-limits";
import { keyLimits, storedKey } from "./rate-limit";

/**
 * What every request with a secret key asks the database, in ONE statement (one round trip, one
 * commit on an unlogged table, no WAL flush):
 * - is the client's address refused for guessing keys (its invalid-key count used up)? It is read
 *   before anything counts, and a refused address gets a 429 whatever key it sends;
 * - the account of the key (an equality lookup on the key's SHA-256; revocation applies at once);
 * - the key's rate-limit windows (burst and sustained), counted by a data-modifying CTE only when the
 *   key exists and the address is not refused, with the same fixed-window rule as rate-limit.ts;
 * - which processor the account's PSP settings name, if any: a charge or a cash-out of an account
 *   without its own PSP then reads no settings (the services read the whole settings only when the
 *   account has them);
 * - for a PIX charge or a cash-out, its id (see `prepare`).
 * It replaces three statements (address check, lookup, count) that each authenticated request ran
 * before (tests/bench/PROFILE.md). Prepared once per database handle.
 */
export type Authentication = {
  account: Account | null;
  /** Seconds until the address may try again; null when it is not refused. */
  addressBlockedSeconds: number | null;
  /** Seconds until the key may call again (over its rate limit); null when allowed or not counted. */
  rateLimitedSeconds: number | null;
  /** The processor named by the account's PSP settings; null when it has none. */
  pspProcessor: string | null;
  /** The id the statement took from the sequence asked with `reserveId`, for a request that goes on. */
  reservedId: number | null;
};

/**
 * The sequences whose next id the authenticating statement can take for a request that needs its id
 * before its one writing statement: a PIX charge (its txid is built from it) and a cash-out (its
 * event and Efí's idEnvio are), each with its own prepared statement.
 */
export type ReservableId = "transactions" | "cash_outs";
const RESERVING: Record<ReservableId, string> = {
  transactions: "authenticate_secret_key_reserving",
  cash_outs: "authenticate_secret_key_reserving_cash_out",
};

type Counter = { key: string; hits: number; expires_ms: number };

const ph = (name: string) => sql.placeholder(name);

/**
 * With `reserve`, the statement also takes the next id of that table when the request will go on (the
 * key is valid, its address not refused, the key within both of its windows): a PIX charge or a
 * cash-out needs its id before its one writing statement, and taking it here spares it a round trip.
 * A request that fails after this (a 400, a 422) leaves the id unused: a gap, as a rolled-back insert
 * leaves in any sequence. The ids are one sequence for all accounts, so a merchant's own ids were
 * never contiguous.
 */
function prepare(db: Db, reserve: ReservableId | null) {
  const counted = db.$with("counted", { key: sql<string>`key` }).as(sql`
    insert into rate_limit_counters as c (key, window_start, hits, expires_at)
    select v.key, now(), 1, now() + make_interval(secs => v.secs)
    from (values (${ph("burstKey")}::text, ${ph("burstSeconds")}::int), (${ph("sustainedKey")}::text, ${ph("sustainedSeconds")}::int)) as v(key, secs)
    where exists (select 1 from api_keys k where k.secret_hash = ${ph("secretHash")} and k.revoked_at is null)
      and not exists (select 1 from rate_limit_counters g where g.key = ${ph("guardKey")} and g.expires_at > now() and g.hits >= ${ph("guardPoints")}::int)
    on conflict (key) do update set
      hits = case when c.expires_at > excluded.window_start then c.hits + 1 else 1 end,
      window_start = case when c.expires_at > excluded.window_start then c.window_start else excluded.window_start end,
      expires_at = case when c.expires_at > excluded.window_start then c.expires_at else excluded.expires_at end
    returning key, hits, (extract(epoch from expires_at) * 1000)::float8 as expires_ms`);
  return db
    .with(counted)
    .select({
      company: companies,
      guardMs: sql<number | null>`(select (extract(epoch from g.expires_at) * 1000)::float8 from rate_limit_counters g
        where g.key = ${ph("guardKey")} and g.expires_at > now() and g.hits >= ${ph("guardPoints")}::int)`,
      counters: sql<Counter[] | string | null>`(select json_agg(json_build_object('key', key, 'hits', hits, 'expires_ms', expires_ms)) from ${counted})`,
      nowMs: sql<number>`(extract(epoch from now()) * 1000)::float8`,
      pspProcessor: accountPspConfigs.processor,
      ...(reserve
        ? {
            reservedId: sql<string | null>`case when ${companies.id} is not null
              and not exists (select 1 from rate_limit_counters g where g.key = ${ph("guardKey")} and g.expires_at > now() and g.hits >= ${ph("guardPoints")}::int)
              and not exists (select 1 from ${counted} where (key = ${ph("burstKey")} and hits > ${ph("burstPoints")}::int) or (key = ${ph("sustainedKey")} and hits > ${ph("sustainedPoints")}::int))
              then nextval(pg_get_serial_sequence(${sql.raw(`'${reserve}'`)}, 'id'))::text end`,
          }
        : {}),
    })
    .from(sql`(select 1) as one`)
    .leftJoin(apiKeys, and(eq(apiKeys.secretHash, ph("secretHash")), isNull(apiKeys.revokedAt)))
    .leftJoin(companies, eq(companies.id, apiKeys.companyId))
    .leftJoin(accountPspConfigs, eq(accountPspConfigs.companyId, companies.id))
    .limit(1)
    .prepare(reserve ? RESERVING[reserve] : "authenticate_secret_key");
}
const prepareLookup = (db: Db) => prepare(db, null);

const secondsUntil = (endMs: number, nowMs: number) => Math.max(1, Math.ceil((endMs - nowMs) / 1000));

/** The account of a secret key, the address check and the key's rate-limit count, in one statement. */
export async function authenticateSecretKey(req: Request, secretKey: string, options: { reserveId?: ReservableId } = {}): Promise<Authentication> {
  const address = clientAddress(req.headers);
  const guard = PUBLIC_LIMITS.invalidKeyPerAddress;
  const { burst, sustained } = keyLimits();
  // A key of the wrong shape is looked up as an impossible hash: the address check still runs.
  const secretHash = SECRET_KEY_RE.test(secretKey) ? sha256Hex(secretKey) : "-";
  const tokenKey = secretHash.slice(0, 24);
  const reserve = options.reserveId;
  const statement = reserve
    ? preparedOn(getDb(), RESERVING[reserve], (db) => prepare(db, reserve))
    : preparedOn(getDb(), "authenticate_secret_key", prepareLookup);
  const [row] = (await statement.execute({
    secretHash,
    guardKey: address === "unknown" ? "-" : storedKey(guard, address),
    guardPoints: guard.points,
    burstKey: storedKey(burst, tokenKey),
    burstSeconds: burst.windowSeconds,
    sustainedKey: storedKey(sustained, tokenKey),
    sustainedSeconds: sustained.windowSeconds,
    burstPoints: burst.points,
    sustainedPoints: sustained.points,
  })) as (Awaited<ReturnType<ReturnType<typeof prepareLookup>["execute"]>>[number] & { reservedId?: string | null })[];
  const nowMs = Number(row.nowMs);
  const addressBlockedSeconds = row.guardMs === null ? null : secondsUntil(Number(row.guardMs), nowMs);
  const counters: Counter[] = typeof row.counters === "string" ? JSON.parse(row.counters) : (row.counters ?? []);
  let rateLimitedSeconds: number | null = null;
  for (const [limit, key] of [
    [burst, storedKey(burst, tokenKey)],
    [sustained, storedKey(sustained, tokenKey)],
  ] as const) {
    const c = counters.find((x) => x.key === key);
    if (c && Number(c.hits) > limit.points) rateLimitedSeconds = Math.max(rateLimitedSeconds ?? 0, secondsUntil(Number(c.expires_ms), nowMs));
  }
  const account = addressBlockedSeconds === null ? row.company : null;
  const reservedId = account && rateLimitedSeconds === null && row.reservedId != null ? Number(row.reservedId) : null;
  return { account, addressBlockedSeconds, rateLimitedSeconds, pspProcessor: row.pspProcessor ?? null, reservedId };
}
