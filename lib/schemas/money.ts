/**
 * Requests of the money endpoints: refunds, cash-outs (PIX Out), balance statement and cash-out
 * list. Lenient where clients of the gateway family differ: amounts as numbers or numeric strings,
 * PIX key types in any case and under the names other gateways use ("random", "telefone").
 */
import { z } from "zod";
import { commaList, dateParam } from "./query";
import { CASH_OUT_SOURCES, CASH_OUT_STATUSES, MAX_CASH_OUT_AMOUNT } from "@/lib/domain/cash-out";
import { ENTRY_TYPES } from "@/lib/domain/ledger";
import { PageQuery } from "@/lib/core/pagination";
import { centavos, httpUrl, need, optionalText } from "./fields";

/**
 * Fields a store's refund call may carry besides `amount` (its own notes), accepted and ignored. Any
 * other field is refused when `amount` is absent: a misspelt amount ("amont", "valor") would otherwise
 * read as "refund all that is left".
 */
const REFUND_NOTES = ["reason", "description", "metadata", "externalRef"];

export const RefundRequest = z
  .object({
    amount: centavos("How much to refund; default (the field left out): all that is still refundable (paidAmount - refundedAmount)", {
      max: Number.MAX_SAFE_INTEGER,
      digitStrings: true,
      nullMessage: "must not be null: leave amount out to refund all that is still refundable",
    }).optional(),
  })
  .loose()
  .superRefine((body, ctx) => {
    if (body.amount !== undefined) return;
    const unknown = Object.keys(body).find((k) => k !== "amount" && !REFUND_NOTES.includes(k));
    if (unknown !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [unknown],
        message: "is not a field of a refund: send amount (in centavos) for a partial refund, or an empty body to refund all that is still refundable",
      });
    }
  })
  .transform(({ amount }) => ({ amount }))
  .meta({
    id: "RefundTransaction",
    description:
      "Full or partial refund of a paid transaction. A partial refund keeps the status paid and grows refundedAmount (no webhook: " +
      "webhooks are sent on status changes); the refund that reaches paidAmount moves it to refunded (webhook `refunded`). " +
      "`amount` left out (an empty body) refunds all that is still refundable; `amount: null` is refused, and so is any field " +
      "other than `reason`, `description`, `metadata` or `externalRef` when `amount` is absent (a misspelt amount must not refund everything).",
  });
export type RefundRequest = z.output<typeof RefundRequest>;

export const CashOutRequest = z
  .object({
    amount: centavos("Amount to transfer (the fee is debited on top)", { max: MAX_CASH_OUT_AMOUNT, digitStrings: true }),
    pixKey: z
      .union([z.string(), z.number()], need("a PIX key"))
      .transform((v) => String(v).trim())
      .pipe(z.string().min(1, "is required").max(100, "must have at most 100 characters"))
      // The pipe's limit, for the document (which shows the input side, before the pipe).
      .meta({ description: "Destination PIX key: CPF, CNPJ, e-mail, +55 phone or random key (EVP)", maxLength: 100 }),
    pixKeyType: z
      .string(need("one of: cpf, cnpj, email, phone, evp"))
      .max(40)
      .nullish()
      .transform((v) => v ?? null)
      .meta({ description: "cpf, cnpj, email, phone or evp, any case (also random, telefone); inferred from the key when absent" }),
    description: optionalText(140).meta({ description: "Shown to you in the statement and the dashboard" }),
    externalRef: optionalText(200).meta({ description: "Your identifier for this cash-out" }),
    postbackUrl: httpUrl
      .nullish()
      .transform((v) => v || null)
      .meta({ description: "Receives a `cash_out` webhook on each status change; without it, the account's default webhook URL (dashboard, Desenvolvedores), if set" }),
    source: z
      .enum(CASH_OUT_SOURCES, { error: () => "must be arara or psp" })
      .nullish()
      .transform((v) => v ?? undefined)
      .meta({
        description:
          "Which money to send: `arara` (the `available` balance, which Arara holds: sent by Arara's payouts) or `psp` (the `availableAtPsp` balance, PIX received through your own PSP: sent from your PSP account by Efí's Pix Envio). Default: `psp` when the account receives PIX through its own PSP, `arara` otherwise",
      }),
  })
  .meta({ id: "CashOutRequest", description: "A PIX transfer out of the available balance, or out of your PSP account (`source`). Unknown fields are ignored." });
export type CashOutRequest = z.output<typeof CashOutRequest>;
export type CashOutInput = z.input<typeof CashOutRequest>;

export const ListCashOutsQuery = PageQuery.extend({
  status: commaList(CASH_OUT_STATUSES).optional().meta({ description: "pending, processing, completed, failed (comma list)" }),
  externalRef: z.string().max(200).optional(),
  from: dateParam.optional(),
  to: dateParam.optional(),
});
export type ListCashOutsQuery = z.output<typeof ListCashOutsQuery>;

export const STATEMENT_ACCOUNTS = ["available", "waiting_funds", "available_at_psp"] as const;
export type StatementAccount = (typeof STATEMENT_ACCOUNTS)[number];
export const STATEMENT_MAX_LIMIT = 100;

export const StatementQuery = z.object({
  from: dateParam.optional(),
  to: dateParam.optional(),
  type: commaList(ENTRY_TYPES).optional().meta({ description: `Entry types (comma list): ${ENTRY_TYPES.join(", ")}` }),
  account: commaList(STATEMENT_ACCOUNTS)
    .optional()
    .meta({ description: "available, waiting_funds, available_at_psp (comma list); default all three" }),
  cursor: z.string().max(200).optional().meta({ description: "nextCursor of the previous page" }),
  limit: z.coerce
    .number()
    .int(`must be from 1 to ${STATEMENT_MAX_LIMIT}`)
    .min(1, `must be from 1 to ${STATEMENT_MAX_LIMIT}`)
    .max(STATEMENT_MAX_LIMIT, `must be from 1 to ${STATEMENT_MAX_LIMIT}`)
    .default(50),
});
export type StatementQuery = z.output<typeof StatementQuery>;
