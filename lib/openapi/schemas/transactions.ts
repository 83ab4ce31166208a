/** Response schemas of the Transactions aggregate. */
import { z } from "zod";
import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "@/lib/domain/status";
import { CARD_BRANDS } from "@/lib/domain/card/brand";
import { PSP_REFUND_STATUSES } from "@/lib/core/transaction-resource";
import { centavos, DocumentSchema, isoDate, pageOf } from "./common";

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

/** A refund asked of the merchant's own PSP (a devolução of a PIX received through API Pix). */
export const TransactionRefundSchema = z
  .object({
    id: z.number().int().meta({ description: "Refund identifier (its own sequence: not a transaction id)" }),
    amount: centavos("Amount asked of the PSP"),
    status: z.enum(PSP_REFUND_STATUSES).meta({
      description:
        "requested: recorded and held, the PSP not answered yet; processing: accepted by the PSP (EM_PROCESSAMENTO); done: the PSP returned the money (DEVOLVIDO), counted in refundedAmount; failed: the PSP did not make it (NAO_REALIZADO, or refused the request), what it held is available again and nothing was refunded",
    }),
    reason: z.string().nullable().meta({ description: "Why the PSP did not make it, in its words when it gave any (failed only; null otherwise)" }),
    rtrId: z.string().nullable().meta({ description: "The return's end-to-end id (RtrId) at the PSP, once the PSP accepted it: reconcile with your PSP statement by it" }),
    origin: z.enum(["merchant", "psp"]).meta({
      description:
        "merchant: asked through Arara (the API, the dashboard, the return of a payment link's duplicate payment); psp: a return made at the PSP without Arara: by the PSP itself under Banco Central's MED (Mecanismo Especial de Devolução), after a fraud or operational claim, or by you in your PSP's own app or internet banking",
    }),
    natureza: z.string().nullable().meta({
      description:
        "The devolução's natureza at the PSP (API Pix): ORIGINAL for those asked through Arara; MED_FRAUDE, MED_OPERACIONAL or MED_PIX_AUTOMATICO for a return the PSP made (origin psp); ORIGINAL, or null when the PSP gave none, for one made in your PSP's own app (origin psp)",
    }),
    motivo: z.string().nullable().meta({
      description: "The PSP's reason for a return made without Arara, in its words when it gave any: one line, at most 140 characters (origin psp only; null otherwise)",
    }),
    createdAt: isoDate("When it was asked"),
    updatedAt: isoDate("Its last change"),
  })
  .meta({ id: "TransactionRefund" });

export const TransactionStatusSchema = z.enum(TRANSACTION_STATUSES).meta({ id: "TransactionStatus" });
export const PaymentMethodSchema = z.enum(PAYMENT_METHODS).meta({ id: "PaymentMethod" });

export const FeeSchema = z
  .object({
    netAmount: centavos("What the payer was charged less estimatedFee (amount - estimatedFee; paidAmount - estimatedFee for a card in installments with interest), the merchant's credit; 0 for a refused card (it brought nothing)"),
    fixedAmount: centavos("Fixed part of the fee, as the plan sets it; 0 for a refused card"),
    estimatedFee: centavos("Whole fee charged: fixed part plus percentage, never more than the amount (a boleto of 100 centavos: 100, with fixedAmount 349 and netAmount 0); 0 for a refused card, which was charged nothing"),
  })
  .meta({ id: "Fee", description: "The fee of a charge from your plan, on reads, lists and notifications (the creation answer's `fees` is its estimatedFee)" });

export const transactionFields = {
  id: z.number().int().meta({ description: "Transaction identifier" }),
  status: TransactionStatusSchema,
  amount: centavos("Total amount"),
  companyId: z.number().int().meta({ description: "Your account" }),
  installments: z.number().int().meta({ description: "Installments (card); 1 otherwise" }),
  paidAmount: centavos("Amount paid; on a card paid in installments with interest, the total the card was charged (amount plus the interest)"),
  refundedAmount: centavos("Amount refunded"),
  refunds: z
    .array(TransactionRefundSchema)
    .optional()
    .meta({
      description:
        "PIX received through your own PSP (acquirerType `api-pix`) only: each refund asked of that PSP, oldest first. Such a refund is answered by the PSP after the request: while it is requested or processing its amount is in pendingRefundAmount (not yet in refundedAmount, the transaction still `paid`); done adds it to refundedAmount; failed says why in `reason`. Absent on every other transaction, whose refunds are immediate (refundedAmount)",
    }),
  pendingRefundAmount: centavos(
    "PIX received through your own PSP only (with `refunds`): what its refunds still open at the PSP (requested, processing) hold; it is not refundable again until the PSP answers",
  ).optional(),
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
  fee: FeeSchema,
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
    digitableLine: z.string().meta({
      description:
        "The slip's line of 47 digits, formatted as printed, with dots and spaces (54 characters): strip every non-digit for the digits only",
      example: "00190.00009 01234.567004 00001.001171 6 16470000015900",
    }),
    dueDate: z.string().nullable().optional().meta({ description: "YYYY-MM-DD" }),
  })
  .meta({ id: "Boleto" });

export const CreatedTransactionSchema = z
  .object({
    ...transactionFields,
    fees: centavos("Fee from your plan (fixed part plus percentage), never more than the amount (a boleto of 100 centavos has fees 100, not the flat 349); 0 for a refused card, which was charged nothing").optional(),
    postbackUrl: z.string().nullable().optional().meta({ description: "Echo of the webhook URL" }),
    returnUrl: z.string().nullable().optional().meta({ description: "Echo of the URL the checkout's last screen returns to" }),
    card: CardSummarySchema.optional().meta({ description: "Card only" }),
    boleto: BoletoSchema.optional().meta({ description: "Boleto only" }),
  })
  .meta({ id: "CreatedTransaction", description: "The creation response: the Transaction plus fees, card, boleto and postbackUrl" });

export const TransactionListSchema = pageOf(TransactionSchema, "TransactionList");
