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
 * - an error is PGlite's DatabaseError with the query and parameters attached;
 * - a notification reaches the listeners registered through this wrapper (every `listen` of the app's
 *   handle), once.
 *
 * A prepared statement's response is read from its bytes here (`readResult`) rather than by PGlite's
 * protocol parser, which copies every value into an ArrayBuffer of its own before decoding it; an
 * error or a notice in the response is still read by PGlite's parser.
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

  /** Who listens on which channel (PostgreSQL's name for it), for the notifications the raw path reads. */
  readonly listeners = new Map<string, Set<(payload: string) => void>>();
  readonly globalListeners = new Set<(channel: string, payload: string) => void>();

  constructor(private readonly pg: PGlite) {}

  /** A notification read from a response: to its listeners after the current code, as PGlite does. */
  readonly notify = (channel: string, payload: string): void => {
    for (const cb of this.listeners.get(channel) ?? []) queueMicrotask(() => cb(payload));
    for (const cb of this.globalListeners) queueMicrotask(() => cb(channel, payload));
  };

  /**
   * A response with a message the fast reader leaves to PGlite (an error, a notice): read by PGlite's
   * own protocol parser, with PGlite's rules (the first error is thrown once the response is read;
   * nothing after it is used; a notice reaches the console only in PGlite's debug mode).
   */
  private readWithPglite<T>(response: Buffer, fields: Field[], parsers: (Parser | undefined)[], options: QueryOptions | undefined): Results<T> {
    const messages: BackendMessage[] = [];
    let error: unknown;
    new protocol.Parser().parse(response, (message) => {
      if (error) return;
      if (message instanceof protocol.messages.DatabaseError) error = message;
      else if (message instanceof protocol.messages.NotificationResponseMessage) this.notify(message.channel, message.payload);
      else if (message instanceof protocol.messages.NoticeMessage && (this.pg as unknown as { debug: number }).debug > 0) console.warn(message);
      messages.push(message);
    });
    if (error) throw error;
    return resultOf<T>(fields, messages, parsers, options?.rowMode === "array");
  }

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
        const chunks: Buffer[] = [];
        await this.pg.execProtocolRawStream(
          concat(protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.execute({}), protocol.serialize.sync()),
          { syncToFs: false, onRawData: (bytes) => chunks.push(Buffer.from(bytes)) }, // a view of the database's memory: copied at once
        );
        const response = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        const parsers = parsersOf(statement.fields, options, pg.parsers as Record<number, Parser>);
        const result = readResult<T>(response, statement.fields, parsers, options?.rowMode === "array", this.notify) ?? this.readWithPglite<T>(response, statement.fields, parsers, options);
        if (!inTransaction) await this.pg.syncToFs();
        return result;
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

/** Each column's parser: the caller's for its type, else PGlite's; looked up once per call, not per value. */
function parsersOf(fields: Field[], options: QueryOptions | undefined, defaults: Record<number, Parser>): (Parser | undefined)[] {
  const own = options?.parsers as Record<number, Parser> | undefined;
  return fields.map((f) => own?.[f.dataTypeID] ?? defaults[f.dataTypeID]);
}

/** Sets the command and its row count on a result, as PGlite's parseResults does. */
function complete(result: Results<unknown>, text: string): void {
  const parts = text.split(" ");
  const command = parts[0];
  const rowCount = parseInt(parts[parts.length - 1], 10);
  if (["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(command)) result.affectedRows = rowCount;
  Object.assign(result, { command }, Number.isNaN(rowCount) ? {} : { rowCount });
}

const DATA_ROW = 0x44; // D
const COMMAND_COMPLETE = 0x43; // C
const NOTIFICATION = 0x41; // A
/** Messages with nothing to read: BindComplete (2), ReadyForQuery (Z), NoData (n), EmptyQueryResponse (I), PortalSuspended (s). */
const NOTHING_TO_READ = new Set([0x32, 0x5a, 0x6e, 0x49, 0x73]);

/**
 * The response of a Bind, Execute and Sync, read straight from its bytes: the rows (each text value
 * decoded in place and through its column's parser), the command and its row count, and the
 * notifications (handed to `notify`). PGlite's parser copies every value into an ArrayBuffer of its
 * own before decoding it, which on a page of twenty transactions was about a tenth of the request's
 * CPU (tests/bench/PROFILE.md). Returns null, having read nothing else, when the response holds a
 * message this reader does not know (an error, a notice): PGlite's parser then reads it all.
 */
function readResult<T>(data: Buffer, fields: Field[], parsers: (Parser | undefined)[], asArray: boolean, notify: (channel: string, payload: string) => void): Results<T> | null {
  for (let at = 0; at < data.length; ) {
    const code = data[at];
    if (code !== DATA_ROW && code !== COMMAND_COMPLETE && code !== NOTIFICATION && !NOTHING_TO_READ.has(code)) return null;
    const length = at + 5 <= data.length ? data.readInt32BE(at + 1) : -1;
    if (length < 4 || at + 1 + length > data.length) return null; // not a whole message: PGlite's parser says what it is
    at += 1 + length;
  }
  const rows: unknown[] = [];
  const result: Results<T> = { rows: rows as T[], fields, affectedRows: 0 };
  for (let at = 0; at < data.length; ) {
    const code = data[at];
    const end = at + 1 + data.readInt32BE(at + 1);
    let p = at + 5;
    if (code === DATA_ROW) {
      const count = data.readInt16BE(p);
      p += 2;
      const row: unknown[] | Record<string, unknown> = asArray ? new Array(count) : {};
      for (let i = 0; i < count; i++) {
        const length = data.readInt32BE(p);
        p += 4;
        let value: unknown = null;
        if (length !== -1) {
          const text = data.toString("utf8", p, p + length);
          p += length;
          const parse = parsers[i];
          value = parse ? parse(text, fields[i].dataTypeID) : text;
        }
        if (asArray) (row as unknown[])[i] = value;
        else (row as Record<string, unknown>)[fields[i].name] = value;
      }
      rows.push(row);
    } else if (code === COMMAND_COMPLETE) {
      complete(result as Results<unknown>, data.toString("utf8", p, end - 1));
    } else if (code === NOTIFICATION) {
      p += 4; // the sending process's id
      const channelEnd = data.indexOf(0, p);
      const payloadEnd = data.indexOf(0, channelEnd + 1);
      notify(data.toString("utf8", p, channelEnd), data.toString("utf8", channelEnd + 1, payloadEnd));
    }
    at = end;
  }
  return result;
}

/**
 * The result as PGlite's parseResults builds it from PGlite's parsed messages (rows as objects or
 * arrays, each value through its column's parser; the command and its row count).
 */
function resultOf<T>(fields: Field[], messages: BackendMessage[], parsers: (Parser | undefined)[], asArray: boolean): Results<T> {
  const rows: unknown[] = [];
  const result: Results<T> = { rows: rows as T[], fields, affectedRows: 0 };
  const valueOf = (v: string | null, i: number) => {
    const parse = parsers[i];
    return v === null ? null : parse ? parse(v, fields[i].dataTypeID) : v;
  };
  for (const message of messages) {
    if (message.name === "dataRow") {
      const values = (message as unknown as { fields: (string | null)[] }).fields;
      if (asArray) rows.push(values.map(valueOf));
      else rows.push(Object.fromEntries(values.map((v, i) => [fields[i].name, valueOf(v, i)])));
    } else if (message.name === "commandComplete") {
      complete(result as Results<unknown>, (message as unknown as { text: string }).text);
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

/** PostgreSQL's name for a channel, as PGlite keys its listeners: as written when quoted, else lower case. */
const postgresName = (channel: string): string => (channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase());

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
  // A notification in a response read by the cache reaches only the listeners the cache knows of: every
  // listener is registered with both, and each notification is read by one of the two.
  type Listen = (payload: string) => void;
  const listen = async (channel: string, callback: Listen, tx?: Transaction) => {
    const name = postgresName(channel);
    const set = cache.listeners.get(name) ?? new Set<Listen>();
    cache.listeners.set(name, set.add(callback));
    let unsubscribe: (tx?: Transaction) => Promise<void>;
    try {
      unsubscribe = await pg.listen(channel, callback, tx);
    } catch (e) {
      set.delete(callback);
      throw e;
    }
    return async (tx2?: Transaction) => {
      set.delete(callback);
      await unsubscribe(tx2);
    };
  };
  const unlisten = async (channel: string, callback?: Listen, tx?: Transaction) => {
    if (callback) cache.listeners.get(postgresName(channel))?.delete(callback);
    else cache.listeners.delete(postgresName(channel));
    await pg.unlisten(channel, callback, tx);
  };
  const onNotification = (callback: (channel: string, payload: string) => void) => {
    cache.globalListeners.add(callback);
    const off = pg.onNotification(callback);
    return () => {
      cache.globalListeners.delete(callback);
      off();
    };
  };
  const offNotification = (callback: (channel: string, payload: string) => void) => {
    cache.globalListeners.delete(callback);
    pg.offNotification(callback);
  };
  const own: Record<string | symbol, unknown> = { query, transaction, listen, unlisten, onNotification, offNotification };
  return new Proxy(pg, {
    get(target, prop) {
      if (prop in own) return own[prop];
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
