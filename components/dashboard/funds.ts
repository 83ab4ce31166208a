/**
 * Where a merchant's money is, as the dashboard's pages show it: what Arara holds (`available`) and,
 * for an account receiving PIX through its own PSP, what landed in its PSP account (`availableAtPsp`),
 * which only a transfer from that account (Efí's Pix Envio) can send. Server only.
 */
import { getBalance, type Balance } from "@/lib/services/accounts/get-balance";
import { getPspSettings } from "@/lib/services/psp/api-pix-settings";
import { defaultCashOutSource } from "@/lib/services/cash-outs/payout-route";
import type { CashOutSource } from "@/lib/domain/cash-out";
import type { DashboardContext } from "@/lib/auth/session";

export type MerchantFunds = {
  balance: Balance;
  /** New PIX charges go through the merchant's own PSP (API Pix). */
  receivesAtPsp: boolean;
  /** Cash-outs can be sent from the PSP account: Efí's Pix Envio set up with a payer key. */
  sendsFromPsp: boolean;
  /** The pages show the PSP side (its balance, the choice of source): it has money there or may have. */
  showsPsp: boolean;
  /** The source a cash-out takes when none is named: the API's default (lib/services/cash-outs/payout-route.ts). */
  defaultSource: CashOutSource;
};

export async function merchantFunds(ctx: DashboardContext): Promise<MerchantFunds> {
  const [balance, psp] = await Promise.all([getBalance(ctx), getPspSettings(ctx)]);
  const defaultSource = defaultCashOutSource(psp.processor);
  const receivesAtPsp = defaultSource === "psp";
  // The same test as payoutRouteFor's: Efí with a payer key, whatever the processor of new charges.
  const sendsFromPsp = psp.payoutEfi && psp.payoutPayerKey !== "";
  return {
    balance,
    receivesAtPsp,
    sendsFromPsp,
    showsPsp: receivesAtPsp || sendsFromPsp || balance.availableAtPsp !== 0,
    defaultSource,
  };
}

