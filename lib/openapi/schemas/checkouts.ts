/** Response schemas of the Checkouts aggregate (payment links). */
import { z } from "zod";
import { PAYMENT_METHODS } from "@/lib/domain/status";
import { centavos, isoDate, pageOf } from "./common";

export const CheckoutSchema = z
  .object({
    id: z.number().int(),
    secureId: z.string().meta({ format: "uuid" }),
    secureUrl: z.string().meta({ description: "The hosted page to send the payer to", format: "uri" }),
    status: z.enum(["open", "paid", "expired"]).meta({ description: "paid once a transaction made from it is paid; expired after expiresAt" }),
    amount: centavos("Total"),
    description: z.string().nullable(),
    items: z.array(z.object({ title: z.string(), unitPrice: z.number().int(), quantity: z.number().int(), tangible: z.boolean() })),
    methods: z.array(z.enum(PAYMENT_METHODS)),
    externalRef: z.string().nullable(),
    postbackUrl: z.string().nullable(),
    returnUrl: z.string().nullable().meta({ description: "Where the last screen returns the payer to" }),
    installmentPlan: z
      .object({ maxInstallments: z.number().int(), interestFree: z.number().int(), monthlyRateBp: z.number().int() })
      .nullable()
      .meta({ description: "The link's own card installment plan (see InstallmentPlan); null: the account's plan applies" }),
    metadata: z.string().nullable(),
    transactionId: z.number().int().nullable().meta({ description: "The paid transaction made from the link" }),
    expiresAt: z.string().nullable(),
    createdAt: isoDate("Creation time"),
  })
  .meta({ id: "Checkout", description: "A payment link" });

export const CheckoutListSchema = pageOf(CheckoutSchema, "CheckoutList");
