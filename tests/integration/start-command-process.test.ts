/**
 * `npm start`, the production command the README gives, run as an operator runs it (npm, its shell,
 * node): the server it starts answers, has the C allocator's settings the start script gives it (glibc
 * reads them from the environment when the process starts; tests/bench/PROFILE.md, thirteenth round,
 * says what they save), lets the operator's own value win, and does not load Next's native SWC module.
 *
 * Needs a build, like every process test.
 */
import { readdirSync, readFileSync } from "node:fs";
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

describe("npm start", () => {
  it("starts the server with the start script's allocator settings, the operator's value first, and without Next's SWC module", async () => {
    database = await createServerDatabase();
    // The operator sets one of the two; the other takes the start script's default.
    app = await startApp({ command: "npm start", env: { ...database.env, MALLOC_ARENA_MAX: "4" } });
    const health = await fetch(`${app.url}/api/v1/health`);
    expect(health.status).toBe(200);

    // Next names its server process "next-server (v…)".
    const servers = descendants(app.child.pid!).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/comm`, "utf8").startsWith("next-server");
      } catch {
        return false;
      }
    });
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
});
