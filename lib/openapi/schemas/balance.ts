/** Response schemas of the balance and its statement (read from the ledger). */
import { z } from "zod";
import { ENTRY_TYPES } from "@/lib/domain/ledger";
import { STATEMENT_ACCOUNTS } from "@/lib/schemas/money";
import { centavos, isoDate } from "./common";

export const BalanceSchema = z
  .object({
    available: centavos("Held by Arara for you: can be cashed out (source `arara`) or refunded now"),
    availableAtPsp: centavos(
      "PIX received through your own PSP (API Pix), net of fees, refunds and cash-outs from there: money in your PSP account, never Arara's to pay out. A cash-out from it (source `psp`) is a transfer from that account (Efí's Pix Envio). 0 when you receive through the sandbox",
    ),
    waitingFunds: centavos("Card funds before settlement"),
    reserved: centavos("Held for cash-outs in progress and for refunds asked of your own PSP (API Pix) and not yet answered"),
    total: centavos("available + availableAtPsp + waitingFunds + reserved"),
  })
  .meta({ id: "Balance" });

export const StatementEntrySchema = z
  .object({
    id: z.number().int(),
    type: z.enum(ENTRY_TYPES),
    account: z.enum(STATEMENT_ACCOUNTS).meta({
      description: "Ledger account of the entry: available (held by Arara), available_at_psp (PIX received at your own PSP) or waiting_funds (card sales before settlement)",
    }),
    amount: z.number().int().meta({ description: "Signed, in centavos (negative: debit)" }),
    balanceAfter: z.number().int().meta({ description: "That account's balance after this entry, in centavos" }),
    transactionId: z.number().int().nullable(),
    cashOutId: z.number().int().nullable(),
    description: z.string(),
    createdAt: isoDate("When"),
  })
  .meta({ id: "StatementEntry" });

export const StatementPageSchema = z
  .object({
    data: z.array(StatementEntrySchema).meta({ description: "Newest first" }),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page" }),
  })
  .meta({ id: "StatementPage" });
