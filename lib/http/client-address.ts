import { BlockList, isIP } from "node:net";
import { getEnv } from "@/lib/env";

/**
 * The one answer to "which address is this request from", for rate limits, the sign-in throttle and
 * the payer's address sent to a PSP.
 *
 * The peer is the address of the TCP connection. Next does not expose the socket to route handlers,
 * server actions or next-auth, so the HTTP server hook (lib/http/request-guard.ts) writes it into the
 * PEER_HEADER request header before Next sees the request, replacing any value a client sent.
 * X-Forwarded-For is believed only when the peer is one of TRUSTED_PROXIES (off by default): then
 * the client is the right-most entry that is not itself a trusted proxy.
 */
export const PEER_HEADER = "x-arara-peer-address";

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name];
  return Array.isArray(v) ? v.join(",") : v;
}

/** "::ffff:10.1.2.3" (an IPv4 client on a dual-stack socket) reads as "10.1.2.3". */
export function normalizeAddress(raw: string): string | null {
  let a = raw.trim();
  if (a.startsWith("[") && a.includes("]")) a = a.slice(1, a.indexOf("]")); // [::1]:port
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.slice(0, a.indexOf(":")); // 1.2.3.4:port
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) a = mapped[1];
  return isIP(a) ? a.toLowerCase() : null;
}

let cached: { source: string[]; list: BlockList } | undefined;

function trustedProxies(): BlockList {
  const source = getEnv().trustedProxies;
  if (cached?.source === source) return cached.list;
  const list = new BlockList();
  for (const entry of source) {
    const [address, prefix] = entry.split("/");
    const kind = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, kind);
    else list.addSubnet(address, Number(prefix), kind);
  }
  cached = { source, list };
  return list;
}

export function isTrustedProxy(address: string): boolean {
  const a = normalizeAddress(address);
  if (!a) return false;
  return trustedProxies().check(a, isIP(a) === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the peer, or when the peer is a trusted proxy, the right-most
 * X-Forwarded-For entry that is not a trusted proxy. "unknown" when there is no peer (a request
 * that did not come through the HTTP server, as in-process tests).
 */
export function clientAddress(headers: HeaderSource): string {
  const peer = normalizeAddress(header(headers, PEER_HEADER) ?? "");
  if (!peer) return "unknown";
  if (!isTrustedProxy(peer)) return peer;
  const hops = (header(headers, "x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]);
    if (!hop) return peer; // a garbled entry: nothing left of it can be believed
    if (!isTrustedProxy(hop)) return hop;
  }
  return peer;
}
