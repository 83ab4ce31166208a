import { efiPixPayouts } from "./efi";
import { sandboxPixPayouts } from "./sandbox";
import type { PixPayoutProvider } from "./types";

/** Every PIX Out provider, by the name a cash-out stores in `processor`. */
const PROVIDERS = new Map<string, PixPayoutProvider>([
  [sandboxPixPayouts.name, sandboxPixPayouts],
  [efiPixPayouts.name, efiPixPayouts],
]);

export function payoutProviderFor(processor: string): PixPayoutProvider {
  const p = PROVIDERS.get(processor);
  if (!p) throw new Error(`No PIX payout provider named "${processor}" is registered.`);
  return p;
}
