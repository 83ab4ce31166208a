import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { parsePixKey } from "@/lib/domain/pix/keys";
import type { Account, ServiceContext } from "./context";
import { validation, type FieldError } from "./errors";

export const CompanySettingsInput = z.object({
  name: z.string().trim().min(2, "must have at least 2 characters").max(120, "must have at most 120 characters"),
  email: z.string().trim().toLowerCase().pipe(z.email("must be a valid e-mail address")),
  /** Printed in BR Codes (BACEN field 60: plain ASCII, folded and cut to 15 there). */
  city: z
    .string()
    .trim()
    .min(2, "must have at least 2 characters")
    .max(60, "must have at most 60 characters")
    .refine((c) => /[A-Za-z]/.test(c.normalize("NFD").replace(/[\u0300-\u036f]/g, "")), { message: "must contain letters" }),
  pixKey: z.string().trim().min(1, "is required"),
  pixKeyType: z.string().trim().optional(),
});
export type CompanySettingsInput = z.input<typeof CompanySettingsInput>;

/**
 * The merchant's own details from the dashboard: trade name, contact e-mail, city and the PIX key
 * charges are paid to (stored in DICT form, its type inferred unless given). The document, the keys
 * and the fee plan are not editable here. The login e-mail is the user's, not this contact e-mail.
 */
export async function updateCompanySettings(ctx: Pick<ServiceContext, "account">, raw: CompanySettingsInput): Promise<Account> {
  const parsed = CompanySettingsInput.safeParse(raw);
  const errors: FieldError[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
  let key: ReturnType<typeof parsePixKey> | null = null;
  if (parsed.success) {
    key = parsePixKey(parsed.data.pixKey, parsed.data.pixKeyType || undefined);
    if (!key.ok) errors.push({ field: key.problem === "unknown_type" ? "pixKeyType" : "pixKey", message: key.message });
  }
  if (!parsed.success || !key?.ok || errors.length) throw validation("The company settings are invalid.", errors);
  const input = parsed.data;
  const [row] = await getDb()
    .update(companies)
    .set({ name: input.name, email: input.email, city: input.city, pixKey: key.key, pixKeyType: key.type })
    .where(eq(companies.id, ctx.account.id))
    .returning();
  return row;
}
