/**
 * `npm start`, the production command the README gives, run as an operator runs it (npm, its shell,
 * node): the server it starts answers, has the C allocator's settings the start script gives it (glibc
 * reads them from the environment when the process starts; tests/bench/PROFILE.md, thirteenth round,
 * says what they save), lets the operator's own value win, and does not load Next's native SWC module.
 *
 * Needs a build, like every process test.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createServerDatabase, startApp, type AppProcess, type TestDatabase } from "../helpers/server";

let app: AppProcess | undefined;
let database: TestDatabase | undefined;

afterAll(async () => {
  await app?.stop("SIGKILL");
  await database?.drop();
});

/** The processes below `pid` (children, grandchildren...), from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      /* exited meanwhile */
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) {
      if (parent !== p) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Next names its server process "next-server (v…)". */
function nextServers(pid: number): number[] {
  return descendants(pid).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/comm`, "utf8").startsWith("next-server");
    } catch {
      return false;
    }
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("npm start", () => {
  it("starts the server with the start script's allocator settings, the operator's value first, and without Next's SWC module", async () => {
    database = await createServerDatabase();
    // The operator sets one of the two; the other takes the start script's default.
    app = await startApp({ command: "npm start", env: { ...database.env, MALLOC_ARENA_MAX: "4" } });
    const health = await fetch(`${app.url}/api/v1/health`);
    expect(health.status).toBe(200);

    const servers = nextServers(app.child.pid!);
    expect(servers).toHaveLength(1);
    const environ = readFileSync(`/proc/${servers[0]}/environ`, "utf8").split("\0");
    expect(environ).toContain("MALLOC_ARENA_MAX=4");
    expect(environ).toContain("MALLOC_MMAP_THRESHOLD_=262144");
    expect(readFileSync(`/proc/${servers[0]}/maps`, "utf8")).not.toContain("next-swc");

    // SIGTERM to the group (what a service manager sends; npm passes it on too): the server shuts
    // down cleanly, once (the copy npm forwards is not taken for a second signal).
    await app.stop("SIGTERM");
    const logs = app.logs();
    app = undefined;
    expect(logs).toMatch(/"clean":true[^\n]*"database closed; exiting"/);
    expect(logs).not.toContain("second signal");
  }, 90_000);

  it("a SIGTERM to npm alone (a supervisor that knows only npm's pid; Docker's CMD [\"npm\", \"start\"]) reaches the server, which shuts down cleanly", async () => {
    database ??= await createServerDatabase();
    app = await startApp({ command: "npm start", env: database.env });
    const [server] = nextServers(app.child.pid!);
    expect(server).toBeGreaterThan(0);
    // npm passes the signal to its script's shell; the script execs node, so the server is the one
    // that gets it (a shell that ran node as its child would die and leave the server running).
    process.kill(app.child.pid!, "SIGTERM");
    const deadline = Date.now() + 20_000;
    while (alive(server) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(server), `the server (pid ${server}) is still running 20 s after npm got SIGTERM`).toBe(false);
    const logs = app.logs();
    app = undefined;
    expect(logs).toMatch(/"clean":true[^\n]*"database closed; exiting"/);
  }, 90_000);

  it("a bad PORT stops it with status 1 and Arara's sentence, before Next (which exited 0 on PORT=99999)", () => {
    for (const port of ["99999", "abc"]) {
      const r = spawnSync("npm", ["start"], { cwd: path.resolve(__dirname, "../.."), env: { ...process.env, PORT: port }, encoding: "utf8", timeout: 60_000 });
      expect(r.status, `PORT=${port}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(`arara cannot start: Invalid configuration: PORT must be a whole number from 1 to 65535, got "${port}".`);
    }
  }, 90_000);
});
