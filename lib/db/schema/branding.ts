import { bigint, customType, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./accounts";

/** PostgreSQL bytea as a Buffer (PGlite and postgres.js both hand back bytes). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (v) => v,
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * How the hosted checkout presents a merchant: display name, brand colour, support contact and
 * logo. One row per company, made on the first save; the logo's bytes live here (no file storage to
 * run) and are served by /brand/logo/{sha256} with long caching (the URL changes with the image).
 */
export const companyBranding = pgTable(
  "company_branding",
  {
  companyId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => companies.id),
  displayName: text(),
  /** "#RRGGBB", stored only when it passed the contrast check. */
  brandColor: text(),
  supportEmail: text(),
  /** Digits with country code ("5511987654321"), for the phone link and WhatsApp. */
  supportPhone: text(),
  logo: bytea(),
  logoType: text(),
  /** SHA-256 (hex) of the logo: its URL and ETag. */
  logoSha256: text(),
    updatedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("company_branding_logo_idx").on(t.logoSha256)],
);
