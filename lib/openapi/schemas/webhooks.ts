/** Response schemas of the Webhooks aggregate: events and attempts, and the notification bodies. */
import { z } from "zod";
import { CardSummarySchema, FeeSchema, PaymentMethodSchema, TransactionRefundSchema, TransactionStatusSchema, transactionFields } from "./transactions";
import { CashOutSchema } from "./cash-outs";
import { centavos, DocumentSchema, isoDate } from "./common";

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
    type: z.enum(["transaction", "cash_out", "refund"]).meta({
      description: "transaction: a status change; refund: a refund at your own PSP reached its end (listed with its transaction's events); cash_out",
    }),
    status: z.string().meta({ description: "Event kind (data.status): for a refund event, the refund's status (done, failed)" }),
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
      .object({
        id: z.number().int().meta({ description: "The notification id (the event's `id`, the webhook-id header)" }),
        type: z.enum(["transaction", "cash_out", "refund"]),
        objectId: z.string().optional().meta({
          description:
            "Only on the events of a transaction created through /v1, which are POSTed in the family's shape `{ id, type, objectId, url, data }`: the transaction's id as text (for a `refund` event, the refund's id). Absent on the contract's body (transactions created through /api/v1, and every cash-out)",
        }),
        url: z.string().nullable().meta({ description: "The postbackUrl; null when there was none (the event is `skipped`)" }),
        data: z.record(z.string(), z.unknown()).meta({
          description:
            "The event's data: for /api/v1 transactions TransactionEventData, for `refund` events RefundEventData, for cash-outs the CashOut; for transactions created through /v1 the transaction as /v1 returns it (see the webhooks of the /v1 dialect)",
        }),
      })
      .meta({ description: "Exactly what is POSTed: the contract's `{ id, type, url, data }`, or for an event of a transaction created through /v1 the family's `{ id, type, objectId, url, data }`" }),
    attempts: z.array(WebhookAttemptSchema),
  })
  .meta({ id: "WebhookEvent" });

export const RedeliverySchema = WebhookEventSchema.extend({
  delivered: z.boolean().meta({ description: "Whether this manual attempt got a 2xx" }),
}).meta({ id: "WebhookRedelivery" });

export const TransactionEventDataSchema = z
  .object({
    id: z.number().int().meta({ description: "Transaction id (deduplicate on it, keep the last status)" }),
    status: TransactionStatusSchema.meta({ description: "Event kind: a card approval is sent as `approved`" }),
    amount: centavos("Amount"),
    paidAmount: centavos("Amount paid; on a card paid in installments with interest, the total the card was charged (amount plus the interest)"),
    refundedAmount: centavos("Amount refunded"),
    refunds: z
      .array(TransactionRefundSchema)
      .optional()
      .meta({ description: "PIX received through your own PSP only: its refunds at the PSP as they stood at this event (see the Transaction)" }),
    pendingRefundAmount: centavos("PIX received through your own PSP only: what its refunds still open at the PSP hold").optional(),
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

export const RefundEventDataSchema = TransactionRefundSchema.extend({
  status: z.enum(["done", "failed"]).meta({
    description: "How it ended: done, the PSP returned the money to the payer (DEVOLVIDO); failed, it did not (NAO_REALIZADO or refused), and what it held is available again",
  }),
  transactionId: z.number().int().meta({ description: "The transaction refunded" }),
  // The Transaction's fields, in a schema of its own: a notification is a request body in the
  // document (read as input), and sharing the response's Transaction would split it in two.
  transaction: z.object(transactionFields).meta({
    id: "RefundEventTransaction",
    description:
      "The transaction after the change, as GET /transactions/{id} shows it (the Transaction resource): its own status, e.g. still `paid` after a failure, never an event kind",
  }),
}).meta({ id: "RefundEventData" });

export const RefundNotificationSchema = z
  .object({
    id: z.number().int().meta({ description: "Notification id, unique per event; equal to the webhook-id header" }),
    type: z.literal("refund"),
    url: z.string().meta({ description: "The transaction's postbackUrl" }),
    data: RefundEventDataSchema,
  })
  .meta({ id: "RefundNotification" });

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
