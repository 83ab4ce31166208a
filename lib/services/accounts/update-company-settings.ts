import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { BRAZIL_STATES, normalizeCep, type PostalAddress } from "@/lib/domain/address";
import { parsePixKey } from "@/lib/domain/pix/keys";
import type { Account, ServiceContext } from "../context";
import { validation, type FieldError } from "../errors";
import { optionalText } from "@/lib/core/validation";


/** The merchant's postal address, printed on its boletos; every part optional. */
export const CompanyAddressInput = z
  .object({
    street: optionalText(200),
    streetNumber: optionalText(20),
    complement: optionalText(200),
    neighborhood: optionalText(100),
    city: optionalText(100),
    state: z
      .string()
      .trim()
      .toUpperCase()
      .optional()
      .transform((v) => v || null)
      .refine((v) => v === null || (BRAZIL_STATES as readonly string[]).includes(v), { message: "must be a state's two-letter code (UF), as SP" }),
    zipCode: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || null)
      .refine((v) => v === null || normalizeCep(v) !== null, { message: "must be a CEP of 8 digits, as 01310-100" })
      .transform((v) => (v === null ? null : normalizeCep(v))),
  })
  .transform((a): PostalAddress | null => (Object.values(a).some((v) => v !== null) ? a : null));

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
  /** Absent: the stored address is kept. All parts empty: the address is removed. */
  address: CompanyAddressInput.optional(),
});
export type CompanySettingsInput = z.input<typeof CompanySettingsInput>;

/**
 * The merchant's own details from the dashboard: trade name, contact e-mail, city, postal address
 * (printed on boletos) and the PIX key charges are paid to (stored in DICT form, its type inferred
 * unless given). The document, the keys and the fee plan are not editable here. The login e-mail is
 * the user's, not this contact e-mail. Every bad field is reported at once.
 */
export async function updateCompanySettings(ctx: Pick<ServiceContext, "account">, raw: CompanySettingsInput): Promise<Account> {
  const parsed = CompanySettingsInput.safeParse(raw);
  const errors: FieldError[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
  let key: ReturnType<typeof parsePixKey> | null = null;
  const rawKey = typeof raw.pixKey === "string" ? raw.pixKey.trim() : "";
  if (rawKey) {
    key = parsePixKey(rawKey, typeof raw.pixKeyType === "string" ? raw.pixKeyType : undefined);
    if (!key.ok) errors.push({ field: key.problem === "unknown_type" ? "pixKeyType" : "pixKey", message: key.message });
  }
  if (!parsed.success || !key?.ok || errors.length) throw validation("The company settings are invalid.", errors);
  const input = parsed.data;
  const [row] = await getDb()
    .update(companies)
    .set({
      name: input.name,
      email: input.email,
      city: input.city,
      // Saved by the merchant: the overview's "Primeiros passos" counts the PIX details as checked.
      cityConfirmedAt: new Date(),
      pixKey: key.key,
      pixKeyType: key.type,
      ...(input.address !== undefined ? { address: input.address } : {}),
    })
    .where(eq(companies.id, ctx.account.id))
    .returning();
  return row;
}
