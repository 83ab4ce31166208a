/**
 * `instanceof` of the app's error classes holds across two copies of a class (lib/core/errors.ts,
 * brandErrorClass): the production build can evaluate a module once per chunk that holds it, and an
 * ApiPixError thrown by one copy was not `instanceof` the other, so a PSP's refusal answered 500
 * instead of 422. Two copies are made here the same way: the module evaluated twice.
 */
import { expect, it, vi } from "vitest";

it("an error made by one copy of its class is instanceof another copy, and not of an unrelated class", async () => {
  const a = await import("@/lib/processors/api-pix/errors");
  const coreA = await import("@/lib/core/errors");
  const limitsA = await import("@/lib/http/public-limits");
  vi.resetModules();
  const b = await import("@/lib/processors/api-pix/errors");
  const coreB = await import("@/lib/core/errors");
  const limitsB = await import("@/lib/http/public-limits");
  expect(b.ApiPixError).not.toBe(a.ApiPixError); // two copies indeed
  expect(coreB.ServiceError).not.toBe(coreA.ServiceError);

  const refused = new a.ApiPixError({ code: "invalid_client_credentials", message: "recusou", operation: "POST token", host: "psp" });
  expect(refused instanceof b.ApiPixError).toBe(true);
  expect(refused instanceof coreB.ServiceError).toBe(false);
  expect(new coreA.ServiceError("unprocessable", "x") instanceof coreB.ServiceError).toBe(true);
  expect(new coreA.ServiceError("unprocessable", "x") instanceof b.ApiPixError).toBe(false);
  expect(new Error("plain") instanceof coreB.ServiceError).toBe(false);
  expect((null as unknown as object) instanceof coreB.ServiceError).toBe(false);

  // A branded subclass: its instances are its parent's too, the parent's are not the subclass's.
  const limited = Object.values(limitsA).find((v) => typeof v === "function" && v.name === "RateLimitedError") as new (...a: never[]) => Error;
  const limitedB = Object.values(limitsB).find((v) => typeof v === "function" && v.name === "RateLimitedError") as new (...a: never[]) => Error;
  expect(limited).toBeDefined();
  expect(Object.create(limited.prototype) instanceof coreB.ServiceError).toBe(true);
  expect(Object.create(limited.prototype) instanceof limitedB).toBe(true);
  expect(new coreA.ServiceError("rate_limited", "x") instanceof limitedB).toBe(false);
});
