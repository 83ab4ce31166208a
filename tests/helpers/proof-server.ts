/**
 * Helpers for the proof's process tests: ports in the proof's range (3700-3799) and a dump of every
 * table of an app's database (PostgreSQL, or a PGlite directory once the app has stopped: PGlite is
 * single-process). The webhook receiver is tests/helpers/webhook-receiver.ts.
 */
import net from "node:net";
import postgres from "postgres";

const taken = new Set<number>();

async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** A free port from 3700-3799 (this task's range), never handed out twice in one process. */
export async function proofPort(): Promise<number> {
  const start = 3700 + Math.floor(Math.random() * 100);
  for (let i = 0; i < 100; i++) {
    const port = 3700 + ((start - 3700 + i) % 100);
    if (taken.has(port)) continue;
    if (await isFree(port)) {
      taken.add(port);
      return port;
    }
  }
  throw new Error("No free port in 3700-3799");
}

type Rows = Record<string, unknown>[];

/** Every row of every table of the app's database, as { table: rows }. */
export async function dumpDatabase(env: Record<string, string>): Promise<Record<string, Rows>> {
  const out: Record<string, Rows> = {};
  if (env.DATABASE_URL) {
    const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      const tables = await sql<{ table_name: string }[]>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
      for (const { table_name } of tables) out[table_name] = [...(await sql.unsafe(`select * from "${table_name}"`))] as Rows;
    } finally {
      await sql.end();
    }
    return out;
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(env.PGLITE_DIR);
  try {
    const tables = await db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    for (const { table_name } of tables.rows) out[table_name] = (await db.query(`select * from "${table_name}"`)).rows as Rows;
  } finally {
    await db.close();
  }
  return out;
}
