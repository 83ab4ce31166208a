/**
 * The pieces of the clean shutdown (lib/shutdown.ts) in one process, with a real HTTP server and
 * client: the drain closes the listener and lets the request in flight finish (its connection closed
 * after it), and runShutdown's exit code says whether the work finished in time, the database being
 * closed either way. The whole thing with the built app and the worker: shutdown-process.test.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { drainHttp, runShutdown, trackHttpRequests } from "@/lib/shutdown";

function get(port: number, agent: http.Agent): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      })
      .on("error", reject);
  });
}

describe("drainHttp", () => {
  it("refuses new connections, answers the request in flight with Connection: close, and resolves once it is answered", async () => {
    trackHttpRequests();
    const server = http.createServer((_req, res) => setTimeout(() => res.end("done"), 300));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true });
    try {
      await get(port, agent); // the server is known to the tracker; this connection stays open (keep-alive)
      const inFlight = get(port, agent);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      let drained = false;
      const drain = drainHttp().then(() => (drained = true));

      await expect(get(port, new http.Agent())).rejects.toMatchObject({ code: "ECONNREFUSED" });
      expect(drained).toBe(false); // still waiting for the request in flight
      const answered = await inFlight;
      expect(answered).toEqual({ status: 200, connection: "close", body: "done" });
      await drain;
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      expect(server.listening).toBe(false);
    } finally {
      agent.destroy();
      server.closeAllConnections();
    }
  });
});

describe("runShutdown", () => {
  it("exits 0 when the work finishes in time, after the drain and then the close", async () => {
    const order: string[] = [];
    const code = await runShutdown("SIGTERM", {
      drain: [
        { name: "a", run: async () => void (await new Promise((r) => setTimeout(r, 30)), order.push("a")) },
        { name: "b", run: async () => void order.push("b") },
      ],
      close: async () => void order.push("close"),
      drainMs: 1_000,
      limitMs: 5_000,
    });
    expect(code).toBe(0);
    expect(order).toEqual(["b", "a", "close"]);
  });

  it("closes the database anyway and exits 1 when the work outlasts drainMs, or a step fails", async () => {
    const closed: string[] = [];
    const slow = await runShutdown("SIGTERM", {
      drain: [{ name: "stuck delivery", run: () => new Promise<void>(() => {}) }],
      close: async () => void closed.push("slow"),
      drainMs: 100,
      limitMs: 5_000,
    });
    const failing = await runShutdown("SIGINT", {
      drain: [{ name: "broken", run: async () => Promise.reject(new Error("boom")) }],
      close: async () => void closed.push("failing"),
      drainMs: 1_000,
      limitMs: 5_000,
    });
    expect([slow, failing]).toEqual([1, 1]);
    expect(closed).toEqual(["slow", "failing"]);
  });
});
