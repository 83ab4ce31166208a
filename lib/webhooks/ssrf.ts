import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { getEnv } from "@/lib/env";
import { ServiceError } from "@/lib/core/errors";

/**
 * Server-side request forgery guard for postback URLs. A merchant chooses the URL our servers POST to,
 * so without this a URL could reach the cloud metadata service (169.254.169.254), the database or
 * anything else on our private network. Checked at creation (a readable 400) and again at every
 * delivery (DNS can change after creation), where the connection is pinned to the address that was
 * checked so a second, rebinding answer cannot redirect it. The same check guards every connection to
 * a merchant's PSP (lib/processors/api-pix/transport.ts), whose URLs the merchant chooses too.
 * WEBHOOK_ALLOW_PRIVATE_URLS (default on outside production) turns the address checks off for local
 * development and tests.
 */

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, incl. cloud metadata 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed by some stacks)
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv6");
}

/**
 * Transition forms that carry an IPv4 address a gateway on the way may turn back into IPv4. A webhook
 * has no reason to use them and what they reach depends on the network, so they are refused whatever
 * address they embed. (SIIT, ::ffff:0:a.b.c.d, is matched on its groups in isSiit: Node's
 * BlockList reads ::ffff:0:0 as an IPv4-mapped address.)
 */
const TRANSITION = new BlockList();
for (const [net, prefix] of [
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): translated inside this network
  ["2001::", 32], // Teredo: tunnels to the IPv4 server and client it embeds
  ["2002::", 16], // 6to4: tunnels to the IPv4 address it embeds
] as const) {
  TRANSITION.addSubnet(net, prefix, "ipv6");
}

/** Expands an IPv6 address to its 8 groups (numbers); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase();
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  if (isIP(a) !== 6) return null;
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const o = dotted[1].split(".").map(Number);
    a = a.slice(0, -dotted[1].length) + `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const [head, tail] = a.includes("::") ? a.split("::") : [a, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill("0");
  const groups = [...h, ...fill, ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** SIIT, IPv4-translated addresses: ::ffff:0:0/96. */
const isSiit = (g: number[]) => g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0;

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * The IPv4 address an IPv6 address carries and that a stack may route to as IPv4: mapped
 * (::ffff:a.b.c.d), the old compatible form (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
function embeddedIpv4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6], g[7]);
  if (zeros(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return null;
}

/** Why an IP address must not be called (a short phrase), or null when it is a public address. */
export function forbiddenAddressReason(address: string): string | null {
  const kind = isIP(address);
  if (kind === 4) return BLOCKED.check(address, "ipv4") ? "a private, loopback, link-local or reserved IPv4 address" : null;
  const groups = ipv6Groups(address);
  if (!groups) return "not an IP address";
  const inner = embeddedIpv4(groups);
  if (inner && BLOCKED.check(inner, "ipv4")) return "an IPv6 form of a private, loopback or reserved IPv4 address";
  const canonical = groups.map((x) => x.toString(16)).join(":");
  if (isSiit(groups) || TRANSITION.check(canonical, "ipv6")) {
    return "an IPv6 transition address (SIIT, local NAT64, Teredo or 6to4) that embeds an IPv4 address";
  }
  return BLOCKED.check(canonical, "ipv6") ? "a loopback, unique-local, link-local, multicast or reserved IPv6 address" : null;
}

/** Host names that only ever mean "this machine or its network", whatever DNS says. */
function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h.endsWith(".internal") || !h.includes(".");
}

function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Parses and checks the form of a postback URL; the message explains what is wrong. */
function parsePostbackUrl(raw: string): { url: URL } | { problem: string } {
  if (typeof raw !== "string" || raw.length > 2048) return { problem: "must be an http:// or https:// URL of at most 2048 characters" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: "must be an absolute http:// or https:// URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { problem: "must use http:// or https://" };
  if (url.username || url.password) return { problem: "must not contain a user name or password" };
  if (!url.hostname) return { problem: "must name a host" };
  return { url };
}

const DNS_TIMEOUT_MS = 3000;

/** Resolves a host name to all its addresses; the system resolver (getaddrinfo) unless a test passes its own. */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

async function resolveAll(host: string, resolver: Resolver): Promise<{ address: string; family: number }[]> {
  if (isIP(host)) return [{ address: host, family: isIP(host) }];
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      resolver(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} took longer than ${DNS_TIMEOUT_MS} ms`)), DNS_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function refusal(message: string): ServiceError {
  return new ServiceError("validation_error", `The postbackUrl is not allowed: ${message}.`, [{ field: "postbackUrl", message }]);
}

/**
 * For creation (transactions, cash-outs): throws a 400 `validation_error` on field `postbackUrl`
 * when the URL is malformed, or (unless private URLs are allowed) names or resolves to an address
 * inside a private network. A name that does not resolve right now is accepted: delivery checks
 * again and retries.
 */
export async function assertPostbackUrlAllowed(raw: string, resolver: Resolver = systemResolver): Promise<void> {
  const parsed = parsePostbackUrl(raw);
  if ("problem" in parsed) throw refusal(parsed.problem);
  if (getEnv().webhookAllowPrivateUrls) return;
  const host = hostOf(parsed.url);
  if (!isIP(host) && isLocalName(host)) throw refusal(`${host} is a local host name`);
  let addresses: { address: string }[];
  try {
    addresses = await resolveAll(host, resolver);
  } catch {
    return;
  }
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason) throw refusal(`${host} resolves to ${address}, ${reason}`);
  }
}

/**
 * assertPostbackUrlAllowed once per request: a URL the request already checked (before its database
 * transaction opened) is not looked up again, so no DNS lookup runs inside a transaction whose caller
 * checked first. Records the check on `ctx`.
 */
export async function checkPostbackUrl(ctx: { postbackUrlChecked?: string }, url: string): Promise<void> {
  const checked = url.trim(); // as the schema reads it
  if (ctx.postbackUrlChecked === checked) return;
  await assertPostbackUrlAllowed(checked);
  ctx.postbackUrlChecked = checked;
}

/**
 * For a caller about to open a transaction (the Idempotency-Key's, a payment link's lock): the check of
 * the body's webhook URL, to run before it; null when the body names none.
 */
export function postbackCheckOf(ctx: { postbackUrlChecked?: string }, body: unknown): (() => Promise<void>) | null {
  const url = (body as { postbackUrl?: unknown } | null)?.postbackUrl;
  return typeof url === "string" && url.trim() !== "" ? () => checkPostbackUrl(ctx, url) : null;
}

/**
 * The checked address a connection is pinned to (`address`, `family`: the first), and every address
 * the check approved (`all`), which a connection that tries each in turn (Node's family autoselection,
 * a server with several front ends one of which is down) may use.
 */
export type PinnedAddress = { address: string; family: 4 | 6; all?: { address: string; family: 4 | 6 }[] };

/** The address a delivery must connect to, or why it must not be made. */
export type DeliveryTarget =
  | { ok: true; url: URL; pinned: PinnedAddress | null }
  | { ok: false; error: string };

/**
 * The connection check of an outgoing call to a URL a merchant chose (postback delivery, the PSP's
 * API Pix): the URL's host resolved now, refused (`refused`) when it is a local name or any of its
 * addresses is forbidden, or failed when it does not resolve. `pinned` is the checked address to
 * connect to, or null when private URLs are allowed and the ordinary lookup may be used.
 */
export type HostCheck = { ok: true; pinned: PinnedAddress | null } | { ok: false; refused: boolean; error: string };

export async function checkUrlHost(url: URL, resolver: Resolver = systemResolver): Promise<HostCheck> {
  if (getEnv().webhookAllowPrivateUrls) return { ok: true, pinned: null };
  const host = hostOf(url);
  if (!isIP(host) && isLocalName(host)) return { ok: false, refused: true, error: `refused: ${host} is a local host name` };
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolveAll(host, resolver);
  } catch (e) {
    return { ok: false, refused: false, error: `DNS lookup failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!addresses.length) return { ok: false, refused: false, error: `DNS lookup of ${host} returned no address` };
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason) return { ok: false, refused: true, error: `refused: ${host} resolves to ${address}, ${reason}` };
  }
  const checked = addresses.map((a) => ({ address: a.address, family: a.family === 6 ? (6 as const) : (4 as const) }));
  return { ok: true, pinned: { ...checked[0], all: checked } };
}

/**
 * Delivery-time check: resolves the host now and refuses if any of its addresses is forbidden.
 * Returns the checked address to connect to (`pinned`), or null when private URLs are allowed and
 * the ordinary lookup may be used.
 */
export async function resolveDeliveryTarget(raw: string, resolver: Resolver = systemResolver): Promise<DeliveryTarget> {
  const parsed = parsePostbackUrl(raw);
  if ("problem" in parsed) return { ok: false, error: `refused: the URL ${parsed.problem}` };
  const check = await checkUrlHost(parsed.url, resolver);
  return check.ok ? { ok: true, url: parsed.url, pinned: check.pinned } : { ok: false, error: check.error };
}

/**
 * A connection's `lookup` that answers only the address the check approved, whatever name it is
 * asked: DNS rebinding (a second answer, at connect time) cannot swap it.
 */
export function pinnedLookup({ address, family, all }: PinnedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, all?.length ? all : [{ address, family }]);
    else cb(null, address, family);
  }) as unknown as LookupFunction;
}
