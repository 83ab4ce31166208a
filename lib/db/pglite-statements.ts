import { protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/**
 * Statements prepared once per PGlite instance, as postgres.js keeps them per connection.
 *
 * PGlite's `query` sends every statement unnamed, in six separate calls into the database (Parse,
 * Describe the statement for its parameters' types, Bind, Describe the portal, Execute, Sync): the
 * embedded PostgreSQL parses, analyzes and plans the statement on every call, on the app's one thread,
 * and every call pays the crossings. Here a statement seen a second time is prepared under a name
 * (Parse and Describe, once), and each later call is one crossing: Bind, Execute, Sync. The
 * parameters' types and the row description come from that one Describe. PostgreSQL itself decides
 * between a custom and a generic plan, as it does for any prepared statement.
 *
 * The same rules as PGlite's own `query`:
 * - outside a transaction, a statement waits for any transaction to end (the transaction mutex) and
 *   then runs alone (the query mutex), and the file system is synced after it;
 * - inside `transaction(cb)`, the transaction object's `query` takes the query mutex only;
 * - a parameter goes through PGlite's serializer for the type PostgreSQL gave it, and the rows through
 *   PGlite's parsers and the caller's;
 * - an error is PGlite's DatabaseError with the query and parameters attached.
 *
 * What is kept is bounded: at most MAX_STATEMENTS statements (the least recently used is closed on the
 * server), and a text is prepared only on its second sighting, so one-off statements (migrations,
 * a report's ad hoc query) never take a name. A statement PostgreSQL no longer accepts in that form
 * (its result type changed with the schema) is dropped and, outside a transaction, run again.
 */

type BackendMessage = Awaited<ReturnType<PGlite["execProtocolStream"]>>[number];

export const MAX_STATEMENTS = 128;
const MAX_SIGHTINGS = 2048;

type Field = { name: string; dataTypeID: number };
type Prepared = { name: string; paramTypes: number[]; fields: Field[] };
type Parser = (value: string, typeId: number) => unknown;
type Internals = {
  serializers: Record<number, (x: unknown) => string>;
  parsers: QueryOptions["parsers"];
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
};

class StatementCache {
  readonly prepared = new Map<string, Prepared>(); // insertion order = least recently used first
  readonly seen = new Set<string>();
  private counter = 0;

  constructor(private readonly pg: PGlite) {}

  private get internals(): Internals {
    return this.pg as unknown as Internals;
  }

  /** Whether this call should use a prepared statement (and remembers the text for next time). */
  wants(text: string, options: QueryOptions | undefined): boolean {
    if (options?.blob || options?.paramTypes || options?.onNotice) return false;
    if (this.prepared.has(text)) return true;
    if (this.seen.has(text)) return true;
    if (this.seen.size >= MAX_SIGHTINGS) this.seen.clear();
    this.seen.add(text);
    return false;
  }

  /** Closes a statement on the server (under the query mutex). */
  private async close(name: string): Promise<void> {
    await this.pg.execProtocolStream(concat(protocol.serialize.close({ type: "S", name }), protocol.serialize.sync()), { syncToFs: false, throwOnError: false });
  }

  /** Runs under the query mutex (the caller holds it). */
  private async prepare(text: string): Promise<Prepared> {
    const hit = this.prepared.get(text);
    if (hit) {
      this.prepared.delete(text); // move to the most recently used end
      this.prepared.set(text, hit);
      return hit;
    }
    if (this.prepared.size >= MAX_STATEMENTS) {
      const [oldText, old] = this.prepared.entries().next().value as [string, Prepared];
      this.prepared.delete(oldText);
      await this.close(old.name);
    }
    const name = `arara_s${++this.counter}`;
    const messages = await this.pg.execProtocolStream(
      concat(protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync()),
      { syncToFs: false },
    );
    const params = messages.find((m) => m.name === "parameterDescription") as unknown as { dataTypeIDs: number[] } | undefined;
    const prepared: Prepared = {
      name,
      paramTypes: params?.dataTypeIDs ?? [],
      fields: ((messages.find((m) => m.name === "rowDescription") as unknown as { fields: Field[] } | undefined)?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    };
    this.prepared.set(text, prepared);
    this.seen.delete(text);
    return prepared;
  }

  /** Bind, Execute and Sync of a prepared statement, under the query mutex. */
  run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    const pg = this.internals;
    return pg._runExclusiveQuery(async () => {
      let statement: Prepared | undefined;
      try {
        statement = await this.prepare(text);
        const values = params.map((param, i) => {
          if (param === null || param === undefined) return null;
          const oid = statement!.paramTypes[i];
          const serialize = options?.serializers?.[oid] ?? pg.serializers[oid];
          return serialize ? serialize(param) : String(param);
        });
        const messages = await this.pg.execProtocolStream(
          concat(protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.execute({}), protocol.serialize.sync()),
          { syncToFs: false },
        );
        if (!inTransaction) await this.pg.syncToFs();
        return resultOf<T>(statement.fields, messages, options, pg.parsers as Record<number, Parser>);
      } catch (e) {
        if (statement && isStale(e)) {
          this.prepared.delete(text);
          await this.close(statement.name);
        }
        throw withQuery(e, text, params, options);
      }
    });
  }
}

/**
 * The result as PGlite's parseResults builds it (rows as objects or arrays, each value through the
 * caller's parser for its type, else PGlite's; the command and its row count), with the parsers
 * looked up once per column rather than merged into a new object on every call.
 */
function resultOf<T>(fields: Field[], messages: BackendMessage[], options: QueryOptions | undefined, defaults: Record<number, Parser>): Results<T> {
  const own = options?.parsers as Record<number, Parser> | undefined;
  const parsers = fields.map((f) => own?.[f.dataTypeID] ?? defaults[f.dataTypeID]);
  const asArray = options?.rowMode === "array";
  const rows: unknown[] = [];
  const result: Results<T> = { rows: rows as T[], fields, affectedRows: 0 };
  for (const message of messages) {
    if (message.name === "dataRow") {
      const values = (message as unknown as { fields: (string | null)[] }).fields;
      if (asArray) {
        rows.push(values.map((v, i) => (v === null ? null : parsers[i] ? parsers[i](v, fields[i].dataTypeID) : v)));
      } else {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < values.length; i++) {
          const v = values[i];
          row[fields[i].name] = v === null ? null : parsers[i] ? parsers[i](v, fields[i].dataTypeID) : v;
        }
        rows.push(row);
      }
    } else if (message.name === "commandComplete") {
      const parts = (message as unknown as { text: string }).text.split(" ");
      const command = parts[0];
      const rowCount = parseInt(parts[parts.length - 1], 10);
      if (["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(command)) result.affectedRows = rowCount;
      Object.assign(result, { command }, Number.isNaN(rowCount) ? {} : { rowCount });
    }
  }
  return result;
}

/** PostgreSQL refuses a prepared statement whose result type changed with the schema (0A000). */
const isStale = (e: unknown): boolean => (e as { code?: string }).code === "0A000" && /cached plan must not change result type/.test(String((e as Error).message));

function withQuery(e: unknown, query: string, params: unknown[], options: QueryOptions | undefined): unknown {
  if (e && typeof e === "object" && "code" in e) Object.assign(e, { query, params, queryOptions: options });
  return e;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/**
 * The PGlite instance as drizzle should see it: `query` (and a transaction's `query`) through the
 * statement cache, everything else PGlite's own.
 */
export function withPreparedStatements(pg: PGlite): PGlite {
  const cache = new StatementCache(pg);
  const internals = pg as unknown as Internals;
  const query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (!cache.wants(text, options)) return pg.query<T>(text, params, options);
    await internals._checkReady();
    return internals._runExclusiveTransaction(async () => {
      try {
        return await cache.run<T>(text, params, options, false);
      } catch (e) {
        if (!isStale(e)) throw e;
        return cache.run<T>(text, params, options, false); // prepared again from the current schema
      }
    });
  };
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
    pg.transaction((tx) =>
      callback(
        new Proxy(tx, {
          get(target, prop, receiver) {
            if (prop !== "query") return Reflect.get(target, prop, receiver);
            return async <R>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<R>> => {
              if (target.closed || !cache.wants(text, options)) return target.query<R>(text, params, options);
              return cache.run<R>(text, params, options, true);
            };
          },
        }),
      ),
    );
  return new Proxy(pg, {
    get(target, prop) {
      if (prop === "query") return query;
      if (prop === "transaction") return transaction;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
