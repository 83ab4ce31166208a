/**
 * The merchant's brand on the hosted checkout: display name, colour (contrast-checked), support
 * contact and logo (bytes kept in the database, served by /brand/logo/{sha256}).
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { getDb, type Queryable } from "@/lib/db/client";
import { companyBranding } from "@/lib/db/schema";
import { brandColorOrDefault, checkBrandColor, darken, LOGO_MAX_BYTES, sniffLogoType } from "@/lib/domain/brand";
import type { ServiceContext } from "../context";
import { validation, type FieldError } from "../errors";
import { optionalText } from "@/lib/core/validation";

export type Branding = {
  displayName: string | null;
  brandColor: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  logoSha256: string | null;
};

/** What the checkout renders: always a usable colour, the logo's URL when there is one. */
export type PayerBrand = {
  color: string;
  colorHover: string;
  logoUrl: string | null;
  support: { email: string | null; phone: string | null; whatsapp: string | null };
};

export const logoUrlOf = (sha256: string) => `/brand/logo/${sha256}`;

export async function getBranding(companyId: number, db: Queryable = getDb()): Promise<Branding | null> {
  const [row] = await db
    .select({
      displayName: companyBranding.displayName,
      brandColor: companyBranding.brandColor,
      supportEmail: companyBranding.supportEmail,
      supportPhone: companyBranding.supportPhone,
      logoSha256: companyBranding.logoSha256,
    })
    .from(companyBranding)
    .where(eq(companyBranding.companyId, companyId))
    .limit(1);
  return row ?? null;
}

export function payerBrandOf(b: Branding | null): PayerBrand {
  const color = brandColorOrDefault(b?.brandColor);
  const phone = b?.supportPhone ?? null;
  return {
    color,
    colorHover: darken(color),
    logoUrl: b?.logoSha256 ? logoUrlOf(b.logoSha256) : null,
    support: {
      email: b?.supportEmail ?? null,
      phone,
      // Brazilian mobiles (11 digits after 55, the 3rd a 9) have WhatsApp as the usual channel.
      whatsapp: phone && /^55\d{2}9\d{8}$/.test(phone) ? `https://wa.me/${phone}` : null,
    },
  };
}


export const BrandingInput = z.object({
  displayName: optionalText(80),
  brandColor: optionalText(20),
  supportEmail: optionalText(200).refine((v) => v === null || z.email().safeParse(v).success, { message: "must be an e-mail address" }),
  supportPhone: optionalText(30),
});
export type BrandingInput = z.input<typeof BrandingInput>;

/** "(11) 98765-4321" or "+55 11 98765-4321" -> "5511987654321"; null when not a Brazilian number. */
export function normalizeSupportPhone(raw: string): string | null {
  let d = raw.replace(/\D/g, "");
  // "+<country>": only Brazil's; without it, 10 or 11 digits are a DDD and a number.
  if (raw.trim().startsWith("+")) {
    if (!d.startsWith("55")) return null;
  } else if (d.length === 10 || d.length === 11) d = `55${d}`;
  return /^55[1-9][0-9]\d{8,9}$/.test(d) ? d : null;
}

export async function updateBranding(ctx: ServiceContext, input: BrandingInput): Promise<Branding> {
  const parsed = BrandingInput.safeParse(input);
  const errors: FieldError[] = parsed.success ? [] : parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
  const data = parsed.success ? parsed.data : null;
  let color: string | null = null;
  if (data?.brandColor) {
    const c = checkBrandColor(data.brandColor);
    if (c.ok) color = c.color;
    else errors.push({ field: "brandColor", message: c.reason === "invalid" ? "must be a hex colour such as #0f766e" : `contrast ${c.ratio.toFixed(2)}:1 with white text is below 4.5:1` });
  }
  let phone: string | null = null;
  if (data?.supportPhone) {
    phone = normalizeSupportPhone(data.supportPhone);
    if (!phone) errors.push({ field: "supportPhone", message: "must be a Brazilian phone number with area code" });
  }
  if (errors.length || !data) throw validation("The branding is invalid.", errors);
  const values = { displayName: data.displayName, brandColor: color, supportEmail: data.supportEmail, supportPhone: phone, updatedAt: ctx.now };
  await getDb()
    .insert(companyBranding)
    .values({ companyId: ctx.account.id, ...values })
    .onConflictDoUpdate({ target: companyBranding.companyId, set: values });
  return (await getBranding(ctx.account.id))!;
}

/** Replaces the logo (PNG, JPEG or WebP up to 256 KB, checked by its bytes); null bytes removes it. */
export async function setLogo(ctx: ServiceContext, bytes: Buffer | null): Promise<Branding> {
  let values: { logo: Buffer | null; logoType: string | null; logoSha256: string | null };
  if (!bytes || bytes.length === 0) {
    values = { logo: null, logoType: null, logoSha256: null };
  } else {
    if (bytes.length > LOGO_MAX_BYTES) throw validation("The logo is invalid.", [{ field: "logo", message: `must be at most ${LOGO_MAX_BYTES / 1024} KB` }]);
    const type = sniffLogoType(bytes);
    if (!type) throw validation("The logo is invalid.", [{ field: "logo", message: "must be a PNG, JPEG or WebP image" }]);
    values = { logo: bytes, logoType: type, logoSha256: createHash("sha256").update(bytes).digest("hex") };
  }
  await getDb()
    .insert(companyBranding)
    .values({ companyId: ctx.account.id, ...values, updatedAt: ctx.now })
    .onConflictDoUpdate({ target: companyBranding.companyId, set: { ...values, updatedAt: ctx.now } });
  return (await getBranding(ctx.account.id))!;
}

/** The logo with this hash (any merchant's: logos are public, like the checkout that shows them). */
export async function logoBySha256(sha256: string): Promise<{ bytes: Buffer; type: string } | null> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
  const [row] = await getDb()
    .select({ logo: companyBranding.logo, type: companyBranding.logoType })
    .from(companyBranding)
    .where(eq(companyBranding.logoSha256, sha256))
    .limit(1);
  return row?.logo && row.type ? { bytes: row.logo, type: row.type } : null;
}
