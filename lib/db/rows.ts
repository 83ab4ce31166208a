import { sql } from "drizzle-orm";
import type { Queryable } from "./client";
import { executePrepared } from "./prepared";

/** The rows of a raw `execute`: postgres.js returns them as an array, PGlite as `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/**
 * Takes the next id of a table's identity column, for a row written by one statement whose other parts
 * (the PIX txid, an outbox payload, Efí's idEnvio) are built from it. One `nextval` per row, not a block
 * cached in the process: ids stay gapless across a clean restart, which is how
 * tests/integration/shutdown-process.test.ts tells a clean stop from a crash recovery.
 */
export async function reserveId(q: Queryable, table: "transactions" | "cash_outs"): Promise<number> {
  const result = await executePrepared(q, sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::text as id`);
  return Number(rowsOf<{ id: string }>(result)[0].id);
}
