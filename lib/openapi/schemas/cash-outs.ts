/** Response schemas of the Cash-out aggregate. */
import { z } from "zod";
import { CASH_OUT_SOURCES, CASH_OUT_STATUSES } from "@/lib/domain/cash-out";
import { PIX_KEY_TYPES } from "@/lib/domain/pix/keys";
import { centavos, isoDate, pageOf } from "./common";

export const CashOutWaitingSchema = z
  .object({
    code: z.string().meta({
      description:
        "`not_configured` (the PSP settings are incomplete), `confirmation_pending` (the PSP accepted the transfer but does not show it yet), or the PSP error's code (`timeout`, `psp_unavailable`, `host_unreachable`, `invalid_client_credentials`, ...)",
    }),
    message: z.string().meta({ description: "Why, in Portuguese, for the merchant" }),
    since: isoDate("Waiting for this reason since"),
    failsAt: z.string().nullable().meta({
      description: "ISO 8601: when the cash-out will be failed (amount and fee back to available) if nothing changes; null: it is never failed on this ground",
    }),
    mayHaveReachedPsp: z.boolean().meta({ description: "An attempt may have reached the PSP: the transfer may still be made there, so it is not returned automatically" }),
  })
  .meta({ id: "CashOutWaiting" });

export const CashOutSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(CASH_OUT_STATUSES),
    amount: centavos("Amount sent"),
    fee: centavos("Cash-out fee"),
    pixKey: z.string(),
    pixKeyType: z.enum(PIX_KEY_TYPES),
    source: z.enum(CASH_OUT_SOURCES).meta({
      description: "Which money it sends: `arara` (the available balance, sent by Arara's payouts) or `psp` (availableAtPsp, sent from your own PSP account by Efí's Pix Envio)",
    }),
    description: z.string().nullable(),
    externalRef: z.string().nullable(),
    end2endId: z.string().nullable().meta({ description: "End-to-end id, once completed" }),
    failReason: z.string().nullable(),
    createdAt: isoDate("Request time"),
    completedAt: z.string().nullable().meta({ description: "ISO 8601" }),
    waiting: CashOutWaitingSchema.nullable().optional().meta({
      description: "On the API's reads of a cash-out sent through the merchant's PSP: why it is still pending or processing (null when nothing holds it). Not in webhooks.",
    }),
  })
  .meta({ id: "CashOut" });

export const CashOutListSchema = pageOf(CashOutSchema, "CashOutList");
