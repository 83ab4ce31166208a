import dc from "node:diagnostics_channel";
import { constants } from "node:os";
import type { Server, ServerResponse } from "node:http";
import { flushLogger, getLogger } from "@/lib/logger";

/**
 * Clean shutdown on SIGINT and SIGTERM (Ctrl-C, `docker stop`, Kubernetes, systemd) for the app
 * (`next start`, `next dev`) and the worker (`npm run worker`).
 *
 * Why it matters: the embedded database (PGlite) runs inside this process. A process that ends with
 * it open leaves PostgreSQL's crash recovery to the next start: nothing committed is lost, but
 * sequences jump ahead (they are WAL-logged 32 values in advance) and every start is a recovery.
 * Closing it writes a shutdown checkpoint, and the next start carries on where this one stopped.
 *
 * The order: (1) stop taking work: the HTTP listener closes, keep-alive connections close after
 * their current response, the background loops stop claiming; (2) let the work in flight finish:
 * requests being served, the loops' current batch, webhook deliveries in flight and the recording of
 * their attempts; (3) close the database; (4) exit 0. It is bounded: if (2) is not done within
 * `drainMs`, the database is closed under whatever still runs and the exit code is 1; past
 * `limitMs` the process exits with 1 whatever happens. A second signal exits at once.
 */

export type ShutdownPlan = {
  /** Work that must end before the database closes; the steps run together. */
  drain: { name: string; run: () => Promise<void> }[];
  /** Closes the database. Runs after the drain, or when its time is up. */
  close: () => Promise<void>;
  drainMs: number;
  limitMs: number;
};

/**
 * A terminal's Ctrl-C reaches every process of the foreground group, and `npm run` and `next dev`
 * forward the signal to their child as well: the same Ctrl-C arrives two or three times within a
 * few milliseconds. Only a signal later than this counts as a second one.
 */
const REPEAT_WINDOW_MS = 500;

type State = { installed: boolean; startedAt?: number };
const g = globalThis as unknown as { __araraShutdown?: State; __araraHttp?: HttpTracker };

/**
 * Handles SIGINT and SIGTERM with `plan()` from now on, once per process. `takeOver` removes the
 * listeners installed before (Next's own: it closes the listener and then exits with 130 or 143
 * without waiting for anything else, which would cut the database close short).
 */
export function handleShutdownSignals(plan: () => ShutdownPlan, opts: { takeOver?: boolean } = {}): void {
  const state = (g.__araraShutdown ??= { installed: false });
  if (state.installed) return;
  state.installed = true;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    if (opts.takeOver) process.removeAllListeners(signal);
    process.on(signal, () => onSignal(state, signal, plan));
  }
}

/** True once a shutdown signal was received: nothing new (a background loop) should start. */
export function isShuttingDown(): boolean {
  return g.__araraShutdown?.startedAt !== undefined;
}

function onSignal(state: State, signal: "SIGINT" | "SIGTERM", plan: () => ShutdownPlan) {
  const log = getLogger();
  if (state.startedAt !== undefined) {
    if (Date.now() - state.startedAt < REPEAT_WINDOW_MS) return;
    log.error({ signal }, "second signal: exiting at once, without waiting for the work in flight or closing the database");
    process.exit(128 + constants.signals[signal]);
  }
  state.startedAt = Date.now();
  void runShutdown(signal, plan()).then((code) => process.exit(code));
}

/** The shutdown itself; resolves with the exit code (0: everything finished and the database closed). */
export async function runShutdown(signal: string, plan: ShutdownPlan): Promise<number> {
  const log = getLogger();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  log.info({ signal, drainMs: plan.drainMs }, "shutting down: taking no new work, finishing the work in flight");
  const limit = setTimeout(() => {
    log.error({ ms: elapsed() }, `shutdown did not finish within ${plan.limitMs} ms: exiting with the database still open`);
    process.exit(1);
  }, plan.limitMs);
  limit.unref();

  let failed = false;
  const pending = new Set(plan.drain.map((d) => d.name));
  const drained = Promise.all(
    plan.drain.map(async (step) => {
      try {
        await step.run();
      } catch (err) {
        failed = true;
        log.error({ step: step.name, err: err instanceof Error ? err.message : String(err) }, "shutdown step failed");
      } finally {
        pending.delete(step.name);
      }
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    drained.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), plan.drainMs))),
  ]);
  clearTimeout(timer);
  if (!inTime) {
    failed = true;
    log.error({ unfinished: [...pending], ms: elapsed() }, `work still in flight after ${plan.drainMs} ms: closing the database under it`);
  }
  try {
    await plan.close();
  } catch (err) {
    log.error({ err: err instanceof Error ? err.message : String(err), ms: elapsed() }, "the database did not close cleanly");
    return 1;
  }
  clearTimeout(limit);
  log.info({ ms: elapsed(), clean: !failed }, "database closed; exiting");
  flushLogger();
  return failed ? 1 : 0;
}

/**
 * The HTTP side, seen through Node's `http.server.request.start` diagnostics channel: the server
 * Next created and the responses in flight. Next 16 gives the app no handle on its server, and its
 * own signal handling (which closes the listener) exits as soon as the requests end.
 */
type HttpTracker = {
  servers: Set<Server>;
  inFlight: Set<ServerResponse>;
  phase: "serving" | "draining" | "closed";
  onIdle?: () => void;
};

export function trackHttpRequests(): void {
  if (g.__araraHttp) return;
  const t: HttpTracker = (g.__araraHttp = { servers: new Set(), inFlight: new Set(), phase: "serving" });
  dc.subscribe("http.server.request.start", (message) => {
    const { response, server } = message as { response: ServerResponse; server: Server };
    if (!t.servers.has(server)) {
      t.servers.add(server);
      if (t.phase !== "serving") server.close();
    }
    if (t.phase === "closed") {
      // The database is closing: this request must not start. The client sees the connection drop.
      response.socket?.destroy();
      return;
    }
    t.inFlight.add(response);
    // While draining, a connection serves no request after this one.
    if (t.phase === "draining" && !response.headersSent) response.setHeader("connection", "close");
    response.once("close", () => {
      t.inFlight.delete(response);
      if (t.phase === "serving") return;
      server.closeIdleConnections();
      if (t.inFlight.size === 0) t.onIdle?.();
    });
  });
}

/**
 * Stops taking requests and resolves when the ones in flight have been answered: the listener
 * closes (new connections are refused), idle keep-alive connections close now and busy ones after
 * their response (`Connection: close`). Then every remaining connection is closed, so that no
 * request can start once the database is closing.
 */
export async function drainHttp(): Promise<void> {
  const t = g.__araraHttp;
  if (!t) return;
  t.phase = "draining";
  for (const server of t.servers) {
    server.close();
    server.closeIdleConnections();
  }
  for (const res of t.inFlight) if (!res.headersSent) res.setHeader("connection", "close");
  getLogger().info({ inFlight: t.inFlight.size, servers: t.servers.size }, "listener closed; answering the requests in flight");
  while (t.inFlight.size > 0) await new Promise<void>((resolve) => (t.onIdle = resolve));
  closeHttp();
}

/** No request may start from now on (called before the database closes, drained or not). */
export function closeHttp(): void {
  const t = g.__araraHttp;
  if (!t) return;
  t.phase = "closed";
  for (const server of t.servers) server.closeAllConnections();
}
