/**
 * One process per embedded database directory (lib/db/pglite-lock.ts): two processes on one PGLITE_DIR
 * each ran a PostgreSQL over the same files, handed out the same transaction ids and lost charges
 * already answered 201. The second process is now refused with a sentence naming the first, and a
 * server that cannot start exits with status 1 instead of answering every request with a 500.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lockPgliteDirectory, PgliteDirectoryInUse } from "@/lib/db/pglite-lock";
import { startApp, type AppProcess } from "../helpers/server";

const SK = "sk_test_AraraDemoSecretKey000000000000000000";
const dirs: string[] = [];
let apps: AppProcess[] = [];

afterEach(async () => {
  await Promise.all(apps.map((a) => a.stop("SIGKILL")));
  apps = [];
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "arara-lock-"));
  dirs.push(d);
  return path.join(d, "pglite");
}

/** A process that does nothing but live, as the holder of a lock. */
function sleeper() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return { pid: child.pid!, kill: async () => (child.kill("SIGKILL"), await exited) };
}

describe("the lock of an embedded database directory", () => {
  it("refuses while its owner lives, names it, and is taken over once the owner is gone", async () => {
    const dir = tempDir();
    const owner = sleeper();
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: owner.pid, host: hostname(), since: "2026-11-28T10:00:00.000Z" }));
    let refused: unknown;
    try {
      lockPgliteDirectory(dir);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(PgliteDirectoryInUse);
    expect((refused as Error).message).toContain(`process ${owner.pid}`);
    expect((refused as Error).message).toContain(`${dir}.lock`);

    await owner.kill(); // a crash: the lock file stays, its process is gone
    const release = lockPgliteDirectory(dir);
    expect(JSON.parse(readFileSync(`${dir}.lock`, "utf8")).pid).toBe(process.pid);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it("makes the directory's missing parents first (a fresh checkout has no .data), and names PGLITE_DIR when it cannot", () => {
    const base = path.dirname(tempDir());
    const dir = path.join(base, "fresh", ".data", "pglite");
    const release = lockPgliteDirectory(dir);
    expect(JSON.parse(readFileSync(`${dir}.lock`, "utf8")).pid).toBe(process.pid);
    release();
    // A parent that is a file: no directory can be made under it.
    writeFileSync(path.join(base, "a-file"), "");
    expect(() => lockPgliteDirectory(path.join(base, "a-file", "pglite"))).toThrow(
      new RegExp(`The embedded database's directory ${path.join(base, "a-file", "pglite").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(PGLITE_DIR\\) cannot be used: .*Set PGLITE_DIR`),
    );
  });

  it("refuses a lock written on another host, which cannot be checked from here", () => {
    const dir = tempDir();
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: 1, host: "outro-servidor", since: "2026-11-28T10:00:00.000Z" }));
    expect(() => lockPgliteDirectory(dir)).toThrow(/process 1 on host outro-servidor/);
  });
});

describe("a server on a PGLITE_DIR whose folders do not exist yet", () => {
  it("creates them and starts (the README's first command on a fresh checkout)", async () => {
    const dir = path.join(path.dirname(tempDir()), "checkout", ".data", "pglite");
    const app = await startApp({ env: { PGLITE_DIR: dir, DATABASE_URL: "", DEMO_MERCHANT: "true" } });
    apps.push(app);
    const res = await fetch(`${app.url}/api/v1/company`, { headers: { authorization: `Basic ${Buffer.from(`${SK}:`).toString("base64")}` } });
    expect(res.status).toBe(200);
    expect(existsSync(`${dir}.lock`)).toBe(true);
  }, 120_000);
});

describe("two servers on one PGLITE_DIR", () => {
  it("the second exits with status 1 naming the first; the first keeps serving; once it stops, the next starts on the same data", async () => {
    const dir = tempDir();
    const env = { PGLITE_DIR: dir, DATABASE_URL: "", DEMO_MERCHANT: "true" };
    const first = await startApp({ env });
    apps.push(first);
    const created = await fetch(`${first.url}/api/v1/transactions`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${SK}:`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({
        paymentMethod: "pix",
        amount: 1990,
        customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "111.444.777-35" } },
        items: [{ title: "Camiseta", unitPrice: 1990, quantity: 1, tangible: true }],
      }),
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id as number;

    const second = await startApp({ env }).then(
      (app) => (apps.push(app), null),
      (e: Error) => e.message,
    );
    expect(second).toMatch(/app exited with 1/);
    expect(second).toContain(`arara cannot start: The embedded database in ${dir} is in use by process`);

    const read = await fetch(`${first.url}/api/v1/transactions/${id}`, { headers: { authorization: `Basic ${Buffer.from(`${SK}:`).toString("base64")}` } });
    expect(read.status).toBe(200);
    await first.stop("SIGTERM");
    apps = [];
    expect(existsSync(`${dir}.lock`)).toBe(false);

    const next = await startApp({ env });
    apps.push(next);
    const again = await fetch(`${next.url}/api/v1/transactions/${id}`, { headers: { authorization: `Basic ${Buffer.from(`${SK}:`).toString("base64")}` } });
    expect(again.status).toBe(200);
  }, 180_000);
});
