import { bigint, check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { COLUMN_VALUES, oneOf } from "./enum-checks";
import { companies } from "./accounts";

export const cashOuts = pgTable(
  "cash_outs",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity({ startWith: 100 }),
    companyId: bigint({ mode: "number" }).notNull().references(() => companies.id),
    status: text().notNull(), // pending | processing | completed | failed
    amount: bigint({ mode: "number" }).notNull(),
    fee: bigint({ mode: "number" }).notNull(),
    pixKey: text().notNull(),
    pixKeyType: text().notNull(),
    description: text(),
    externalRef: text(),
    postbackUrl: text(),
    processor: text().notNull(),
    end2endId: text(),
    failReason: text(),
    /** When the asynchronous PSP should next look at it. */
    nextStepAt: timestamp({ withTimezone: true, mode: "date" }),
    createdAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("cash_outs_company_idx").on(t.companyId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("cash_outs_next_step_idx").on(t.nextStepAt),
    check("cash_outs_status_check", oneOf(t.status, COLUMN_VALUES.cashOutStatus)),
    check("cash_outs_pix_key_type_check", oneOf(t.pixKeyType, COLUMN_VALUES.pixKeyType)),
  ],
);
