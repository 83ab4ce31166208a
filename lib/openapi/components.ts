/**
 * Schemas of what the API returns, for the reference only (requests are described by the same zod
 * schemas that validate them, imported from lib/schemas and the services). Each is checked against
 * real responses by tests/integration/openapi-conformance.test.ts, so the reference cannot drift
 * from what the handlers send.
 */
import { z } from "zod";
import { STATUS_BY_CODE } from "@/lib/http/errors";
import type { ErrorCode } from "@/lib/services/errors";
import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "@/lib/domain/status";
import { CASH_OUT_STATUSES } from "@/lib/domain/cash-out";
import { PIX_KEY_TYPES } from "@/lib/domain/pix/keys";
import { CARD_BRANDS } from "@/lib/domain/card/brand";
import { ENTRY_TYPES } from "@/lib/domain/ledger";
import { STATEMENT_ACCOUNTS } from "@/lib/schemas/money";

export const ERROR_CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];

const centavos = (description: string) => z.number().int().meta({ description: `${description}, in centavos` });
const isoDate = (description: string) => z.string().meta({ description: `${description} (ISO 8601)`, format: "date-time" });

export const FieldErrorSchema = z
  .object({
    field: z.string().meta({ description: "Dotted path of the field, e.g. customer.document.number; `body` for the whole body" }),
    message: z.string().meta({ description: "What is wrong with it, in one phrase" }),
  })
  .meta({ id: "FieldError" });

export const ErrorBodySchema = z
  .object({
    success: z.literal(false),
    status: z.number().int().meta({ description: "The HTTP status, repeated" }),
    message: z.string().meta({ description: "One readable sentence" }),
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]).meta({
      description: ERROR_CODES.map((c) => `${c} (${STATUS_BY_CODE[c]})`).join(", "),
    }),
    errors: z.array(FieldErrorSchema).optional().meta({ description: "Field-level problems (validation errors)" }),
    requestId: z.string().optional().meta({ description: "Quote it to support; also in the X-Request-Id header" }),
  })
  .meta({
    id: "Error",
    description: "Every error of the API has this body; `code` is stable, `message` is for people.",
    example: {
      success: false,
      status: 400,
      message: "The request is invalid: customer.document.number is not a valid CPF.",
      code: "validation_error",
      errors: [{ field: "customer.document.number", message: "is not a valid CPF" }],
      requestId: "0f8e4bd6-0c61-4b0f-8d0a-6ad1a3a5d0f1",
    },
  });

/** The spec's success envelope around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T, opts: { id: string; message?: boolean; status: number; description?: string }) {
  return z
    .object({
      success: z.literal(true),
      ...(opts.message ? { message: z.string().meta({ description: "States what was done (present on creation)" }) } : {}),
      status: z.literal(opts.status).meta({ description: "The HTTP status, repeated" }),
      data,
    })
    .meta({ id: opts.id, ...(opts.description ? { description: opts.description } : {}) });
}

export const PaginationSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().meta({ description: "Rows matching the filters, counted up to 1000 (see totalCapped)" }),
    totalPages: z.number().int(),
    totalCapped: z.literal(true).optional().meta({ description: "Present when more rows match than the count's cap: total is then the cap, a floor" }),
    nextCursor: z.string().nullable().optional().meta({ description: "With the cursor parameter only: the next page's cursor, null on the last page" }),
  })
  .meta({ id: "Pagination" });

const DocumentSchema = z
  .object({
    type: z.enum(["cpf", "cnpj"]),
    number: z.string().meta({ description: "Digits only (the alphanumeric CNPJ keeps its letters)" }),
  });

export const CustomerSchema = z
  .object({
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable().meta({ description: "Digits only" }),
    externalRef: z.string().nullable(),
    document: DocumentSchema,
  })
  .meta({ id: "TransactionCustomer" });

const AddressSchema = z
  .object({
    street: z.string().nullable().optional(),
    streetNumber: z.string().nullable().optional(),
    complement: z.string().nullable().optional(),
    zipCode: z.string().nullable().optional(),
    neighborhood: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    state: z.string().nullable().optional(),
    country: z.string().nullable().optional(),
  })
  .meta({ id: "ShippingAddress" });

export const ShippingSchema = z
  .object({
    fee: z.number().int().nullable().meta({ description: "Freight, in centavos" }),
    address: AddressSchema.nullable(),
    deliveryStatus: z.enum(["waiting", "in_transit", "delivered"]).nullable(),
    trackingCode: z.string().nullable(),
  })
  .meta({ id: "TransactionShipping" });

const TransactionStatusSchema = z.enum(TRANSACTION_STATUSES).meta({ id: "TransactionStatus" });
const PaymentMethodSchema = z.enum(PAYMENT_METHODS).meta({ id: "PaymentMethod" });

const transactionFields = {
  id: z.number().int().meta({ description: "Transaction identifier" }),
  status: TransactionStatusSchema,
  amount: centavos("Total amount"),
  companyId: z.number().int().meta({ description: "Your account" }),
  installments: z.number().int().meta({ description: "Installments (card); 1 otherwise" }),
  paidAmount: centavos("Amount paid"),
  refundedAmount: centavos("Amount refunded"),
  paymentMethod: PaymentMethodSchema,
  metadata: z.string().nullable().meta({ description: "As sent at creation (an object comes back as its JSON text)" }),
  acquirerType: z.string().meta({ description: "The processor that handled it: `sandbox` for the built-in one" }),
  secureId: z.string().meta({ description: "Hosted checkout identifier (UUID)", format: "uuid" }),
  secureUrl: z.string().meta({ description: "Hosted checkout page: {checkout_url}/checkout/{secureId}", format: "uri" }),
  externalId: z.string().nullable().meta({ description: "The `externalRef` sent at creation" }),
  customer: CustomerSchema,
  shipping: ShippingSchema.nullable(),
  traceable: z.boolean(),
  pix: z
    .object({
      qrcode: z.string().meta({ description: "BR Code (EMV copy-and-paste payload)" }),
      expirationDate: z.string().nullable().meta({ description: "ISO 8601" }),
      end2end: z.string().nullable().meta({ description: "End-to-end id, once paid" }),
    })
    .optional()
    .meta({ description: "PIX only" }),
  refusedReason: z
    .enum(["card_declined", "insufficient_funds", "expired_card", "processing_error"])
    .optional()
    .meta({ description: "Refused cards only" }),
  paidAt: z.string().nullable().meta({ description: "ISO 8601" }),
  createdAt: isoDate("Creation time"),
};

export const TransactionSchema = z.object(transactionFields).meta({
  id: "Transaction",
  description: "The spec's Transaction resource, as the read and list endpoints return it. Boleto data is not on read.",
});

export const CardSummarySchema = z
  .object({
    brand: z.enum(CARD_BRANDS).nullable().optional(),
    holderName: z.string().nullable(),
    firstDigits: z.string().nullable(),
    lastDigits: z.string().nullable(),
    expirationMonth: z.string().nullable(),
    expirationYear: z.string().nullable(),
  })
  .meta({ id: "CardSummary", description: "Never the full number or the CVV" });

export const BoletoSchema = z
  .object({
    url: z.string().meta({ description: "PDF of the slip", format: "uri" }),
    barcode: z.string().meta({ description: "44-digit FEBRABAN barcode" }),
    digitableLine: z.string().meta({ description: "47-digit line" }),
    dueDate: z.string().nullable().optional().meta({ description: "YYYY-MM-DD" }),
  })
  .meta({ id: "Boleto" });

export const CreatedTransactionSchema = z
  .object({
    ...transactionFields,
    fees: centavos("Fee from your plan").optional(),
    postbackUrl: z.string().nullable().optional().meta({ description: "Echo of the webhook URL" }),
    returnUrl: z.string().nullable().optional().meta({ description: "Echo of the URL the checkout's last screen returns to" }),
    card: CardSummarySchema.optional().meta({ description: "Card only" }),
    boleto: BoletoSchema.optional().meta({ description: "Boleto only" }),
  })
  .meta({ id: "CreatedTransaction", description: "The creation response: the Transaction plus fees, card, boleto and postbackUrl" });

export const TransactionListSchema = z
  .object({ data: z.array(TransactionSchema), pagination: PaginationSchema })
  .meta({ id: "TransactionList" });

export const CompanySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    document: z.string(),
    documentType: z.enum(["cpf", "cnpj"]),
    email: z.string(),
    pixKey: z.string().nullable(),
    pixKeyType: z.string().nullable(),
    publicKey: z.string().meta({ description: "pk_test_... (safe to expose in browsers)" }),
    feePlan: z
      .object({
        pix: z.object({ percentBp: z.number().int(), fixed: z.number().int() }),
        card: z.object({ percentBp: z.number().int(), fixed: z.number().int(), perExtraInstallmentBp: z.number().int() }),
        boleto: z.object({ percentBp: z.number().int(), fixed: z.number().int() }),
        cashOut: z.object({ fixed: z.number().int() }),
      })
      .meta({ description: "Rates in basis points (399 = 3.99%), fixed parts in centavos" }),
    createdAt: isoDate("Creation time"),
  })
  .meta({ id: "Company" });

export const BalanceSchema = z
  .object({
    available: centavos("Can be cashed out now"),
    waitingFunds: centavos("Card funds before settlement"),
    reserved: centavos("Held for cash-outs in progress"),
    total: centavos("available + waitingFunds + reserved"),
  })
  .meta({ id: "Balance" });

export const StatementEntrySchema = z
  .object({
    id: z.number().int(),
    type: z.enum(ENTRY_TYPES),
    account: z.enum(STATEMENT_ACCOUNTS).meta({ description: "Ledger account of the entry: available or waiting_funds (card sales before settlement)" }),
    amount: z.number().int().meta({ description: "Signed, in centavos (negative: debit)" }),
    balanceAfter: z.number().int().meta({ description: "That account's balance after this entry, in centavos" }),
    transactionId: z.number().int().nullable(),
    cashOutId: z.number().int().nullable(),
    description: z.string(),
    createdAt: isoDate("When"),
  })
  .meta({ id: "StatementEntry" });

export const StatementPageSchema = z
  .object({
    data: z.array(StatementEntrySchema).meta({ description: "Newest first" }),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page" }),
  })
  .meta({ id: "StatementPage" });

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

export const CashOutListSchema = z.object({ data: z.array(CashOutSchema), pagination: PaginationSchema }).meta({ id: "CashOutList" });

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
    metadata: z.string().nullable(),
    transactionId: z.number().int().nullable().meta({ description: "The paid transaction made from the link" }),
    expiresAt: z.string().nullable(),
    createdAt: isoDate("Creation time"),
  })
  .meta({ id: "Checkout", description: "A payment link" });

export const CheckoutListSchema = z.object({ data: z.array(CheckoutSchema), pagination: PaginationSchema }).meta({ id: "CheckoutList" });

export const WebhookAttemptSchema = z
  .object({
    number: z.number().int(),
    manual: z.boolean().meta({ description: "true for a redelivery or a skip asked for by hand" }),
    kind: z.enum(["delivery", "skip"]).meta({
      description: "`delivery`: an HTTP attempt. `skip`: the event was given up (POST /webhooks/{eventId}/skip); no request was sent, and `number` is the count of attempts before it",
    }),
    url: z.string(),
    success: z.boolean(),
    httpStatus: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable(),
    createdAt: isoDate("When"),
  })
  .meta({ id: "WebhookAttempt" });

export const WebhookEventSchema = z
  .object({
    id: z.number().int().meta({ description: "Notification id (the webhook-id header)" }),
    type: z.enum(["transaction", "cash_out"]),
    status: z.string().meta({ description: "Event kind (data.status)" }),
    transactionId: z.number().int().nullable(),
    cashOutId: z.number().int().nullable(),
    url: z.string().nullable().meta({ description: "null when there was no postbackUrl (kept for the timeline)" }),
    deliveryState: z.enum(["pending", "succeeded", "failed", "skipped", "abandoned"]).meta({
      description:
        "pending: waiting for its next attempt or for an earlier event; succeeded; failed: the retry schedule ran out; skipped: no postbackUrl, never sent; abandoned: given up with POST /webhooks/{eventId}/skip",
    }),
    attemptCount: z.number().int().meta({ description: "HTTP attempts made (skips are not attempts)" }),
    nextAttemptAt: z.string().nullable().meta({
      description: "When the next automatic attempt is due; null when none is scheduled, or when the event waits for an earlier one (see waitingForEventId)",
    }),
    waitingForEventId: z.number().int().nullable().meta({
      description:
        "The earlier pending event of the same transaction this one waits for (events are delivered in order); it is sent right after that one is delivered, fails for good or is skipped",
    }),
    lastAttemptAt: z.string().nullable(),
    createdAt: isoDate("When the change happened"),
    body: z
      .object({ id: z.number().int(), type: z.string(), url: z.string().nullable(), data: z.record(z.string(), z.unknown()) })
      .meta({ description: "Exactly what is POSTed" }),
    attempts: z.array(WebhookAttemptSchema),
  })
  .meta({ id: "WebhookEvent" });

export const RedeliverySchema = WebhookEventSchema.extend({
  delivered: z.boolean().meta({ description: "Whether this manual attempt got a 2xx" }),
}).meta({ id: "WebhookRedelivery" });

export const HealthSchema = z
  .object({ status: z.enum(["ok", "degraded"]), database: z.enum(["pglite", "postgres"]) })
  .meta({ id: "Health" });

const FeeSchema = z
  .object({
    netAmount: centavos("amount - estimatedFee"),
    fixedAmount: centavos("Fixed part of the fee"),
    estimatedFee: centavos("Whole fee"),
  })
  .meta({ id: "WebhookFee" });

export const TransactionEventDataSchema = z
  .object({
    id: z.number().int().meta({ description: "Transaction id (deduplicate on it, keep the last status)" }),
    status: TransactionStatusSchema.meta({ description: "Event kind: a card approval is sent as `approved`" }),
    amount: centavos("Amount"),
    paidAmount: centavos("Amount paid"),
    refundedAmount: centavos("Amount refunded"),
    paidAt: z.string().nullable(),
    paymentMethod: PaymentMethodSchema,
    installments: z.number().int(),
    externalRef: z.string().nullable(),
    secureId: z.string(),
    fee: FeeSchema,
    pix: z.object({ qrcode: z.string().nullable(), end2end: z.string().nullable() }).optional().meta({ description: "PIX only" }),
    boleto: z
      .object({ url: z.string(), barcode: z.string().nullable(), digitableLine: z.string().nullable() })
      .optional()
      .meta({ description: "Boleto only" }),
    card: CardSummarySchema.optional().meta({ description: "Card only" }),
    refusedReason: z.string().optional(),
    customer: z.object({ name: z.string(), email: z.string(), document: DocumentSchema }),
    metadata: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "TransactionEventData" });

export const TransactionNotificationSchema = z
  .object({
    id: z.number().int().meta({ description: "Notification id, unique per event; equal to the webhook-id header" }),
    type: z.literal("transaction"),
    url: z.string().meta({ description: "The postbackUrl used" }),
    data: TransactionEventDataSchema,
  })
  .meta({ id: "TransactionNotification" });

export const CashOutNotificationSchema = z
  .object({
    id: z.number().int().meta({ description: "Notification id, unique per event; equal to the webhook-id header" }),
    type: z.literal("cash_out"),
    url: z.string(),
    data: CashOutSchema,
  })
  .meta({ id: "CashOutNotification" });

/** Standard Webhooks headers on every notification (https://www.standardwebhooks.com). */
export const WebhookHeadersSchema = z.object({
  "webhook-id": z.string().meta({ description: "The notification id (same as the body's `id`); the same on every retry" }),
  "webhook-timestamp": z.string().meta({ description: "Unix seconds when this attempt was signed" }),
  "webhook-signature": z.string().meta({
    description: "`v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{body}\">` keyed with your whsec_ secret (base64 after the prefix)",
  }),
});
