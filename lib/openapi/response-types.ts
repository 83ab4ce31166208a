import type { z } from "zod";
import type { CashOutResource } from "@/lib/services/cash-outs/cash-out-view";
import type { CheckoutResource } from "@/lib/services/checkouts/checkout-view";
import type { PspRefundView, TransactionResource } from "@/lib/services/transactions/transaction-view";
import type { webhookAttemptView, webhookEventView } from "@/lib/services/webhooks/webhook-view";
import type { CashOutSchema, CheckoutSchema, TransactionRefundSchema, TransactionSchema, WebhookAttemptSchema, WebhookEventSchema } from "./components";

/**
 * The response mappers checked against the zod schemas that feed the OpenAPI document: a field a
 * mapper adds, drops or retypes without the schema (or the other way round) fails `tsc`, not one
 * runtime test. `Fits<M, S>` compiles only when what the mapper returns is what the schema says,
 * both ways (no field missing on either side, same types and nullability). Statuses and other enums
 * are compared as strings: the rows hold them as text, and the schema lists the values.
 */
export type Widen<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Widen<U>[]
    : T extends object
      ? { [K in keyof T]: Widen<T[K]> }
      : T;
export type Fits<Mapper extends Widen<Schema>, Schema> = Mapper;
export type Covers<Schema extends Widen<Mapper>, Mapper> = Schema;

export type CheckedResponses = [
  Fits<TransactionResource, z.input<typeof TransactionSchema>>,
  Covers<Widen<z.input<typeof TransactionSchema>>, TransactionResource>,
  Fits<PspRefundView, z.input<typeof TransactionRefundSchema>>,
  Covers<Widen<z.input<typeof TransactionRefundSchema>>, PspRefundView>,
  Fits<CashOutResource, z.input<typeof CashOutSchema>>,
  Covers<Widen<z.input<typeof CashOutSchema>>, CashOutResource>,
  Fits<CheckoutResource, z.input<typeof CheckoutSchema>>,
  Covers<Widen<z.input<typeof CheckoutSchema>>, CheckoutResource>,
  Fits<ReturnType<typeof webhookAttemptView>, z.input<typeof WebhookAttemptSchema>>,
  Covers<Widen<z.input<typeof WebhookAttemptSchema>>, ReturnType<typeof webhookAttemptView>>,
  Fits<ReturnType<typeof webhookEventView>, z.input<typeof WebhookEventSchema>>,
  Covers<Widen<z.input<typeof WebhookEventSchema>>, ReturnType<typeof webhookEventView>>,
];
