import { getDb, type Tx } from "./client";

/**
 * Runs `fn` in a database transaction of its own, or, when the caller already holds one (the
 * idempotency layer, a payment link's row lock), in a savepoint of it. Either way a verb that throws
 * rolls back exactly its own writes, and an outer caller's transaction goes on (the idempotency
 * layer then records the error answer with the key).
 */
export function inTransaction<T>(outer: Tx | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return outer ? outer.transaction(fn) : getDb().transaction(fn);
}
