/**
 * What the hosted checkout shows a payer. The page is public (anyone with the secureId URL), so the
 * view is built field by field from the rows: the merchant's name, document (CNPJ only) and public
 * key, the order and the payment artefacts. Never secret keys, the webhook secret, the postback
 * URL, metadata, fees, the payer's document or the merchant's other data.
 */
import { isPastExpiry } from "@/lib/domain/expiry";
import { API_PIX_ACQUIRER } from "@/lib/core/transaction-resource";
import { API_PIX_PROCESSOR, pspConfigOf } from "@/lib/processors/api-pix/config";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { PaymentMethod, TransactionStatus } from "@/lib/domain/status";
import type { Account } from "../context";
import { findAccountById } from "../accounts/accounts";
import type { CheckoutRow, CheckoutStatus } from "./checkout-view";
import {
  MAX_CARD_ATTEMPTS,
  MAX_LINK_CHARGES,
  cardAttemptsOf,
  findLinkById,
  findLinkBySecureId,
  findTransactionBySecureId,
  isSecureId,
  latestRetryOf,
  linkChargeCounts,
} from "./checkout-lookup";
import { linkPaymentOf, returnedPaymentsOf } from "./link-payment";
import { boletoUrlOf, type TransactionRow } from "../transactions/transaction-view";
import { getBranding, payerBrandOf, type PayerBrand } from "../accounts/branding";
import { accountInstallmentPlan } from "../accounts/installment-plan";
import type { InstallmentPlan } from "@/lib/domain/installments";

export type PayerMerchant = {
  /** The display name the merchant chose for the checkout, else the company's name. */
  name: string;
  cnpj: string | null;
  publicKey: string;
  /** Colour (contrast-checked, with a fallback), logo and support contact. */
  brand: PayerBrand;
};
export type PayerItem = { title: string; quantity: number; unitPrice: number };
/** The order as the payer reads it: the lines add up to the amount (items + shipping − discount). */
export type PayerOrder = {
  amount: number;
  description: string | null;
  items: PayerItem[];
  /** Sum of the items. */
  subtotal: number;
  /** Shipping charged on top of the items (0 when none). */
  shipping: number;
  /** What the total is below items + shipping (0 when none). */
  discount: number;
  /** The card installments offered (the link's plan, else the account's): the page lists its options. */
  installmentPlan: InstallmentPlan;
};

export type PayerTransaction = {
  secureId: string;
  /** The transaction number (the merchant's dashboard and support know it by this). */
  id: number;
  /** The merchant's order reference (externalRef), when given. */
  orderRef: string | null;
  /** The merchant's store page the last screen returns to (the charge's, else its link's). */
  returnUrl: string | null;
  status: TransactionStatus;
  paymentMethod: PaymentMethod;
  amount: number;
  installments: number;
  /** What the card was charged: the amount, or with installment interest their total (paidAmount). */
  cardTotal: number;
  createdAt: string;
  paidAt: string | null;
  /** A sandbox (test) transaction: the page offers to simulate the payment. */
  sandbox: boolean;
  /** What was returned to the payer so far (a partial refund leaves the transaction paid). */
  refundedAmount: number;
  /** PIX or boleto past its expiry: it can no longer be paid. */
  expired: boolean;
  pix: { qrcode: string; expiresAt: string | null } | null;
  boleto: { digitableLine: string; barcode: string; dueDate: string | null; pdfUrl: string } | null;
  card: { brand: string | null; lastDigits: string | null; refusedReason: string | null } | null;
  /** A refused card the payer may try again with another card. */
  canRetry: boolean;
  /** Paid after its payment link had been paid by another charge, and so refunded at once. */
  returnedAsDuplicate: boolean;
  /**
   * The payment link it was made from, while that link still takes payments and offers a method
   * other than this charge's (to choose another method); null for a card-only link's card, say.
   */
  linkSecureId: string | null;
};

export type PayerLink = {
  secureId: string;
  status: CheckoutStatus;
  methods: PaymentMethod[];
  expiresAt: string | null;
  /** When paid: the transaction that paid it. */
  paid: {
    paymentMethod: PaymentMethod;
    paidAt: string | null;
    /** What the payer paid: a card in installments with interest was charged more than the order. */
    amount: number;
    /** The card's installments (1 for anything else). */
    installments: number;
  } | null;
  /**
   * Payments that arrived after the link was paid (the payer paid twice): refunded at once
   * (`returned`), or, for money received at the merchant's own PSP, still to be returned by it.
   */
  returned: { paymentMethod: PaymentMethod; amount: number; paidAt: string; returned: boolean }[];
  /** The merchant's account is in test mode: charges made here are sandbox charges. */
  sandbox: boolean;
  /**
   * What the link still takes from its page (checkout-lookup.ts, the caps): `cards` false after too many
   * refused cards, `charges` false once it issued all it may. The page offers only what it takes.
   */
  takes: { cards: boolean; charges: boolean };
  /** The merchant's store page the last screen returns to. */
  returnUrl: string | null;
};

export type CheckoutPageData =
  | { kind: "transaction"; merchant: PayerMerchant; order: PayerOrder; transaction: PayerTransaction }
  | { kind: "link"; merchant: PayerMerchant; order: PayerOrder; link: PayerLink }
  /** A refused card that was tried again: the page follows the newest attempt. */
  | { kind: "redirect"; secureId: string };

async function merchantView(account: Account): Promise<PayerMerchant> {
  const branding = await getBranding(account.id);
  return {
    name: branding?.displayName || account.name,
    brand: payerBrandOf(branding),
    // A company's CNPJ is public and reassures the payer; a person's CPF is personal data.
    cnpj: account.documentType === "cnpj" ? account.document : null,
    publicKey: account.publicKey,
  };
}

export function orderView(
  amount: number,
  items: { title: string; quantity: number; unitPrice: number }[],
  description: string | null,
  installmentPlan: InstallmentPlan,
  shippingFee: number | null = null,
): PayerOrder {
  const subtotal = items.reduce((n, i) => n + i.unitPrice * i.quantity, 0);
  const shipping = Math.max(0, shippingFee ?? 0);
  return {
    amount,
    description,
    items: items.map((i) => ({ title: i.title, quantity: i.quantity, unitPrice: i.unitPrice })),
    subtotal,
    shipping,
    discount: Math.max(0, subtotal + shipping - amount),
    installmentPlan,
  };
}

export function isExpired(t: Pick<TransactionRow, "status" | "paymentMethod" | "expiresAt">, now: Date): boolean {
  return t.status === "pending" && t.paymentMethod !== "credit_card" && isPastExpiry(t.expiresAt, now);
}

function awaitsPayment(t: Pick<TransactionRow, "status">): boolean {
  return t.status === "pending" || t.status === "processing";
}

export async function payerTransactionView(t: TransactionRow, now: Date): Promise<PayerTransaction> {
  const method = t.paymentMethod as PaymentMethod;
  const link = t.checkoutId !== null ? await findLinkById(t.checkoutId, now) : null;
  const canRetry =
    method === "credit_card" &&
    t.status === "refused" &&
    (link === null || link.status === "open") &&
    (await cardAttemptsOf(t)) < MAX_CARD_ATTEMPTS;
  return {
    secureId: t.secureId,
    id: t.id,
    orderRef: t.externalRef,
    returnUrl: t.returnUrl ?? link?.row.returnUrl ?? null,
    status: t.status as TransactionStatus,
    paymentMethod: method,
    amount: t.amount,
    installments: t.installments,
    cardTotal: t.paidAmount > 0 ? t.paidAmount : t.amount,
    createdAt: t.createdAt.toISOString(),
    paidAt: t.paidAt ? t.paidAt.toISOString() : null,
    // A PIX made at the merchant's own PSP is real money even on a test account: no "test" banner, no
    // simulated payment.
    sandbox: !t.livemode && t.acquirerType !== API_PIX_ACQUIRER,
    refundedAmount: t.refundedAmount,
    expired: isExpired(t, now),
    pix: method === "pix" ? { qrcode: t.pixQrcode ?? "", expiresAt: t.expiresAt ? t.expiresAt.toISOString() : null } : null,
    boleto:
      method === "boleto"
        ? {
            digitableLine: t.boletoDigitableLine ?? "",
            barcode: t.boletoBarcode ?? "",
            dueDate: t.boletoDueDate,
            pdfUrl: new URL(boletoUrlOf(t.secureId)).pathname,
          }
        : null,
    card: method === "credit_card" ? { brand: t.cardBrand, lastDigits: t.cardLastDigits, refusedReason: t.refusedReason } : null,
    canRetry,
    returnedAsDuplicate: t.duplicateOfId !== null,
    linkSecureId: link && link.status === "open" && t.status !== "paid" && link.row.methods.some((m) => m !== method) ? link.row.secureId : null,
  };
}

async function payerLinkView(row: CheckoutRow, status: CheckoutStatus, account: Account): Promise<PayerLink> {
  const db = getDb();
  let paid: PayerLink["paid"] = null;
  let returned: PayerLink["returned"] = [];
  if (status === "paid") {
    const t = await linkPaymentOf(db, row.id);
    if (t) {
      const [charged] = await db
        .select({ amount: transactions.amount, paidAmount: transactions.paidAmount, installments: transactions.installments })
        .from(transactions)
        .where(eq(transactions.id, t.id));
      paid = {
        paymentMethod: t.paymentMethod,
        paidAt: t.paidAt.toISOString(),
        // As the charge's own page says it (cardTotal above): what the card or the PIX took.
        amount: charged && charged.paidAmount > 0 ? charged.paidAmount : (charged?.amount ?? row.amount),
        installments: charged?.installments ?? 1,
      };
    }
    returned = (await returnedPaymentsOf(db, row.id)).map((r) => ({ paymentMethod: r.paymentMethod, amount: r.amount, paidAt: r.paidAt.toISOString(), returned: r.returned }));
  }
  // A charge already made from the link is offered only to the browser that made it (its attempt key:
  // components/checkout/PendingCharge.tsx, pendingOfAttempt), never in the page every visitor gets.
  const made = status === "open" ? await linkChargeCounts(db, row.id) : null;
  return {
    secureId: row.secureId,
    status,
    takes: { cards: !made || made.refusedCards < MAX_CARD_ATTEMPTS, charges: !made || made.all < MAX_LINK_CHARGES },
    methods: row.methods as PaymentMethod[],
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
    paid,
    returned,
    // A link whose PIX is made at the merchant's own PSP takes real money: not shown as a test.
    sandbox: !account.livemode && !(row.methods.includes("pix") && (await pspConfigOf(account.id))?.processor === API_PIX_PROCESSOR),
    returnUrl: row.returnUrl,
  };
}

/**
 * The page of a secureId: a transaction's (looked up first) or a payment link's; null for an
 * unknown id (the page answers 404).
 */
export async function getCheckoutPageData(secureId: string, now: Date = new Date()): Promise<CheckoutPageData | null> {
  if (!isSecureId(secureId)) return null;
  const id = secureId.toLowerCase();
  const t = await findTransactionBySecureId(id);
  if (t) {
    if (t.paymentMethod === "credit_card" && t.status === "refused") {
      const latest = await latestRetryOf(t.id);
      if (latest) return { kind: "redirect", secureId: latest.secureId };
    }
    const link = t.checkoutId !== null ? await findLinkById(t.checkoutId, now) : null;
    // A charge still waiting for a link another charge has paid: the order is paid, and this one can
    // no longer be; the payer sees the link's page, which says so (its QR code and boleto are not
    // served either: checkout-lookup.ts, linkPaidByAnother).
    if (link?.status === "paid" && awaitsPayment(t)) return { kind: "redirect", secureId: link.row.secureId };
    const account = await findAccountById(t.companyId);
    if (!account) return null;
    return {
      kind: "transaction",
      merchant: await merchantView(account),
      order: orderView(
        t.amount,
        t.items,
        link?.row.description ?? null,
        // The plan a retry with another card is priced by (pay-checkout.ts, retryCard).
        t.installmentPlan ?? link?.row.installmentPlan ?? accountInstallmentPlan(account),
        t.shipping?.fee ?? null,
      ),
      transaction: await payerTransactionView(t, now),
    };
  }
  const link = await findLinkBySecureId(id, now);
  if (!link) return null;
  const account = await findAccountById(link.row.companyId);
  if (!account) return null;
  return {
    kind: "link",
    merchant: await merchantView(account),
    order: orderView(link.row.amount, link.row.items, link.row.description, link.row.installmentPlan ?? accountInstallmentPlan(account)),
    link: await payerLinkView(link.row, link.status, account),
  };
}

export type CheckoutStatusView =
  | { kind: "transaction"; status: TransactionStatus; expired: boolean; paidAt: string | null; next: string | null }
  | { kind: "link"; status: CheckoutStatus }
  | null;

/** The small JSON the page polls while the payer pays with their bank app. */
export async function getCheckoutStatus(secureId: string, now: Date = new Date()): Promise<CheckoutStatusView> {
  if (!isSecureId(secureId)) return null;
  const id = secureId.toLowerCase();
  const t = await findTransactionBySecureId(id);
  if (t) {
    let next: string | null = null;
    if (t.status === "refused") next = (await latestRetryOf(t.id))?.secureId ?? null;
    else if (awaitsPayment(t) && t.checkoutId !== null) {
      const link = await findLinkById(t.checkoutId, now);
      if (link?.status === "paid") next = link.row.secureId;
    }
    return {
      kind: "transaction",
      status: t.status as TransactionStatus,
      expired: isExpired(t, now),
      paidAt: t.paidAt ? t.paidAt.toISOString() : null,
      next,
    };
  }
  const link = await findLinkBySecureId(id, now);
  return link ? { kind: "link", status: link.status } : null;
}
