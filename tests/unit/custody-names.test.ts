/**
 * The custody rule (lib/domain/ledger.ts) decides which funds account a journal uses from the
 * transaction's acquirer type and the cash-out's processor, by name. The names are the processors'
 * own: if one changed, money at the merchant's PSP would be booked as Arara's.
 */
import { describe, expect, it } from "vitest";
import { API_PIX_ACQUIRER } from "@/lib/core/transaction-resource";
import { fundsAccountOfCashOut, fundsAccountOfTransaction } from "@/lib/domain/ledger";
import { API_PIX_PROCESSOR } from "@/lib/processors/api-pix/config";
import { EFI_PAYOUT_PROVIDER } from "@/lib/processors/payouts/efi";
import { sandboxPixPayouts } from "@/lib/processors/payouts/sandbox";
import { defaultCashOutSource } from "@/lib/services/cash-outs/payout-route";

describe("the custody rule names the processors as they name themselves", () => {
  it("a PIX of the API Pix processor, and a cash-out of Efí's Pix Envio, are the PSP's; the sandbox's are Arara's", () => {
    expect(fundsAccountOfTransaction({ acquirerType: API_PIX_ACQUIRER })).toBe("available_at_psp");
    expect(fundsAccountOfCashOut({ processor: EFI_PAYOUT_PROVIDER })).toBe("available_at_psp");
    expect(fundsAccountOfTransaction({ acquirerType: "sandbox" })).toBe("available");
    expect(fundsAccountOfCashOut({ processor: sandboxPixPayouts.name })).toBe("available");
  });

  it("a cash-out's default source follows the account's PIX processor", () => {
    expect(defaultCashOutSource(API_PIX_PROCESSOR)).toBe("psp");
    expect(defaultCashOutSource("sandbox")).toBe("arara");
    expect(defaultCashOutSource(null)).toBe("arara");
  });
});
