/**
 * POST /api/v1/transactions: the request as merchants' clients of this gateway family send it.
 * Lenient where those clients differ (docs/api.md, "Create"): unknown fields are
 * ignored, methods and document types in any case, punctuation in phones and documents, numbers as
 * numeric strings for installments and expiry days, metadata as text or an object. The same schema
 * documents the request in the API reference (`.meta`).
 *
 * Rules that tie several fields together (amount against the items, per-method minimums, what a
 * card charge requires) are `transactionRuleErrors` below, so that one response lists every bad
 * field at once rather than only those zod reached before an object-level refinement.
 */
import { z } from "zod";
import { isValidCnpj, isValidCpf, normalizeDocument } from "@/lib/domain/documents";
import { MAX_INSTALLMENTS } from "@/lib/domain/fees";
import { installmentPlanProblem } from "@/lib/domain/installments";
import { PAYMENT_METHODS, type PaymentMethod } from "@/lib/domain/status";
import type { FieldError } from "@/lib/core/errors";
import { centavos, httpUrl, MAX_AMOUNT, need, optionalText } from "./fields";

export const AMOUNT_MAX = MAX_AMOUNT;
/** R$ 1,00 for card and boleto (acquirers and banks refuse less); 1 centavo for PIX. */
export const AMOUNT_MIN: { readonly [M in PaymentMethod]: number } = { pix: 1, boleto: 100, credit_card: 100 };
export const PIX_EXPIRES_IN_DAYS = { min: 1, max: 30, default: 2 } as const;
export const BOLETO_EXPIRES_IN_DAYS = { min: 1, max: 90, default: 2 } as const;

const requiredText = (max: number) =>
  z
    .string(need("a string"))
    .trim()
    .min(1, "is required")
    .max(max, `must have at most ${max} characters`);

/** Longest metadata, as its JSON text for an object. */
export const METADATA_MAX_LENGTH = 10_000;

/**
 * Metadata as it is stored: its text, and whether it was sent as JSON (an object or an array, kept as
 * its JSON text) rather than as a string. /v1 returns it as it was sent (metadataAsSent in
 * lib/core/transaction-resource.ts); /api/v1 returns the text.
 */
export type StoredMetadata = { text: string; isJson: boolean };

export function storedMetadata(m: string | Record<string, unknown> | unknown[]): StoredMetadata {
  return typeof m === "string" ? { text: m, isJson: false } : { text: JSON.stringify(m), isJson: true };
}

const lower = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : v);

/** A whole number sent as a number or a numeric string ("3"); "2.0" or "2x" are refused in words, not by the pattern. */
const wholeNumber = (what: string, min: number, max: number) =>
  z
    .union(
      [
        // The pipe below refuses 2.5 or 0 in words; the document says what it takes.
        z.number().meta({ type: "integer", minimum: min, maximum: max }),
        z.string().trim().regex(/^\d+$/, `must be a whole number from ${min} to ${max}`),
      ],
      need(`a whole number from ${min} to ${max}`),
    )
    .transform(Number)
    .pipe(
      z
        .number()
        .int(`must be a whole number from ${min} to ${max}`)
        .min(min, `must be from ${min} to ${max}`)
        .max(max, `must be from ${min} to ${max}`),
    )
    .meta({ description: what });

/**
 * A charge's (or payment link's) own installment plan, overriding the account's (dashboard,
 * Parcelamento). Every field is required: the override is the whole plan, not a patch.
 */
export const InstallmentPlanField = z
  .object(
    {
      maxInstallments: wholeNumber(`Most installments offered, 1 to ${MAX_INSTALLMENTS}`, 1, MAX_INSTALLMENTS),
      interestFree: wholeNumber(`Installments without interest, 1 to maxInstallments (1 to ${MAX_INSTALLMENTS})`, 1, MAX_INSTALLMENTS),
      monthlyRateBp: wholeNumber(
        "Monthly interest the payer pays beyond interestFree, in basis points (199 = 1.99% a month), 0 to 1000; installments by the Price table, rounded half up to the centavo",
        0,
        1_000,
      ),
    },
    need("an object with maxInstallments, interestFree and monthlyRateBp"),
  )
  .superRefine((p, ctx) => {
    if (p.interestFree > p.maxInstallments) ctx.addIssue({ code: "custom", path: ["interestFree"], message: "must be at most maxInstallments" });
    else if (installmentPlanProblem(p)) ctx.addIssue({ code: "custom", path: [], message: installmentPlanProblem(p)! });
  })
  .meta({
    id: "InstallmentPlan",
    description:
      "Card installments for this charge instead of the account's: up to maxInstallments, the first interestFree without interest, the others at monthlyRateBp a month paid by the payer. Options whose installment is under R$ 5,00 are not offered.",
  });

export const PaymentMethodField = z
  .preprocess(lower, z.enum(PAYMENT_METHODS, need(`one of: ${PAYMENT_METHODS.join(", ")}`)))
  .meta({ description: "pix, credit_card or boleto (any case)" });

const DocumentField = z
  .object(
    {
      type: z.preprocess(lower, z.enum(["cpf", "cnpj"], need("cpf or cnpj"))).meta({ description: "cpf or cnpj (any case)" }),
      number: z
        .union([z.string(), z.number()], need("a string of digits"))
        .transform((v) => normalizeDocument(String(v)))
        .meta({ description: "CPF (11 digits) or CNPJ (14; the alphanumeric CNPJ too); dots, dashes and slashes are removed" }),
    },
    need("an object with type and number"),
  )
  .superRefine((d, ctx) => {
    const ok = d.type === "cpf" ? isValidCpf(d.number) : isValidCnpj(d.number);
    if (!ok) ctx.addIssue({ code: "custom", path: ["number"], message: documentProblem(d.type, d.number) });
  });

/**
 * Why a document number is refused, in words: a wrong length says how long it is (a bare number on
 * /v1 is taken for a CPF up to 11 digits, so "must be a valid CPF" would mislead for 10 digits), a
 * CNPJ's length sent as a CPF (or the other way round) names the type to send; else the check digits.
 */
function documentProblem(type: "cpf" | "cnpj", number: string): string {
  const len = number.length;
  if (len === 0) return "is required";
  const unit = /^\d+$/.test(number) ? (len === 1 ? "digit" : "digits") : len === 1 ? "character" : "characters";
  if (type === "cpf" && len === 14) return `has ${len} ${unit}, a CNPJ's length: send type cnpj for a CNPJ, or the CPF's 11 digits`;
  if (type === "cnpj" && len === 11) return `has ${len} ${unit}, a CPF's length: send type cpf for a CPF, or the CNPJ's 14 characters`;
  if (len !== 11 && len !== 14) return `has ${len} ${unit}, where a CPF has 11 and a CNPJ 14`;
  return type === "cpf" ? "must be a valid CPF (11 digits with valid check digits)" : "must be a valid CNPJ (14 characters with valid check digits)";
}

const PhoneField = z
  .union([z.string(), z.number()], need("a phone number"))
  .transform((v) => String(v).replace(/[\s().+-]/g, ""))
  .pipe(z.string().regex(/^\d{8,15}$/, "must be a phone number of 8 to 15 digits (punctuation is ignored)"))
  .meta({ description: "Phone; punctuation is accepted and removed: (11) 98765-4321 is stored as 11987654321" });

/** Longest customer e-mail (RFC 5321's 64 + 1 + 255, rounded as the family does). */
export const EMAIL_MAX_LENGTH = 320;

export const CustomerField = z
  .object(
    {
      name: requiredText(200).meta({ description: "Full name" }),
      email: z
        .string(need("an e-mail address"))
        .trim()
        .pipe(z.email("must be a valid e-mail address").max(EMAIL_MAX_LENGTH, `must have at most ${EMAIL_MAX_LENGTH} characters`))
        // The pipe's limit, for the document (which shows the input side, before the pipe).
        .meta({ description: "E-mail", format: "email", maxLength: EMAIL_MAX_LENGTH }),
      phone: PhoneField.nullish().transform((v) => v ?? null),
      externalRef: optionalText(200).meta({ description: "Your identifier of the payer" }),
      document: DocumentField,
    },
    need("an object"),
  )
  .meta({ id: "Customer", description: "The payer" });

export const ItemField = z
  .object(
    {
      title: requiredText(256).meta({ description: "Item name" }),
      unitPrice: centavos("Unit price", { min: 0 }),
      quantity: z
        .number(need("a whole number"))
        .int("must be a whole number")
        .min(1, "must be at least 1")
        .max(100_000, "must be at most 100000")
        .meta({ description: "Quantity" }),
      tangible: z.boolean(need("true or false")).meta({ description: "true for physical goods, false for digital goods or services" }),
      externalRef: optionalText(200).meta({ description: "Your identifier of the item" }),
    },
    need("an object"),
  )
  .meta({ id: "Item" });

const addressPart = (max: number, description: string) => optionalText(max).meta({ description });

export const ShippingAddressField = z.object(
  {
    street: addressPart(200, "Street"),
    streetNumber: addressPart(20, "Number"),
    complement: addressPart(200, "Complement"),
    zipCode: optionalText(20)
      .transform((v) => (v ? v.replace(/[\s.-]/g, "") : v))
      .meta({ description: "CEP; punctuation removed" }),
    neighborhood: addressPart(200, "Neighbourhood (bairro)"),
    city: addressPart(200, "City"),
    state: addressPart(50, "State (UF)"),
    country: addressPart(50, "Country"),
  },
  need("an object"),
);

export const ShippingField = z
  .object(
    {
      fee: centavos("Freight, included in amount", { min: 0 }).nullish().transform((v) => v ?? null),
      address: ShippingAddressField.nullish().transform((v) => v ?? null),
    },
    need("an object with fee and address"),
  )
  .meta({ id: "Shipping", description: "Freight and delivery address; all optional, fee an integer when present" });

const expiresInDays = (range: { min: number; max: number; default: number }, what: string) =>
  z
    .object(
      {
        expiresInDays: wholeNumber(
          `${what}, ${range.min} to ${range.max}; default ${range.default}`,
          range.min,
          range.max,
        ).default(range.default),
      },
      need("an object"),
    )
    .nullish()
    .transform((v) => v ?? { expiresInDays: range.default });

export const CreateTransactionRequest = z
  .object({
    paymentMethod: PaymentMethodField,
    amount: centavos(
      `Total. At least ${AMOUNT_MIN.credit_card} for credit_card and boleto, ${AMOUNT_MIN.pix} for pix; must equal the items' total, or the items' total plus shipping.fee`,
    ),
    customer: CustomerField,
    items: z
      .array(ItemField, need("an array of items"))
      .min(1, "must have at least 1 item")
      .max(500, "must have at most 500 items")
      .meta({ description: "At least 1 item" }),
    shipping: ShippingField.nullish().transform((v) => v ?? null),
    externalRef: optionalText(200).meta({ description: "Your identifier; returned as externalId" }),
    postbackUrl: httpUrl
      .nullish()
      .transform((v) => v || null)
      .meta({ description: "Receives a webhook on each status change (http:// or https://); without it, the account's default webhook URL (dashboard, Desenvolvedores), if set" }),
    returnUrl: httpUrl
      .nullish()
      .transform((v) => v || null)
      .meta({ description: "Your store's page the hosted checkout's last screen returns the payer to (http:// or https://)" }),
    metadata: z
      .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], need("a string, an object or an array"))
      .transform(storedMetadata)
      .refine((m) => m.text.length <= METADATA_MAX_LENGTH, `must have at most ${METADATA_MAX_LENGTH} characters (as JSON text)`)
      .nullish()
      .transform((v) => v ?? null)
      .meta({
        description:
          "Free text, or an object or array stored as its JSON text. /api/v1 returns it as a string (an object as its JSON text); /v1 returns it as it was sent (an object as that object, a string as that string)",
      }),
    ip: z
      .union([z.ipv4(), z.ipv6()], need("an IPv4 or IPv6 address"))
      .nullish()
      .transform((v) => v ?? null)
      .meta({ description: "The payer's IP (IPv4 or IPv6); required for credit_card" }),
    installments: wholeNumber(`Card installments, 1 to ${MAX_INSTALLMENTS}; default 1 (credit_card only)`, 1, MAX_INSTALLMENTS)
      .nullish()
      .transform((v) => v ?? 1),
    installmentPlan: InstallmentPlanField.nullish()
      .transform((v) => v ?? null)
      .meta({ description: "credit_card: this charge's installment plan, overriding the account's (see InstallmentPlan)" }),
    pix: expiresInDays(PIX_EXPIRES_IN_DAYS, "Days until the QR code expires").meta({ description: "PIX options" }),
    boleto: expiresInDays(BOLETO_EXPIRES_IN_DAYS, "Days until the due date").meta({ description: "Boleto options" }),
    card: z
      .object(
        { hash: z.string(need("the card token")).trim().min(1, "is required").max(4096, "must have at most 4096 characters").nullish() },
        need("an object with hash"),
      )
      .nullish()
      .transform((v) => ({ hash: v?.hash ?? null }))
      .meta({ description: "credit_card: `hash` is the token from POST /api/v1/card-token (required)" }),
    traceable: z.boolean(need("true or false")).nullish().transform((v) => v ?? false),
  })
  .meta({ id: "CreateTransaction", description: "A charge by PIX, boleto or credit card. Unknown fields are ignored." });

export type CreateTransactionRequest = z.output<typeof CreateTransactionRequest>;
export type CreateTransactionInput = z.input<typeof CreateTransactionRequest>;

export function itemsTotal(items: readonly { unitPrice: number; quantity: number }[]): number {
  return items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0);
}

/**
 * The rules between fields. Takes the fields that parsed (a field that failed is absent: its own
 * error says what is wrong with it), so one response lists every problem. Each names the field to fix.
 */
export function transactionRuleErrors(t: Partial<CreateTransactionRequest>): FieldError[] {
  const errors: FieldError[] = [];
  const method = t.paymentMethod;
  if (method !== undefined && t.amount !== undefined && t.amount < AMOUNT_MIN[method]) {
    errors.push({ field: "amount", message: `must be at least ${AMOUNT_MIN[method]} for ${method}` });
  }

  if (t.amount !== undefined && t.items !== undefined && t.shipping !== undefined) {
    const total = itemsTotal(t.items);
    const fee = t.shipping?.fee ?? null;
    if (t.amount !== total && (fee === null || t.amount !== total + fee)) {
      errors.push({
        field: "amount",
        message:
          fee === null
            ? `is ${t.amount} but the items total ${total}; they must be equal`
            : `is ${t.amount} but the items total ${total} (${total + fee} with shipping.fee ${fee}); it must equal one of them`,
      });
    }
  }

  if (method === "credit_card") {
    if (t.ip === null) errors.push({ field: "ip", message: "is required for credit_card" });
    if (t.card && !t.card.hash) errors.push({ field: "card.hash", message: "is required for credit_card (the token from /api/v1/card-token)" });
  } else if (method !== undefined) {
    if (t.installments !== undefined && t.installments !== 1) {
      errors.push({ field: "installments", message: `applies to credit_card only; send 1 or leave it out for ${method}` });
    }
    if (t.installmentPlan) errors.push({ field: "installmentPlan", message: `applies to credit_card only; leave it out for ${method}` });
  }
  return errors;
}
