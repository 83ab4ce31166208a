import { z } from "zod";

export const DELIVERY_STATUSES = ["waiting", "in_transit", "delivered"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** PUT /api/v1/transactions/{id}/delivery */
export const UpdateDeliveryRequest = z
  .object({
    status: z
      .preprocess(
        (v) => (typeof v === "string" ? v.trim().toLowerCase().replace(/[\s-]/g, "_") : v),
        z.enum(DELIVERY_STATUSES, {
          error: (i) => (i.input === undefined ? "is required" : `must be one of: ${DELIVERY_STATUSES.join(", ")}`),
        }),
      )
      .meta({ description: "waiting, in_transit or delivered (any case)" }),
    trackingCode: z
      .union([z.string(), z.number()], { error: "must be a string" })
      .transform((v) => String(v).trim())
      .pipe(z.string().max(100, "must have at most 100 characters"))
      .nullish()
      .meta({ description: "Carrier tracking code; left unchanged when absent, removed when null or empty" }),
  })
  .meta({ id: "UpdateDelivery", description: "Delivery status of a transaction's goods" });
export type UpdateDeliveryRequest = z.output<typeof UpdateDeliveryRequest>;
