/**
 * SSRF guard with private URLs NOT allowed (as in production): refused at creation with a 400 on
 * postbackUrl, refused again at delivery (logged attempt, then retry/fail), connection pinned to the
 * checked address.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // Read once by getEnv(); set before anything reads it (the test setup defaults it to true).
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "false";
});

import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { insertTransaction } from "../helpers/fixtures";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { executeTransaction } from "@/lib/executor/execute";
import { startDispatcher } from "@/lib/webhooks/dispatcher";
import { postJson } from "@/lib/webhooks/http-post";
import { assertPostbackUrlAllowed, forbiddenAddressReason, pinnedLookup, resolveDeliveryTarget } from "@/lib/webhooks/ssrf";
import { fakeDns as dns } from "../helpers/fake-dns";

let acct: CreatedAccount;
let r: Receiver;

beforeAll(async () => {
  acct = await createTestAccount("Loja SSRF");
  r = await startReceiver();
});

afterAll(async () => {
  await r.close();
});

describe("address classification", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.255.254", true],
    ["10.0.0.1", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["192.168.10.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["100.127.255.255", true],
    ["0.0.0.0", true],
    ["0.1.2.3", true],
    ["224.0.0.251", true],
    ["239.255.255.250", true],
    ["255.255.255.255", true],
    ["::1", true],
    ["::", true],
    ["fc00::1", true],
    ["fd12:3456:789a::1", true],
    ["fe80::1", true],
    ["fe80::1%eth0", true],
    ["ff02::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:169.254.169.254", true],
    ["::ffff:a9fe:a9fe", true],
    ["::ffff:10.1.2.3", true],
    ["0:0:0:0:0:ffff:c0a8:0101", true],
    ["64:ff9b::10.0.0.1", true],
    ["2002:7f00:1::1", true],
    ["8.8.8.8", false],
    ["93.184.216.34", false],
    ["172.32.0.1", false],
    ["100.128.0.1", false],
    ["11.0.0.1", false],
    ["2606:4700:4700::1111", false],
    ["::ffff:8.8.8.8", false],
  ])("%s forbidden: %s", (address, forbidden) => {
    expect(forbiddenAddressReason(address) !== null).toBe(forbidden);
  });
});

describe("at creation (POST /api/v1/transactions)", () => {
  it("runs with private URLs disallowed", () => {
    expect(getEnv().webhookAllowPrivateUrls).toBe(false);
  });

  it.each([
    "http://127.0.0.1:8080/hook",
    "http://localhost/hook",
    "http://LOCALHOST./hook",
    "http://shop.localhost/hook",
    "http://printer.local/hook",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata/hook",
    "http://10.0.0.5/hook",
    "http://172.16.3.4/hook",
    "http://192.168.0.10/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.1.1/hook",
    "http://0.0.0.0:3000/hook",
    "http://224.0.0.1/hook",
    "http://[::1]/hook",
    "http://[fd00::1]/hook",
    "http://[fe80::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[::ffff:a9fe:a9fe]/hook",
    "http://2130706433/hook", // 127.0.0.1 as one decimal number
    "http://0x7f.0.0.1/hook", // 127.0.0.1 in hex
    "http://0177.0.0.1/hook", // 127.0.0.1 in octal
    "https://user:secret@hooks.example.com/hook",
  ])("refuses %s with a 400 on postbackUrl", async (postbackUrl) => {
    const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(postbackUrl) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.errors.map((e: any) => e.field)).toContain("postbackUrl");
  });

  it("accepts a public address, and a name that does not resolve right now (checked again at delivery)", async () => {
    for (const postbackUrl of ["http://93.184.216.34/hook", "https://[2606:4700:4700::1111]/hook", "https://hooks.unresolvable.invalid/hook"]) {
      const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(postbackUrl) });
      expect(res.status, `${postbackUrl}: ${res.text}`).toBe(201);
      expect(res.body.data.postbackUrl).toBe(postbackUrl);
    }
  });

  it("refuses a name whose DNS answers include a private address", async () => {
    const resolver = dns({ "hooks.shop.com.br": ["203.0.114.10", "10.0.0.7"], "ok.shop.com.br": ["203.0.114.10"] });
    await expect(assertPostbackUrlAllowed("https://hooks.shop.com.br/x", resolver)).rejects.toMatchObject({
      code: "validation_error",
      errors: [{ field: "postbackUrl", message: expect.stringContaining("10.0.0.7") }],
    });
    await expect(assertPostbackUrlAllowed("https://ok.shop.com.br/x", resolver)).resolves.toBeUndefined();
  });
});

describe("at delivery", () => {
  it("refuses a URL that reaches a private address: the attempt is logged, retried, then the event fails", async () => {
    // A row written before the check existed (or by a path that skipped it): the dispatcher checks again.
    const t = await insertTransaction(acct.companyId, { postbackUrl: `${r.url}/internal` });
    await getDb().transaction((tx) => executeTransaction(tx, { actor: "test", now: new Date() }, { cause: "created", transaction: t, facts: {} }));
    const d = startDispatcher({ scheduleMs: [0, 50], pollMs: 20, timeoutMs: 1000 });
    try {
      const deadline = Date.now() + 5000;
      let events: any[] = [];
      while (Date.now() < deadline) {
        events = (await call("GET", `/api/v1/transactions/${t.id}/webhooks`, { auth: acct.secretKey })).body.data;
        if (events[0]?.deliveryState === "failed") break;
        await new Promise((res) => setTimeout(res, 50));
      }
      expect(events[0]).toMatchObject({ deliveryState: "failed", attemptCount: 2 });
      for (const a of events[0].attempts) {
        expect(a).toMatchObject({ success: false, httpStatus: null, manual: false });
        expect(a.error).toMatch(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
      }
      expect(r.hits).toHaveLength(0);
    } finally {
      await d.stop();
    }
  });

  it("re-resolves at delivery: a name that turned private since creation is refused", async () => {
    const before = dns({ "hooks.shop.com.br": ["203.0.114.10"] });
    const after = dns({ "hooks.shop.com.br": ["169.254.169.254"] });
    await expect(assertPostbackUrlAllowed("https://hooks.shop.com.br/x", before)).resolves.toBeUndefined();
    const target = await resolveDeliveryTarget("https://hooks.shop.com.br/x", after);
    expect(target).toEqual({ ok: false, error: expect.stringContaining("169.254.169.254") });
    expect(await resolveDeliveryTarget("https://hooks.shop.com.br/x", before)).toMatchObject({
      ok: true,
      pinned: { address: "203.0.114.10", family: 4 },
    });
    expect(await resolveDeliveryTarget("https://nowhere.invalid/x", dns({}))).toEqual({
      ok: false,
      error: expect.stringMatching(/^DNS lookup failed/),
    });
  });

  it("pins every address the check approved, for a connection that tries each in turn (a front end down)", async () => {
    const target = await resolveDeliveryTarget("https://psp.example.com.br/x", dns({ "psp.example.com.br": ["203.0.114.10", "203.0.114.11", "2606:4700::1111"] }));
    expect(target.ok).toBe(true);
    const pinned = (target as { pinned: Parameters<typeof pinnedLookup>[0] }).pinned;
    const asked = (all: boolean) =>
      new Promise<unknown[]>((resolve) => (pinnedLookup(pinned) as unknown as (h: string, o: { all: boolean }, cb: (...a: unknown[]) => void) => void)("rebind.example", { all }, (...a) => resolve(a)));
    expect(await asked(true)).toEqual([null, [{ address: "203.0.114.10", family: 4 }, { address: "203.0.114.11", family: 4 }, { address: "2606:4700::1111", family: 6 }]]);
    expect(await asked(false)).toEqual([null, "203.0.114.10", 4]);
  });

  it("connects to the pinned address, never to what DNS says at connect time", async () => {
    // `.invalid` never resolves: the request can only arrive if the connection used the pinned address.
    const url = new URL(`http://rebind.invalid:${r.port}/pinned`);
    const res = await postJson(url, '{"x":1}', {}, { timeoutMs: 2000, pinned: { address: "127.0.0.1", family: 4 } });
    expect(res).toMatchObject({ success: true, httpStatus: 200 });
    const hit = r.hits.at(-1)!;
    expect(hit.headers.host).toBe(`rebind.invalid:${r.port}`);
    expect(hit.body).toBe('{"x":1}');
  });

  it("does not follow redirects (a 3xx is a failed attempt)", async () => {
    r.setHandler(() => ({ status: 302, body: "see other" }));
    try {
      const res = await postJson(new URL(`${r.url}/redirect`), "{}", {}, { timeoutMs: 2000, pinned: null });
      expect(res).toMatchObject({ success: false, httpStatus: 302, responseExcerpt: "see other" });
    } finally {
      r.setHandler(() => ({ status: 200 }));
    }
  });

  it("keeps at most 500 characters of the response", async () => {
    r.setHandler(() => ({ status: 200, body: "x".repeat(5000) }));
    try {
      const res = await postJson(new URL(`${r.url}/big`), "{}", {}, { timeoutMs: 2000, pinned: null });
      expect(res.responseExcerpt).toHaveLength(500);
    } finally {
      r.setHandler(() => ({ status: 200 }));
    }
  });
});
