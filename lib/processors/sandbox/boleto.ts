import { barcodeToDigitableLine, buildBarcode } from "@/lib/domain/boleto/barcode";
import { dueDateAfter } from "@/lib/domain/boleto/due-date";
import type { BoletoIssueInput, BoletoProvider, IssuedBoleto } from "../types";

/**
 * Sandbox boletos are laid out as Banco do Brasil's (bank 001) "convênio de 7 posições" free field:
 * 000000 + agreement (7) + our number (10) + wallet (2), with the fictitious agreement 1234567 and
 * wallet 17. Our number is the transaction id, so each transaction has its own barcode. A real bank
 * would reject the slip (the agreement is not registered with it): it can only be "paid" through
 * the sandbox's simulate-payment.
 */
export const SANDBOX_BOLETO = { bankCode: "001", agreement: "1234567", wallet: "17" } as const;

export function sandboxFreeField(transactionId: number): string {
  const ourNumber = (transactionId % 10_000_000_000).toString().padStart(10, "0");
  return `000000${SANDBOX_BOLETO.agreement}${ourNumber}${SANDBOX_BOLETO.wallet}`;
}

export const sandboxBoletoProvider: BoletoProvider = {
  async issue(input: BoletoIssueInput): Promise<IssuedBoleto> {
    const due = dueDateAfter(input.now, input.expiresInDays);
    const freeField = sandboxFreeField(input.transactionId);
    const barcode = buildBarcode({ bankCode: SANDBOX_BOLETO.bankCode, amount: input.amount, dueDate: due.utcMidnight, freeField });
    return {
      barcode,
      digitableLine: barcodeToDigitableLine(barcode),
      dueDate: due.day,
      expiresAt: due.endOfDay,
      reference: freeField.slice(6, 23),
    };
  },
};
