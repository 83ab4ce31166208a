import { getTableColumns, getTableName, sql, type SQL, type Table } from "drizzle-orm";
import { CasingCache } from "drizzle-orm/casing";
import type { Db, Queryable } from "./client";
import { rowsOf } from "./rows";

/**
 * A prepared statement per database handle and name: drizzle builds the SQL and the row mapping
 * once instead of on every call (the hot paths: authentication, reading one row, moving a balance;
 * tests/bench/PROFILE.md measures what it saves). A new handle (a reopened database) prepares again.
 */
const statements = new WeakMap<Db, Map<string, unknown>>();

export function preparedOn<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) byName.set(name, (statement = build(db)));
  return statement;
}

type Session = { prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: boolean): { execute(): Promise<unknown> } };
type Dialect = { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };

/**
 * Runs a raw statement (one drizzle built) as a prepared statement of the server. drizzle sends a raw
 * `execute` unnamed, so PostgreSQL parses and plans it on every call; named, postgres.js keeps it per
 * connection and query text, and the server parses it once per connection. For the hot statements
 * whose text is the same from call to call (every value a bind parameter, as drizzle's `sql` makes
 * them): a statement whose text changed with every call would only fill postgres.js's cache. Works in a
 * transaction as outside one; PGlite runs it as `execute` does.
 */
export function executePrepared(q: Queryable, query: SQL): Promise<unknown> {
  const { session, dialect } = q as unknown as { session: Session; dialect: Dialect };
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, "server-prepared", false).execute();
}

/**
 * Rows of one table from a raw result, mapped as drizzle maps a `select()` of the table (each column's
 * `mapFromDriverValue`, null kept null), by a decoder made once per table. drizzle's own mapping walks
 * every field of every row through its class checks (`is()`), which a list page of 20 rows of some
 * fifty columns pays a thousand times per request (tests/bench/PROFILE.md, eighth round).
 */
const casing = new CasingCache("snake_case"); // the handles' casing (client.ts)

/** A name quoted as an SQL identifier (a table's or a column's, in statements written as text). */
export const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;
const decoders = new WeakMap<Table, (raw: Record<string, unknown>) => Record<string, unknown>>();

export function tableRowsOf<T extends Table>(table: T, raw: Record<string, unknown>[]): T["$inferSelect"][] {
  let decode = decoders.get(table);
  if (!decode) {
    const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: casing.getColumnCasing(column), column }));
    decode = (row) => {
      const out: Record<string, unknown> = {};
      for (const { key, name, column } of columns) {
        const value = row[name];
        out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
      }
      return out;
    };
    decoders.set(table, decode);
  }
  return raw.map(decode) as T["$inferSelect"][];
}

/**
 * A table's columns as the select list of a raw statement (`"t"."id", "t"."created_at", ...`), made
 * once per table: drizzle's `select({ row: table })` walks and names every column of the selection on
 * every call (buildSelection, the column's casing), which a list page paid on each request. The rows
 * come back under the columns' names, for tableRowsOf.
 */
const selectLists = new WeakMap<Table, SQL>();

export function tableColumnsOf(table: Table): SQL {
  let list = selectLists.get(table);
  if (!list) {
    const t = quoteName(getTableName(table));
    list = sql.raw(Object.values(getTableColumns(table)).map((column) => `${t}.${quoteName(casing.getColumnCasing(column))}`).join(", "));
    selectLists.set(table, list);
  }
  return list;
}

/**
 * One page of a table's rows (every column, decoded as `select()` decodes them) and a count, in one
 * statement prepared on the server: `count` is an uncorrelated subquery (counted once per statement)
 * that each row carries. A page past the end has no row to carry it, and is counted alone.
 */
export async function readPage<T extends Table>(
  q: Queryable,
  table: T,
  page: { filter: SQL | undefined; order: SQL[]; limit: number; offset: number; count: SQL },
): Promise<{ rows: T["$inferSelect"][]; n: number }> {
  const raw = rowsOf<Record<string, unknown>>(
    await executePrepared(q, sql`select ${tableColumnsOf(table)}, ${page.count} as n from ${table} where ${page.filter}
      order by ${sql.join(page.order, sql`, `)} limit ${page.limit} offset ${page.offset}`),
  );
  const n = raw.length ? raw[0].n : rowsOf<{ n: unknown }>(await executePrepared(q, sql`select ${page.count} as n`))[0].n;
  return { rows: tableRowsOf(table, raw), n: Number(n) };
}
