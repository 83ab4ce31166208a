import type { Account } from "@/lib/core/rows";
import { sandboxProcessor } from "./sandbox";
import type { Processor } from "./types";

/** Every processor the gateway knows, by name (the API's `acquirerType`). */
const PROCESSORS = new Map<string, Processor>([[sandboxProcessor.name, sandboxProcessor]]);

export function getProcessor(name: string): Processor {
  const p = PROCESSORS.get(name);
  if (!p) throw new Error(`No payment processor named "${name}" is registered.`);
  return p;
}

/**
 * The processor that charges for an account. Every account is in test mode today, so it is always
 * the sandbox; a live account would be routed to a real acquirer/PSP here.
 */
export function processorFor(account: Pick<Account, "livemode">): Processor {
  if (account.livemode) throw new Error("Live mode needs a real acquirer, and none is configured.");
  return getProcessor(sandboxProcessor.name);
}
