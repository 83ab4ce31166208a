/**
 * The account's card installment plan (dashboard, "Parcelamento"): read from the companies row,
 * changed by the merchant. The database's CHECK constraints hold the same bounds as the schema here.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { MAX_CARD_INSTALLMENTS, parseRatePercent, type InstallmentPlan } from "@/lib/domain/installments";
import type { Account, ServiceContext } from "../context";
import { validation, type FieldError } from "../errors";

export function accountInstallmentPlan(
  a: Pick<Account, "installmentMax" | "installmentInterestFree" | "installmentMonthlyRateBp">,
): InstallmentPlan {
  return { maxInstallments: a.installmentMax, interestFree: a.installmentInterestFree, monthlyRateBp: a.installmentMonthlyRateBp };
}

const whole = (min: number, max: number) =>
  z.coerce
    .number({ error: `deve ser um número de ${min} a ${max}` })
    .int(`deve ser um número inteiro de ${min} a ${max}`)
    .min(min, `deve ser de ${min} a ${max}`)
    .max(max, `deve ser de ${min} a ${max}`);

/**
 * The dashboard's form: counts as whole numbers, the rate as the merchant writes it ("1,99" % a
 * month), kept as basis points so no float is stored.
 */
export const InstallmentSettingsForm = z
  .object({
    maxInstallments: whole(1, MAX_CARD_INSTALLMENTS),
    interestFree: whole(1, MAX_CARD_INSTALLMENTS),
    monthlyRate: z
      .string()
      .trim()
      .refine((s) => parseRatePercent(s) !== null, "deve ser uma taxa como 1,99 (até duas casas decimais)")
      .transform((s) => parseRatePercent(s)!)
      .pipe(z.number().max(1_000, "deve ser no máximo 10,00% ao mês")),
  })
  .superRefine((v, ctx) => {
    if (v.interestFree > v.maxInstallments) {
      ctx.addIssue({ code: "custom", path: ["interestFree"], message: "não pode passar do número máximo de parcelas" });
    }
  });

/** Saves the account's plan; a 400 lists each bad field (pt-BR: the merchant reads it in the dashboard). */
export async function updateInstallmentPlan(ctx: ServiceContext, raw: unknown): Promise<InstallmentPlan> {
  const parsed = InstallmentSettingsForm.safeParse(raw);
  if (!parsed.success) {
    const errors: FieldError[] = parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? ""), message: i.message }));
    throw validation("Parcelamento inválido.", errors);
  }
  const { maxInstallments, interestFree, monthlyRate } = parsed.data;
  const [row] = await getDb()
    .update(companies)
    .set({ installmentMax: maxInstallments, installmentInterestFree: interestFree, installmentMonthlyRateBp: monthlyRate })
    .where(eq(companies.id, ctx.account.id))
    .returning();
  return accountInstallmentPlan(row);
}
