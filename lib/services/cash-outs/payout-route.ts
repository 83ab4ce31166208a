import { randomBase62 } from "@/lib/crypto";
import { getDb, type Queryable, type Tx } from "@/lib/db/client";
import { pspPayouts } from "@/lib/db/schema";
import { API_PIX_PROCESSOR, pspConfigOf } from "@/lib/processors/api-pix/config";
import { EFI_PAYOUT_PROVIDER } from "@/lib/processors/payouts/efi";
import { sandboxPixPayouts } from "@/lib/processors/payouts/sandbox";
import type { CashOutSource } from "@/lib/domain/cash-out";
import type { CashOutRow } from "./cash-out-view";
import { ServiceError } from "../errors";

export type PayoutRoute = { processor: string; efi: { payerKey: string } | null };

const NOT_CONFIGURED_AT_PSP =
  "Cash-outs from your PSP account are not set up for this account (payout_not_configured): money received through your own PSP is there, not with Arara, so only a transfer from that account can send it. Set up cash-outs through the PSP (Efí's Pix Envio, in the dashboard's PIX settings) or withdraw at the PSP.";

/**
 * Who pays a new cash-out out, which decides the money it is taken from (lib/domain/ledger.ts,
 * FundsAccount): Arara's payouts (the sandbox here) send what Arara holds (`available`: card sales,
 * boleto, PIX received through the sandbox); Efí's Pix Envio sends from the merchant's own Efí
 * account what landed there (`available_at_psp`: PIX received through the API Pix processor). Money at
 * the merchant's PSP is never paid out by Arara, whatever the account's settings say today.
 *
 * `source` left out: `psp` for an account that receives PIX through its own PSP, `arara` otherwise.
 * `psp` without Efí's Pix Envio set up is refused (422 `unprocessable`, payout_not_configured).
 * `known`: the processor the account's settings name as already read with the request's
 * authentication (null: no settings); with no `psp` asked and a processor that is not API Pix, the
 * settings are not read again.
 */
/** The source of a cash-out that names none: `psp` for an account receiving PIX through its own PSP (`pixProcessor`), `arara` otherwise. */
export function defaultCashOutSource(pixProcessor: string | null | undefined): CashOutSource {
  return pixProcessor === API_PIX_PROCESSOR ? "psp" : "arara";
}

export async function payoutRouteFor(companyId: number, q: Queryable = getDb(), known?: string | null, source?: CashOutSource): Promise<PayoutRoute> {
  const arara = { processor: sandboxPixPayouts.name, efi: null };
  if (source === "arara") return arara;
  if (source === undefined && known !== undefined && defaultCashOutSource(known) === "arara") return arara;
  const config = await pspConfigOf(companyId, q);
  if ((source ?? defaultCashOutSource(config?.processor)) === "arara") return arara;
  if (config?.payoutProvider === "efi" && config.payoutPayerKey) return { processor: EFI_PAYOUT_PROVIDER, efi: { payerKey: config.payoutPayerKey } };
  throw new ServiceError("unprocessable", NOT_CONFIGURED_AT_PSP);
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
