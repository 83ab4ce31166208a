"use server";

import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { lookupCashOutRecipient } from "@/lib/services/cash-outs/lookup-pix-key";
import type { PixKeyHolder } from "@/lib/processors/types";

/** The destination key's holder (name and institution), for the cash-out's confirmation step. */
export async function lookupRecipientAction(pixKey: string, pixKeyType: string): Promise<ActionState<{ holder: PixKeyHolder | null }>> {
  return dashboardAction(async (ctx) => {
    const { holder } = await lookupCashOutRecipient(ctx, { pixKey, pixKeyType });
    return { status: "ok", data: { holder } };
  });
}
