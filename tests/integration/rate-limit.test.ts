import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { resetRateLimits } from "@/lib/http/rate-limit";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

// Read when the app first parses its configuration, which happens after this module is evaluated.
process.env.RATE_LIMIT_BURST = "5";
process.env.RATE_LIMIT_PER_SECOND = "100";

let a: CreatedAccount;
let b: CreatedAccount;

beforeAll(async () => {
  const { getEnv } = await import("@/lib/env");
  expect(getEnv().rateLimitBurst).toBe(5);
  await resetRateLimits();
  a = await createTestAccount("Loja A");
  b = await createTestAccount("Loja B");
});

describe("rate limiting per secret key", () => {
  it("answers 429 with Retry-After past the burst, and other keys are not affected", async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await call("GET", "/api/v1/company", { auth: a.secretKey });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 200).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(3);
    expect(limited!.body).toMatchObject({ success: false, status: 429, code: "rate_limited" });
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await call("GET", "/api/v1/company", { auth: b.secretKey })).status).toBe(200);
  });
});
