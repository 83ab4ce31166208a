/**
 * IPv6 transition forms that embed an IPv4 address (SIIT ::ffff:0:0/96, local NAT64 64:ff9b:1::/48,
 * Teredo 2001::/32, 6to4 2002::/16) are refused as postback URLs: at creation (a 400 on postbackUrl,
 * nothing stored) and at delivery (when a name resolves to one of them).
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "false";
});

import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { rowCounts } from "../helpers/flows";
import { pixCharge } from "../helpers/webhook-receiver";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { forbiddenAddressReason, resolveDeliveryTarget, type Resolver } from "@/lib/webhooks/ssrf";

let acct: CreatedAccount;

beforeAll(async () => {
  acct = await createTestAccount("Loja IPv6");
});

const TRANSITION_ADDRESSES = [
  "::ffff:0:7f00:1", // SIIT form of 127.0.0.1
  "::ffff:0:169.254.169.254", // SIIT form of the metadata address, dotted
  "::ffff:0:808:808", // SIIT form of a public address: refused too, the whole range is a translation
  "64:ff9b:1::a00:1", // local-use NAT64 (10.0.0.1 behind a /96 of it)
  "64:ff9b:1:7f00:0:100::", // local-use NAT64 with a /48 layout (127.0.0.1)
  "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo (client 127.0.0.1 obfuscated)
  "2001::1", // Teredo, any
  "2002:c0a8:101::1", // 6to4 of 192.168.1.1
  "2002:808:808::1", // 6to4 of a public address: still a tunnel to wherever it says
];

describe("IPv6 transition addresses that embed IPv4 are refused", () => {
  it.each(TRANSITION_ADDRESSES)("%s is a forbidden address", (address) => {
    expect(forbiddenAddressReason(address)).toMatch(/./);
  });

  it("ordinary public IPv6 and the well-known NAT64 prefix with a public address stay allowed", () => {
    for (const address of ["2606:4700:4700::1111", "2001:4860:4860::8888", "64:ff9b::808:808", "2a00:1450:4001:80b::200e"]) {
      expect(forbiddenAddressReason(address), address).toBeNull();
    }
  });

  it.each(TRANSITION_ADDRESSES)("refuses http://[%s]/hook at creation with a 400 on postbackUrl and stores nothing", async (address) => {
    const before = await rowCounts();
    const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(`http://[${address}]/hook`) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain("postbackUrl");
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses a payment link and a cash-out whose postbackUrl is a transition address", async () => {
    const link = await call("POST", "/api/v1/checkouts", {
      auth: acct.secretKey,
      body: { amount: 1000, postbackUrl: "http://[2002:a00:1::1]/hook" },
    });
    expect(link.status, link.text).toBe(400);
    expect(link.body.errors.map((e: { field: string }) => e.field)).toContain("postbackUrl");
    const cashOut = await call("POST", "/api/v1/cashOut/request", {
      auth: acct.secretKey,
      headers: { "idempotency-key": "ssrf-ipv6-cash-out" },
      body: { amount: 100, pixKey: "maria@example.com", pixKeyType: "email", postbackUrl: "http://[2001::a9fe:a9fe]/hook" },
    });
    expect(cashOut.status, cashOut.text).toBe(400);
    expect(cashOut.body.errors.map((e: { field: string }) => e.field)).toContain("postbackUrl");
  });

  it.each(TRANSITION_ADDRESSES)("refuses delivery to a name that resolves to %s", async (address) => {
    const resolver: Resolver = async () => [{ address, family: 6 }];
    const target = await resolveDeliveryTarget("https://hooks.shop.com.br/x", resolver);
    expect(target).toEqual({ ok: false, error: expect.stringContaining(address) });
  });
});
