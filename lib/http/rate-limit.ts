import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { getEnv } from "@/lib/env";

/**
 * Per-key token bucket: RATE_LIMIT_PER_SECOND sustained, RATE_LIMIT_BURST at once. In memory, per
 * process: with N instances behind a balancer a key gets up to N times the rate (see README).
 */
const g = globalThis as unknown as { __araraLimiter?: { burst: RateLimiterMemory; sustained: RateLimiterMemory } };

function limiters() {
  if (!g.__araraLimiter) {
    const env = getEnv();
    g.__araraLimiter = {
      // Burst: up to RATE_LIMIT_BURST requests in any 1-second window...
      burst: new RateLimiterMemory({ points: env.rateLimitBurst, duration: 1, keyPrefix: "b" }),
      // ...and on average no more than RATE_LIMIT_PER_SECOND over 10 seconds.
      sustained: new RateLimiterMemory({ points: env.rateLimitPerSecond * 10, duration: 10, keyPrefix: "s" }),
    };
  }
  return g.__araraLimiter;
}

/** Returns null when allowed, or the seconds to wait. */
export async function takeToken(key: string): Promise<number | null> {
  const { burst, sustained } = limiters();
  try {
    await burst.consume(key);
    await sustained.consume(key);
    return null;
  } catch (e) {
    if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw e;
  }
}

/** For tests: forget all counters. */
export function resetRateLimits(): void {
  g.__araraLimiter = undefined;
}
