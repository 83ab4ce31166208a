/** Response schemas of the Transactions aggregate. */
import { z } from "zod";
import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "@/lib/domain/status";
import { CARD_BRANDS } from "@/lib/domain/card/brand";
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

export const TransactionStatusSchema = z.enum(TRANSACTION_STATUSES).meta({ id: "TransactionStatus" });
export const PaymentMethodSchema = z.enum(PAYMENT_METHODS).meta({ id: "PaymentMethod" });

const transactionFields = {
  id: z.number().int().meta({ description: "Transaction identifier" }),
  status: TransactionStatusSchema,
  amount: centavos("Total amount"),
  companyId: z.number().int().meta({ description: "Your account" }),
  installments: z.number().int().meta({ description: "Installments (card); 1 otherwise" }),
  paidAmount: centavos("Amount paid; on a card paid in installments with interest, the total the card was charged (amount plus the interest)"),
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

export const TransactionListSchema = pageOf(TransactionSchema, "TransactionList");
