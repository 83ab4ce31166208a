/** The signature scheme against the independent `standardwebhooks` library, and the dispatcher's settings. */
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { ConfigError, parseEnv } from "@/lib/env";
import { newWebhookSecret } from "@/lib/services/accounts/accounts";
import { leaseMsFor } from "@/lib/webhooks/dispatcher";
import { signedHeaders, webhookSignature } from "@/lib/webhooks/signing";

describe("Standard Webhooks signature", () => {
  it("matches the library's own signing for the same id, timestamp and body", () => {
    const secret = newWebhookSecret();
    const at = new Date("2026-06-01T12:00:00Z");
    const body = JSON.stringify({ id: 42, type: "transaction", url: "https://loja.example/hook", data: { id: 1000, status: "paid" } });
    expect(webhookSignature(secret, "42", at.getTime() / 1000, body)).toBe(new Webhook(secret).sign("42", at, body));
  });

  it("keys the HMAC with the base64-decoded part after whsec_ (not the text of the secret)", () => {
    // Vector of the Standard Webhooks reference implementation.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = '{"test": 2432232314}';
    expect(webhookSignature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
  });

  it("verifies with the library; a changed body, id, timestamp or secret does not", () => {
    const secret = newWebhookSecret();
    const body = '{"id":7,"type":"transaction","url":null,"data":{"id":1,"status":"paid"}}';
    const headers = signedHeaders(secret, "7", new Date(), body);
    const wh = new Webhook(secret);
    expect(wh.verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => wh.verify(body.replace("paid", "refunded"), headers)).toThrow();
    expect(() => wh.verify(body, { ...headers, "webhook-id": "8" })).toThrow();
    expect(() => wh.verify(body, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) + 1) })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });
});

describe("dispatcher settings", () => {
  it("defaults to the retry schedule of docs/api.md, a 10 s timeout and 64 deliveries at once", () => {
    const env = parseEnv({});
    expect(env.webhookRetryScheduleMs).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(env.webhookTimeoutMs).toBe(10_000);
    expect(env.webhookConcurrency).toBe(64);
    expect(leaseMsFor(env.webhookTimeoutMs)).toBeGreaterThan(env.webhookTimeoutMs);
    // A claim of several rounds leases each event for the wait of the last round.
    expect(leaseMsFor(env.webhookTimeoutMs, 4)).toBeGreaterThan(4 * env.webhookTimeoutMs);
  });

  it("takes WEBHOOK_RETRY_SCHEDULE in seconds (fractions allowed), WEBHOOK_TIMEOUT_MS and WEBHOOK_CONCURRENCY", () => {
    const env = parseEnv({ WEBHOOK_RETRY_SCHEDULE: "0, 1,1 ,0.25", WEBHOOK_TIMEOUT_MS: "500", WEBHOOK_CONCURRENCY: "64" });
    expect(env.webhookRetryScheduleMs).toEqual([0, 1000, 1000, 250]);
    expect(env.webhookTimeoutMs).toBe(500);
    expect(env.webhookConcurrency).toBe(64);
  });

  it.each([
    ["WEBHOOK_RETRY_SCHEDULE", "5,300"],
    ["WEBHOOK_RETRY_SCHEDULE", "0,,5"],
    ["WEBHOOK_RETRY_SCHEDULE", "0,-5"],
    ["WEBHOOK_RETRY_SCHEDULE", "0,soon"],
    ["WEBHOOK_TIMEOUT_MS", "0"],
    ["WEBHOOK_TIMEOUT_MS", "ten"],
    ["WEBHOOK_CONCURRENCY", "0"],
  ])("refuses %s=%s with a message naming it", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(name);
  });
});
