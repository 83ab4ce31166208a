import { getDb } from "@/lib/db/client";
import type { CashOutSource } from "@/lib/domain/cash-out";
import { parsePixKey } from "@/lib/domain/pix/keys";
import { sandboxPixPayouts } from "@/lib/processors/payouts/sandbox";
import { sandboxKeyLookup } from "@/lib/processors/sandbox/key-lookup";
import type { PixKeyHolder, PixKeyLookup } from "@/lib/processors/types";
import type { ServiceContext } from "../context";
import { ServiceError, validation } from "../errors";
import { payoutRouteFor } from "./payout-route";
import { recipientConfirmation } from "./recipient-confirmation";

/**
 * The DICT lookup of each payout processor that offers one: the sandbox's (its own made-up
 * holders, for test accounts). Efí's Pix Envio has none: it is told only the key, so no name is
 * shown for its cash-outs rather than a name no one checked.
 */
const KEY_LOOKUPS: Readonly<Record<string, PixKeyLookup>> = { [sandboxPixPayouts.name]: sandboxKeyLookup };

export type CashOutRecipient = {
  type: string;
  key: string;
  /** Whether the processor that would send the money could look the key up. */
  checked: boolean;
  /** The key's holder; null when the key is not registered (checked) or could not be looked up. */
  holder: PixKeyHolder | null;
  /**
   * What the send must carry (recipient-confirmation.ts): present when the merchant may confirm, that
   * is the holder was found or the processor cannot look keys up; null for a key the DICT does not have.
   */
  confirmation: string | null;
};

/**
 * The holder of a cash-out's destination key, from the DICT lookup of the processor that would send
 * it (`source`, as the cash-out's request would route it), so that the merchant sees whose account
 * the money goes to before confirming. A processor without a lookup answers `checked: false`: the
 * merchant confirms the key itself, never a name Arara made up.
 */
export async function lookupCashOutRecipient(
  ctx: ServiceContext,
  input: { pixKey: string; pixKeyType?: string | null; source?: CashOutSource; amount: number; formKey: string },
  lookups: Readonly<Record<string, PixKeyLookup>> = KEY_LOOKUPS,
): Promise<CashOutRecipient> {
  const parsed = parsePixKey(input.pixKey, input.pixKeyType);
  if (!parsed.ok) throw validation("The PIX key is invalid.", [{ field: "pixKey", message: parsed.message }]);
  // A source that cannot send (cash-outs at the PSP not set up) has nothing to look the key up with;
  // the cash-out's own request says why it is refused.
  const route = await payoutRouteFor(ctx.account.id, getDb(), undefined, input.source).catch((e: unknown) => {
    if (e instanceof ServiceError && e.code === "unprocessable") return null;
    throw e;
  });
  const lookup = route ? lookups[route.processor] : undefined;
  const recipient = { type: parsed.type, key: parsed.key, source: input.source, amount: input.amount, formKey: input.formKey };
  if (!lookup) return { type: parsed.type, key: parsed.key, checked: false, holder: null, confirmation: recipientConfirmation(ctx, recipient) };
  const holder = await lookup.lookupKey({ type: parsed.type, key: parsed.key, now: ctx.now });
  return { type: parsed.type, key: parsed.key, checked: true, holder, confirmation: holder ? recipientConfirmation(ctx, recipient) : null };
}
