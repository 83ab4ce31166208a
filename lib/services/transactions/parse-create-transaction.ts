import { zodFieldErrors } from "@/lib/core/validation";
import { chosenInstallmentOption, pricedInstallmentOptions, type PricedInstallmentOption } from "@/lib/domain/installments";
import { MAX_AMOUNT } from "@/lib/schemas/fields";
import {
  CreateTransactionRequest,
  transactionRuleErrors,
  type CreateTransactionRequest as Request,
} from "@/lib/schemas/transactions";
import type { Account } from "../context";
import { ServiceError, validation, type FieldError } from "../errors";
import { accountInstallmentPlan } from "../accounts/installment-plan";

/** Field rules first, then the rules between fields; one 400 lists every bad field. */
export function parseCreateTransaction(raw: unknown): Request {
  const parsed = CreateTransactionRequest.safeParse(raw);
  let errors: FieldError[];
  if (parsed.success) {
    errors = transactionRuleErrors(parsed.data);
    if (!errors.length) return parsed.data;
  } else {
    errors = zodFieldErrors(parsed.error);
    // The rules between fields still run on the fields that parsed, so a missing card.hash is
    // reported together with a bad e-mail, not on the next attempt.
    const bad = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "")));
    for (const e of transactionRuleErrors(fieldsThatParsed(raw, bad))) {
      if (!errors.some((x) => x.field === e.field)) errors.push(e);
    }
  }
  const message =
    errors.length === 1
      ? `The transaction is invalid: ${errors[0].field} ${errors[0].message}.`
      : `The transaction is invalid: ${errors.length} fields have problems.`;
  throw new ServiceError("validation_error", message, errors);
}

/** Each top-level field that parsed on its own; those with errors are left out. */
function fieldsThatParsed(raw: unknown, bad: Set<string>): Partial<Request> {
  if (bad.has("") || typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const obj = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(CreateTransactionRequest.shape)) {
    if (!bad.has(key)) out[key] = schema.parse(obj[key]);
  }
  return out as Partial<Request>;
}

/**
 * The card installment option the charge is made in, re-computed from the plan (the charge's
 * installmentPlan, else the account's): the card is charged its total. A count the plan does not
 * offer for this amount is a 400 naming the counts it does.
 */
export function cardInstallmentOption(input: Request, account: Account): PricedInstallmentOption {
  const plan = input.installmentPlan ?? accountInstallmentPlan(account);
  const option = chosenInstallmentOption(input.amount, plan, input.installments);
  // The card is charged the total: with interest it must stay within what a charge may be.
  if (option && option.total > MAX_AMOUNT) {
    const message = `would charge ${option.total} with interest, above the maximum of ${MAX_AMOUNT} (R$ 1.000.000,00) a charge may be: choose fewer installments or a smaller amount`;
    throw validation(`The transaction is invalid: installments ${message}.`, [{ field: "installments", message }]);
  }
  if (option) return option;
  const most = pricedInstallmentOptions(input.amount, plan).length;
  const message = `is not offered for this amount: choose 1 to ${most} (the plan allows up to ${plan.maxInstallments}, each installment at least R$ 5,00)`;
  throw validation(`The transaction is invalid: installments ${message}.`, [{ field: "installments", message }]);
}
