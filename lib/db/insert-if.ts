import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { CasingCache } from "drizzle-orm/casing";
import type { PgTable } from "drizzle-orm/pg-core";

/** The column names as the database has them: the handles are made with `casing: "snake_case"` (client.ts). */
const casing = new CasingCache("snake_case");

/**
 * `INSERT INTO table (columns given) [OVERRIDING SYSTEM VALUE] SELECT values WHERE condition`: an
 * insert that writes its row only when a condition of the same statement holds (a part of a
 * data-modifying CTE, lib/executor/cash-out-in-one-statement.ts). drizzle's `values()` has no WHERE.
 * Each value is encoded by its column (dates, JSON) and cast to the column's type, since a parameter
 * in a SELECT list has no type of its own.
 */
export function insertIf<T extends PgTable>(table: T, values: T["$inferInsert"], condition: SQL, opts: { overridingSystemValue?: boolean } = {}): SQL {
  const given = Object.entries(getTableColumns(table)).filter(([key]) => (values as Record<string, unknown>)[key] !== undefined);
  const names = given.map(([, column]) => sql.identifier(casing.getColumnCasing(column)));
  const params = given.map(([key, column]) => sql`${sql.param((values as Record<string, unknown>)[key], column)}::${sql.raw(column.getSQLType())}`);
  return sql`insert into ${table} (${sql.join(names, sql`, `)})${opts.overridingSystemValue ? sql` overriding system value` : sql``} select ${sql.join(params, sql`, `)} where ${condition}`;
}
