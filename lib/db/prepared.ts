import type { Db } from "./client";

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
