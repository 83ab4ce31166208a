/** Response schemas of the Cash-out aggregate. */
import { z } from "zod";
import { CASH_OUT_STATUSES } from "@/lib/domain/cash-out";
import { PIX_KEY_TYPES } from "@/lib/domain/pix/keys";
import { centavos, isoDate, pageOf } from "./common";

export const CashOutSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(CASH_OUT_STATUSES),
    amount: centavos("Amount sent"),
    fee: centavos("Cash-out fee"),
    pixKey: z.string(),
    pixKeyType: z.enum(PIX_KEY_TYPES),
    description: z.string().nullable(),
    externalRef: z.string().nullable(),
    end2endId: z.string().nullable().meta({ description: "End-to-end id, once completed" }),
    failReason: z.string().nullable(),
    createdAt: isoDate("Request time"),
    completedAt: z.string().nullable().meta({ description: "ISO 8601" }),
  })
  .meta({ id: "CashOut" });

export const CashOutListSchema = pageOf(CashOutSchema, "CashOutList");
