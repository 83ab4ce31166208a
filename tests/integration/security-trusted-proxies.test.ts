/**
 * With TRUSTED_PROXIES configured, X-Forwarded-For is believed from those proxies only: the client is
 * the right-most entry that is not a trusted proxy. From any other peer it is ignored. A bad value
 * stops start-up naming the variable.
 */
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.TRUSTED_PROXIES = "10.0.0.0/8, 192.0.2.1, fd00::/8";
});

import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { CARD } from "../helpers/cash-in";
import { clientAddress, PEER_HEADER } from "@/lib/http/client-address";
import { PUBLIC_LIMITS } from "@/lib/http/public-limits";
import { getEnv, parseEnv } from "@/lib/env";

describe("TRUSTED_PROXIES", () => {
  it("is parsed into a list, and off (empty) by default", () => {
    expect(getEnv().trustedProxies).toEqual(["10.0.0.0/8", "192.0.2.1", "fd00::/8"]);
    expect(parseEnv({}).trustedProxies).toEqual([]);
  });

  it("refuses a value that is not an address or CIDR range, naming the variable", () => {
    for (const bad of ["10.0.0.0/33", "proxy.internal", "10.0.0.1/8/2", "::1/129"]) {
      expect(() => parseEnv({ TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
    }
  });

  it("believes X-Forwarded-For from a trusted proxy: the right-most entry that is not a proxy", () => {
    const from = (peer: string, xff?: string) => clientAddress(new Headers({ [PEER_HEADER]: peer, ...(xff ? { "x-forwarded-for": xff } : {}) }));
    expect(from("10.1.2.3", "203.0.113.9")).toBe("203.0.113.9");
    // The client may prepend anything; only what the proxies appended counts.
    expect(from("10.1.2.3", "6.6.6.6, 203.0.113.9, 10.9.9.9")).toBe("203.0.113.9");
    expect(from("::ffff:192.0.2.1", "198.51.100.4")).toBe("198.51.100.4");
    expect(from("fd00::5", "2001:db8::77")).toBe("2001:db8::77");
    // No header, or only proxies in it: the peer.
    expect(from("10.1.2.3")).toBe("10.1.2.3");
    expect(from("10.1.2.3", "10.4.4.4")).toBe("10.1.2.3");
    // A garbled entry stops the walk: nothing to its left can be believed.
    expect(from("10.1.2.3", "203.0.113.9, not-an-ip")).toBe("10.1.2.3");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(clientAddress(new Headers({ [PEER_HEADER]: "203.0.113.200", "x-forwarded-for": "10.0.0.1" }))).toBe("203.0.113.200");
    expect(clientAddress(new Headers({ [PEER_HEADER]: "192.0.2.2", "x-forwarded-for": "198.51.100.1" }))).toBe("192.0.2.2");
  });

  it("limits each client behind the proxy on its own (card tokenization per address)", async () => {
    const a = await createTestAccount("Loja Proxy");
    const tokenize = (client: string) =>
      call("POST", `/api/v1/card-token?publicKey=${a.publicKey}`, { body: CARD, headers: { [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": client } });
    for (let i = 0; i < PUBLIC_LIMITS.cardTokenPerAddress.points; i++) expect((await tokenize("198.51.100.20")).status).toBe(200);
    expect((await tokenize("198.51.100.20")).status).toBe(429);
    expect((await tokenize("198.51.100.21")).status).toBe(200);
  });
});
