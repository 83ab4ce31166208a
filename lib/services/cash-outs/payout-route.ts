import { randomBase62 } from "@/lib/crypto";
import { getDb, type Queryable, type Tx } from "@/lib/db/client";
import { pspPayouts } from "@/lib/db/schema";
import { API_PIX_PROCESSOR, pspConfigOf } from "@/lib/processors/api-pix/config";
import { EFI_PAYOUT_PROVIDER } from "@/lib/processors/payouts/efi";
import { sandboxPixPayouts } from "@/lib/processors/payouts/sandbox";
import type { CashOutRow } from "./cash-out-view";
import { ServiceError } from "../errors";

export type PayoutRoute = { processor: string; efi: { payerKey: string } | null };

/**
 * Who pays a new cash-out out. The sandbox, while the account receives PIX through the sandbox. An
 * account receiving through its own PSP (API Pix) has its money at that PSP, not with Arara: its
 * cash-outs go through Efí's Pix Envio when it is set up (paid from the merchant's Efí account), and
 * are refused otherwise (422 `unprocessable`), since Arara has nothing of its own to send.
 * `known`: the processor the account's settings name as already read with the request's
 * authentication (null: no settings); when it is not API Pix, the settings are not read again.
 */
export async function payoutRouteFor(companyId: number, q: Queryable = getDb(), known?: string | null): Promise<PayoutRoute> {
  if (known !== undefined && known !== API_PIX_PROCESSOR) return { processor: sandboxPixPayouts.name, efi: null };
  const config = await pspConfigOf(companyId, q);
  if (!config || config.processor !== API_PIX_PROCESSOR) return { processor: sandboxPixPayouts.name, efi: null };
  if (config.payoutProvider === "efi" && config.payoutPayerKey) return { processor: EFI_PAYOUT_PROVIDER, efi: { payerKey: config.payoutPayerKey } };
  throw new ServiceError(
    "unprocessable",
    "Cash-outs are not set up for this account (payout_not_configured): it receives PIX through its own PSP, so its money is there and not with Arara. Set up cash-outs through the PSP (Efí's Pix Envio, in the dashboard's PIX settings) or withdraw at the PSP.",
  );
}

/** The PSP's side of a cash-out, in the transaction that creates it: its idEnvio, drawn once. */
export async function recordPspPayout(tx: Tx, cashOut: CashOutRow, route: PayoutRoute, now: Date): Promise<void> {
  const values = pspPayoutValues(cashOut, route, now);
  if (values) await tx.insert(pspPayouts).values(values);
}

/** The `psp_payouts` row of a new cash-out sent through a PSP; null for the sandbox. */
export function pspPayoutValues(cashOut: { id: number; companyId: number }, route: PayoutRoute, now: Date): typeof pspPayouts.$inferInsert | null {
  if (!route.efi) return null;
  return {
    cashOutId: cashOut.id,
    companyId: cashOut.companyId,
    provider: "efi",
    // 35 letters and digits at most (Efí's rule): the cash-out id and a random tail, so that ids never
    // meet another installation's or a reset database's at the same Efí account.
    idEnvio: `A${cashOut.id}R${randomBase62(20)}`.slice(0, 35),
    payerKey: route.efi.payerKey,
    createdAt: now,
    updatedAt: now,
  };
}
