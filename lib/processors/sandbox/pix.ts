import { buildStaticBrCode } from "@/lib/domain/pix/brcode";
import { txidFor } from "@/lib/domain/pix/end2end";
import type { PixCharge, PixChargeInput, PixProvider } from "../types";

const DAY_MS = 86_400_000;

/**
 * The sandbox PSP emits the static BR Code with the amount (field 54) and a txid unique to the
 * transaction (field 62-05), paid to the merchant's PIX key. Payment is simulated
 * (`PUT /api/v1/transactions/{id}/test` or the checkout page's button); no bank will ever settle it.
 */
export const sandboxPixProvider: PixProvider = {
  async createCharge(input: PixChargeInput): Promise<PixCharge> {
    const txid = txidFor(input.transactionId, input.secureId);
    const qrcode = buildStaticBrCode({
      key: input.merchant.pixKey,
      merchantName: input.merchant.name,
      merchantCity: input.merchant.city,
      amount: input.amount,
      txid,
    });
    const lasts = input.expiresInSeconds !== undefined ? input.expiresInSeconds * 1000 : input.expiresInDays * DAY_MS;
    return { qrcode, txid, expiresAt: new Date(input.now.getTime() + lasts) };
  },
};
