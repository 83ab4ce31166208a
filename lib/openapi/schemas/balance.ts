/** Response schemas of the balance and its statement (read from the ledger). */
import { z } from "zod";
import { ENTRY_TYPES } from "@/lib/domain/ledger";
import { STATEMENT_ACCOUNTS } from "@/lib/schemas/money";
import { centavos, isoDate } from "./common";

export const BalanceSchema = z
  .object({
    available: centavos("Can be cashed out now"),
    waitingFunds: centavos("Card funds before settlement"),
    reserved: centavos("Held for cash-outs in progress and for refunds asked of your own PSP (API Pix) and not yet answered"),
    total: centavos("available + waitingFunds + reserved"),
  })
  .meta({ id: "Balance" });

export const StatementEntrySchema = z
  .object({
    id: z.number().int(),
    type: z.enum(ENTRY_TYPES),
    account: z.enum(STATEMENT_ACCOUNTS).meta({ description: "Ledger account of the entry: available or waiting_funds (card sales before settlement)" }),
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
