import type { Db } from "@/lib/db/client";

/**
 * Wakes the webhook dispatchers when an event to deliver is committed, instead of leaving it to the
 * next poll (polling stays as the safety net: a missed wake costs one poll interval, never an event).
 *
 * The signal is PostgreSQL's NOTIFY on the channel below, issued in the same database transaction as
 * the outbox row (in the statement that writes it): PostgreSQL delivers it when, and only when, that
 * transaction commits, to every listening session. With a PostgreSQL server that reaches the app
 * instances and the separate workers alike (postgres.js keeps a dedicated LISTEN connection and
 * re-listens after a reconnect). With the embedded database (PGlite, one process) the notification
 * comes back in-process with the result of the COMMIT: the same rule, after commit and never for a
 * rolled-back transaction.
 *
 * The payload is the event id (decimal text). Identical notifications of one transaction are merged
 * by PostgreSQL; distinct ids are not, which costs a few bytes each and lets a listener know which
 * events were committed.
 */
export const OUTBOX_CHANNEL = "arara_outbox";

type Listener = { listen: (channel: string, cb: (payload: string) => void) => Promise<unknown> };

/**
 * Calls `onEvent(id)` for every outbox event committed from now on (any process on a PostgreSQL
 * server; this process on PGlite). Resolves once listening; the returned function stops it.
 */
export async function listenOutbox(db: Db, onEvent: (id: number) => void): Promise<() => Promise<void>> {
  const client = (db as unknown as { $client: Listener }).$client;
  const handle = await client.listen(OUTBOX_CHANNEL, (payload) => onEvent(Number(payload)));
  return async () => {
    // postgres.js: { unlisten }; PGlite: an unsubscribe function.
    if (typeof handle === "function") await (handle as () => Promise<void>)();
    else await (handle as { unlisten: () => Promise<void> }).unlisten();
  };
}
