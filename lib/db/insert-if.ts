import { getTableColumns, getTableName, is, sql, SQL, StringChunk, type SQLChunk } from "drizzle-orm";
import { CasingCache } from "drizzle-orm/casing";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { quoteName } from "./prepared";

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
  const record = values as Record<string, unknown>;
  const given = Object.entries(getTableColumns(table)).filter(([key]) => record[key] !== undefined);
  const shape = shapeOf(table, given, opts.overridingSystemValue === true);
  // One flat list (text, value, text, ...) rather than a nested SQL per column: drizzle walks every
  // chunk of a statement to build its text, and these statements run on every charge and cash-out.
  const chunks: unknown[] = [new StringChunk(shape.head)];
  given.forEach(([key, column], i) => {
    const value = record[key];
    const driver = value === null || is(value, SQL) ? value : column.mapToDriverValue(value);
    // A bare array is a parenthesized list to drizzle, not a value: it goes as one parameter.
    chunks.push(Array.isArray(driver) ? sql.param(driver) : driver, new StringChunk(shape.tails[i]));
  });
  chunks.push(condition);
  return new SQL(chunks as SQLChunk[]);
}

type Shape = { head: string; tails: string[] };
/** The fixed text of an insert, per table, columns given and OVERRIDING: a few shapes per table. */
const shapes = new Map<string, Shape>();

function shapeOf(table: PgTable, given: [string, PgColumn][], overriding: boolean): Shape {
  const key = `${getTableName(table)}|${overriding}|${given.map(([k]) => k).join(",")}`;
  let shape = shapes.get(key);
  if (!shape) {
    const names = given.map(([, column]) => quoteName(casing.getColumnCasing(column))).join(", ");
    shape = {
      head: `insert into ${quoteName(getTableName(table))} (${names})${overriding ? " overriding system value" : ""} select `,
      tails: given.map(([, column], i) => `::${column.getSQLType()}${i < given.length - 1 ? ", " : " where "}`),
    };
    shapes.set(key, shape);
  }
  return shape;
}

/**
 * insertIf for several rows of one table, every row or none: `INSERT INTO table (columns) SELECT ...
 * FROM jsonb_to_recordset($1) WHERE condition`. The rows go as one JSON parameter, so the statement's
 * text is the same whatever their number (a prepared statement, one plan). Every row gives the same
 * columns.
 */
export function insertManyIf<T extends PgTable>(table: T, rows: T["$inferInsert"][], condition: SQL): SQL {
  if (rows.length === 0) throw new Error(`No rows to insert into ${getTableName(table)}`);
  const records = rows as Record<string, unknown>[];
  const columns = Object.entries(getTableColumns(table));
  const given = columns.filter(([key]) => records[0][key] !== undefined);
  const keys = given.map(([key]) => key).join(",");
  const named = given.map(([key, column]) => ({ key, column, raw: casing.getColumnCasing(column), name: quoteName(casing.getColumnCasing(column)) }));
  const document = records.map((record) => {
    const also = columns.filter(([key]) => record[key] !== undefined).map(([key]) => key).join(",");
    if (also !== keys) throw new Error(`Rows for ${getTableName(table)} give different columns: ${keys} and ${also}`);
    // Each value as its column sends it to the driver, but a JSON column's as the JSON value itself.
    return Object.fromEntries(named.map(({ key, column, raw }) => {
      const value = record[key];
      return [raw, value === null || column.dataType === "json" ? value : column.mapToDriverValue(value)];
    }));
  });
  const names = named.map((c) => c.name).join(", ");
  const types = named.map((c) => `${c.name} ${c.column.getSQLType()}`).join(", ");
  return sql`insert into ${sql.raw(quoteName(getTableName(table)))} (${sql.raw(names)}) select ${sql.raw(names)} from jsonb_to_recordset(${JSON.stringify(document)}::jsonb) as v(${sql.raw(types)}) where ${condition}`;
}
