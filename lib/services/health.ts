import { sql } from "drizzle-orm";
import { databaseKind, getDb } from "@/lib/db/client";

export async function databaseHealth(): Promise<{ ok: boolean; kind: "pglite" | "postgres" }> {
  const kind = databaseKind();
  try {
    await getDb().execute(sql`select 1`);
    return { ok: true, kind };
  } catch {
    return { ok: false, kind };
  }
}
