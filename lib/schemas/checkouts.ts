/**
 * Payment links (checkouts): a hosted page where the payer chooses PIX, boleto or card. The same
 * schemas validate requests and describe them in the API reference (`.meta`).
 */
import { z } from "zod";
import { PAYMENT_METHODS } from "@/lib/domain/status";
import { MAX_INSTALLMENTS } from "@/lib/domain/fees";
import { PageQuery } from "@/lib/core/pagination";
import { MAX_YEAR, MIN_YEAR } from "@/lib/domain/iso-date";
import { centavos, httpUrl, need } from "./fields";
import { commaList, isoDateString } from "./query";
import { InstallmentPlanField, METADATA_MAX_LENGTH, storedMetadata } from "./transactions";

export const CheckoutItem = z
  .object({
    title: z.string(need("a string")).trim().min(1, "is required").max(200, "must have at most 200 characters").meta({ description: "Item name shown to the payer" }),
    unitPrice: centavos("Unit price"),
    quantity: z.number(need("a whole number")).int("must be a whole number").min(1, "must be at least 1").max(10_000, "must be at most 10000").default(1).meta({ description: "Quantity; default 1" }),
    tangible: z.boolean(need("true or false")).default(false).meta({ description: "true for physical goods; default false" }),
  })
  .meta({ id: "CheckoutItem" });

const method = z
  .string(need(`one of: ${PAYMENT_METHODS.join(", ")}`))
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.enum(PAYMENT_METHODS, { error: `must be one of: ${PAYMENT_METHODS.join(", ")}` }));

export const CreateCheckoutInput = z
  .object({
    amount: centavos("Total the payer pays").optional(),
    items: z.array(CheckoutItem, need("a list of items")).min(1, "must have at least 1 item").max(100, "must have at most 100 items").optional().meta({
      description: "What is being paid for. When absent, one item titled with `description` (or \"Pagamento\") for `amount`.",
    }),
    description: z.string(need("a string")).trim().max(500, "must have at most 500 characters").optional().meta({ description: "Shown on the page under the merchant's name" }),
    methods: z
      .array(method, need("a list of methods"))
      .min(1, "must list at least one method")
      .optional()
      .meta({ description: "Methods the payer may choose: pix, boleto, credit_card (any case). Default: all three." }),
    expiresAt: isoDateString(
      `must be an ISO 8601 date-time (2026-01-31T23:59:59-03:00), a real calendar day in years ${MIN_YEAR} to ${MAX_YEAR}`,
    )
      .optional()
      .meta({ description: "When the link stops accepting payments (ISO 8601). Not with expiresInDays." }),
    expiresInDays: z
      .number(need("a whole number of days"))
      .int("must be a whole number of days")
      .min(1, "must be from 1 to 365")
      .max(365, "must be from 1 to 365")
      .optional()
      .meta({ description: "Days from now until the link expires, 1 to 365. Default: no expiry." }),
    externalRef: z.string(need("a string")).trim().max(200, "must have at most 200 characters").optional().meta({
      description: "Your own identifier; copied to every transaction made from the link",
    }),
    postbackUrl: httpUrl.optional().meta({ description: "Receives the webhooks of the link's transactions" }),
    returnUrl: httpUrl.optional().meta({ description: "Your store's page the link's last screen returns the payer to; copied to its transactions" }),
    metadata: z
      .union([z.string(), z.record(z.string(), z.unknown())], need("a string or an object"))
      .transform(storedMetadata)
      .refine((m) => m.text.length <= METADATA_MAX_LENGTH, `must have at most ${METADATA_MAX_LENGTH} characters`)
      .optional()
      .meta({
        description:
          "Free text (an object is stored as its JSON); copied to the link's transactions. /api/v1 returns it as a string; /v1 as it was sent (an object as that object)",
      }),
    installmentPlan: InstallmentPlanField.optional().meta({
      description: "The link's card installment plan, overriding the account's (see InstallmentPlan); applies to every card charge made from the link",
    }),
  })
  .superRefine((v, ctx) => {
    if (v.amount === undefined && v.items === undefined) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "is required when items are not given" });
    }
    if (v.expiresAt !== undefined && v.expiresInDays !== undefined) {
      ctx.addIssue({ code: "custom", path: ["expiresAt"], message: "cannot be sent together with expiresInDays" });
    }
  })
  .meta({ id: "CreateCheckout", description: "A payment link" });
export type CreateCheckoutInput = z.input<typeof CreateCheckoutInput>;

export const ListCheckoutsQuery = PageQuery.extend({
  status: commaList(["open", "paid", "expired"] as const)
    .optional()
    .meta({ description: "open, paid, expired (comma list)" }),
  externalRef: z.string().max(200).optional(),
});
export type ListCheckoutsQuery = z.output<typeof ListCheckoutsQuery>;

/** The payer's details entered on a payment link's page. */
export const CheckoutPayerInput = z.object({
  name: z
    .string(need("a string"))
    .trim()
    .min(1, "is required")
    .max(120, "must have at most 120 characters")
    .refine((s) => /\S+\s+\S+/.test(s), { message: "must have first and last name" }),
  email: z.string(need("an e-mail address")).trim().toLowerCase().pipe(z.email("must be a valid e-mail address")),
  document: z.string(need("a CPF or CNPJ")).trim().min(1, "is required").max(30, "must have at most 30 characters"),
});

/** Body of POST /checkout/{secureId}/pay. Card data never comes here: only the token from /api/v1/card-token. */
export const CheckoutPayInput = z.object({
  method: method.optional(),
  /**
   * The page's attempt key: random, made by the payer's browser and kept by it (localStorage). The same
   * PIX or boleto asked again with it (the answer lost, a double tap, Reload) is the charge already made.
   */
  attempt: z
    .string(need("a string"))
    .regex(/^[A-Za-z0-9_-]{22,64}$/, "must be 22 to 64 letters, digits, - or _")
    .optional(),
  payer: CheckoutPayerInput.optional(),
  cardToken: z.string(need("the token from /api/v1/card-token")).trim().min(1, "is required").max(4000, "must have at most 4000 characters").optional(),
  installments: z
    .union([z.number(), z.string().regex(/^\d+$/, `must be a whole number from 1 to ${MAX_INSTALLMENTS}`)], need(`a whole number from 1 to ${MAX_INSTALLMENTS}`))
    .transform(Number)
    .pipe(
      z
        .number()
        .int(`must be a whole number from 1 to ${MAX_INSTALLMENTS}`)
        .min(1, `must be a whole number from 1 to ${MAX_INSTALLMENTS}`)
        .max(MAX_INSTALLMENTS, `must be a whole number from 1 to ${MAX_INSTALLMENTS}`),
    )
    .default(1),
});
export type CheckoutPayInput = z.input<typeof CheckoutPayInput>;
