/**
 * One row of the caller's account by id: the read every "get" and "lock then change" verb starts with.
 * Another account's id reads as missing (404), so ids cannot be probed across accounts.
 */
import { and, eq } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Queryable } from "@/lib/db/client";
import { idOrNotFound } from "@/lib/core/ids";
import { notFound } from "./errors";

type OwnedTable = PgTable & { id: AnyPgColumn; companyId: AnyPgColumn };

export async function ownedRow<T extends OwnedTable>(
  db: Queryable,
  table: T,
  what: string,
  accountId: number,
  rawId: number | string,
  opts: { forUpdate?: boolean } = {},
): Promise<T["$inferSelect"]> {
  const id = idOrNotFound(rawId, what);
  const query = db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.companyId, accountId)))
    .limit(1);
  const rows = opts.forUpdate ? await query.for("update") : await query;
  if (!rows[0]) throw notFound(what);
  return rows[0] as T["$inferSelect"];
}
