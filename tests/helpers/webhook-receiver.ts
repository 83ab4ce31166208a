/**
 * A real HTTP webhook receiver (node:http on 127.0.0.1) for the webhook tests: records every request
 * it gets (headers, raw body) and answers as the test tells it (status, delay, hang, or down).
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Hit = {
  /** Order of arrival, from 1. */
  seq: number;
  eventId: string;
  headers: Record<string, string>;
  body: string;
  json: any;
  /** The status the receiver answered (null: it never answered). */
  answered: number | null;
};

export type Reply = { status?: number; delayMs?: number; hang?: boolean; body?: string };
export type Handler = (hit: Hit, hitsForEvent: number) => Reply | Promise<Reply>;

export type Receiver = {
  url: string;
  port: number;
  hits: Hit[];
  setHandler: (h: Handler) => void;
  /** Events (by webhook-id) the receiver answered with a 2xx. */
  delivered: () => Set<string>;
  waitFor: (pred: () => boolean, timeoutMs?: number, what?: string) => Promise<void>;
  /** Stops listening (connections refused) and drops open connections; `start` listens again on the same port. */
  down: () => Promise<void>;
  up: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startReceiver(handler: Handler = () => ({ status: 200 }), port = 0): Promise<Receiver> {
  let current = handler;
  const hits: Hit[] = [];
  const perEvent = new Map<string, number>();
  const sockets = new Set<Socket>();
  let server: http.Server;

  const make = () => {
    const s = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          /* not JSON */
        }
        const eventId = headers["webhook-id"] ?? "";
        const n = (perEvent.get(eventId) ?? 0) + 1;
        perEvent.set(eventId, n);
        const hit: Hit = { seq: hits.length + 1, eventId, headers, body, json, answered: null };
        hits.push(hit);
        const reply = await current(hit, n);
        if (reply.hang) return; // never answers; the socket is dropped by down()/close()
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        const status = reply.status ?? 200;
        hit.answered = status;
        res.writeHead(status, { "content-type": "text/plain" });
        res.end(reply.body ?? (status < 300 ? "ok" : "nope"));
      });
    });
    s.on("connection", (sock) => {
      sockets.add(sock);
      sock.on("close", () => sockets.delete(sock));
    });
    return s;
  };

  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server = make();
      server.once("error", reject);
      server.listen(p, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    });
  const actualPort = await listen(port);

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });

  const receiver: Receiver = {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    hits,
    setHandler: (h) => (current = h),
    delivered: () => new Set(hits.filter((h) => h.answered !== null && h.answered < 300).map((h) => h.eventId)),
    waitFor: async (pred, timeoutMs = 20_000, what = "condition") => {
      const deadline = Date.now() + timeoutMs;
      while (!pred()) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${hits.length} hits so far)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    down: stop,
    up: async () => {
      await listen(actualPort);
    },
    close: stop,
  };
  return receiver;
}

/** A PIX charge body for POST /api/v1/transactions. */
export function pixCharge(postbackUrl: string | null, amount = 1000, externalRef?: string) {
  return {
    paymentMethod: "pix",
    amount,
    customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } },
    items: [{ title: "Camiseta", unitPrice: amount, quantity: 1, tangible: true }],
    ...(postbackUrl ? { postbackUrl } : {}),
    ...(externalRef ? { externalRef } : {}),
  };
}
