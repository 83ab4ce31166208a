import { parsePixKey } from "@/lib/domain/pix/keys";
import { sandboxKeyLookup } from "@/lib/processors/sandbox/key-lookup";
import type { PixKeyHolder, PixKeyLookup } from "@/lib/processors/types";
import type { ServiceContext } from "../context";
import { validation } from "../errors";

/**
 * The holder of a cash-out's destination key, from the PSP's DICT lookup, so that the merchant
 * sees whose account the money goes to before confirming. Test accounts ask the sandbox's DICT; a
 * live PSP's lookup plugs in here (`lookup`).
 */
export async function lookupCashOutRecipient(
  ctx: ServiceContext,
  input: { pixKey: string; pixKeyType?: string | null },
  lookup: PixKeyLookup = sandboxKeyLookup,
): Promise<{ type: string; key: string; holder: PixKeyHolder | null }> {
  const parsed = parsePixKey(input.pixKey, input.pixKeyType);
  if (!parsed.ok) throw validation("The PIX key is invalid.", [{ field: "pixKey", message: parsed.message }]);
  const holder = await lookup.lookupKey({ type: parsed.type, key: parsed.key, now: ctx.now });
  return { type: parsed.type, key: parsed.key, holder };
}
