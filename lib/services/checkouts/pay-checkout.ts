/**
 * The payer acting on the hosted checkout: choosing a method on a payment link, or trying another
 * card after a refusal. Card data never reaches this code: the browser tokenizes the card at
 * /api/v1/card-token with the account's public key and sends only the token here. The charge is
 * then created by the same `createTransaction` the API uses, in the merchant's account, with actor
 * "checkout".
 *
 * Two requests for one order at once (a double tap, the link page and "try another card" in two
 * tabs, two app instances) are serialised by the database, not by this process: the charge is
 * created in a database transaction that first locks the payment link's row (or, for a charge made
 * without a link, the refused charge's row), and the rules are checked again under that lock. The
 * second then finds the order paid (409) or its retry taken (409), and its card is never charged.
 * See lib/services/checkouts/link-payment.ts for the link's rule and the index that backs it.
 */
import { isPastExpiry } from "@/lib/domain/expiry";
import { LINK_REFUSAL } from "@/lib/domain/link-refusals";
import { and, eq, lt, sql } from "drizzle-orm";
import { getDb, type Db, type Tx } from "@/lib/db/client";
import { checkouts, transactions } from "@/lib/db/schema";
import { detectDocumentType, isValidDocument, normalizeDocument } from "@/lib/domain/documents";
import type { PaymentMethod, TransactionStatus } from "@/lib/domain/status";
import { parseWith } from "@/lib/core/validation";
import { CheckoutPayInput } from "@/lib/schemas/checkouts";
import type { CreateTransactionInput } from "@/lib/schemas/transactions";
import { metadataAsSent } from "@/lib/core/transaction-resource";
import { findAccountById } from "../accounts/accounts";
import {
  MAX_CARD_ATTEMPTS,
  MAX_LINK_CHARGES,
  cardAttemptsOf,
  findLinkById,
  findLinkBySecureId,
  findTransactionBySecureId,
  isSecureId,
  latestRetryOf,
  checkoutAttemptHash,
  linkChargeCounts,
  pendingRepeatOf,
} from "./checkout-lookup";
export { MAX_LINK_CHARGES };
import type { ServiceContext } from "../context";
import { createTransaction, makesPixAtPsp, preparePixAtPsp, type CreateTransactionOptions, type PreparedPix } from "../transactions/create-transaction";
import { ServiceError, notFound, unprocessable, validation, type FieldError } from "../errors";
import { linkPaymentOf, lockLink } from "./link-payment";
import { postbackCheckOf } from "@/lib/webhooks/ssrf";
import type { TransactionRow } from "../transactions/transaction-view";

/** Who is paying: from the page's request. */
export type PayerRequest = { ip: string; requestId: string; now: Date };

export type CheckoutPayResult = { secureId: string; status: TransactionStatus; paymentMethod: PaymentMethod; refusedReason: string | null };

function checkoutContext(account: NonNullable<Awaited<ReturnType<typeof findAccountById>>>, req: PayerRequest): ServiceContext {
  return { account, actor: "checkout", requestId: req.requestId, now: req.now };
}

// createTransaction names the API's fields; the page's form names them payer.*.
const FIELD_ON_PAGE: Record<string, string> = {
  "customer.name": "payer.name",
  "customer.email": "payer.email",
  "customer.document.number": "payer.document",
  "customer.document.type": "payer.document",
  "card.hash": "cardToken",
};

/** The charge, typed as the API request it is (createTransaction still validates it, for the page's field errors). */
async function create(ctx: ServiceContext, body: CreateTransactionInput, opts: CreateTransactionOptions, tx: Tx) {
  return withPageFields(async () => (await createTransaction(ctx, body, opts, tx)).transaction);
}

/** A validation error of the charge, with the page's field names. */
async function withPageFields<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ServiceError && err.errors) {
      throw new ServiceError(
        err.code,
        err.message,
        err.errors.map((e) => ({ field: FIELD_ON_PAGE[e.field] ?? e.field, message: e.message })),
      );
    }
    throw err;
  }
}

function result(t: TransactionRow): CheckoutPayResult {
  return {
    secureId: t.secureId,
    status: t.status as TransactionStatus,
    paymentMethod: t.paymentMethod as PaymentMethod,
    refusedReason: t.refusedReason,
  };
}

function requireToken(token: string | undefined): string {
  if (!token) throw validation("The card token is required.", [{ field: "cardToken", message: "is required" }]);
  return token;
}

/** POST /checkout/{secureId}/pay: a link's chosen method, or another card for a refused charge. */
export async function payCheckout(secureId: string, raw: unknown, req: PayerRequest): Promise<CheckoutPayResult> {
  if (!isSecureId(secureId)) throw notFound("Checkout");
  const input = parseWith(CheckoutPayInput, raw, "payment");
  const id = secureId.toLowerCase();
  const t = await findTransactionBySecureId(id);
  if (t) return retryCard(t, input, req);
  const link = await findLinkBySecureId(id, req.now);
  if (!link) throw notFound("Checkout");
  return payLink(link, input, req);
}

const ORDER_PAID = "This order is already paid.";

/** Under the link's lock: the checks that decide whether it may take another charge now. */
async function assertLinkTakesCharge(tx: Tx, checkoutId: number, now: Date): Promise<void> {
  const link = await lockLink(tx, checkoutId);
  if (await linkPaymentOf(tx, checkoutId)) throw new ServiceError("conflict", ORDER_PAID);
  if (isPastExpiry(link.expiresAt, now)) throw unprocessable(LINK_REFUSAL.expired);
}

type Input = ReturnType<typeof CheckoutPayInput.parse>;

async function retryCard(t: TransactionRow, input: Input, req: PayerRequest): Promise<CheckoutPayResult> {
  // A refused card stays refused (a final status), so this needs no lock.
  if (t.paymentMethod !== "credit_card" || t.status !== "refused") {
    throw new ServiceError("conflict", "This charge cannot be paid again: only a refused card can be tried with another card.");
  }
  const token = requireToken(input.cardToken);
  const account = await findAccountById(t.companyId);
  if (!account) throw notFound("Checkout");
  // The same order: items, customer, shipping and the merchant's references; only the card changes.
  const link = t.checkoutId !== null ? (await findLinkById(t.checkoutId, req.now))?.row : null;
  const body: CreateTransactionInput = {
    paymentMethod: "credit_card",
    amount: t.amount,
    items: t.items.map((i) => ({ title: i.title, unitPrice: i.unitPrice, quantity: i.quantity, tangible: i.tangible, externalRef: i.externalRef ?? null })),
    customer: t.customer,
    shipping: t.shipping,
    externalRef: t.externalRef,
    postbackUrl: t.postbackUrl,
    returnUrl: t.returnUrl,
    // As the order's metadata was sent (an object stays an object for /v1), not its stored text.
    metadata: metadataAsSent(t) as CreateTransactionInput["metadata"],
    traceable: t.traceable,
    ip: req.ip,
    installments: input.installments,
    // The refused charge's own plan (its request's, or its link's), else the link's, else the account's.
    installmentPlan: t.installmentPlan ?? link?.installmentPlan ?? null,
    card: { hash: token },
  };
  const ctx = checkoutContext(account, req);
  await withPageFields(async () => postbackCheckOf(ctx, body)?.()); // the DNS lookup, before the lock
  const created = await getDb().transaction(async (tx) => {
    // A link's caps count every charge of the link (its form's and every retry chain's), not one chain.
    if (t.checkoutId !== null) await assertLinkTakesNewCharge(tx, t.checkoutId, "credit_card", req.now, true);
    else await tx.select({ id: transactions.id }).from(transactions).where(eq(transactions.id, t.id)).for("update");
    if (await latestRetryOf(t.id, tx)) throw new ServiceError("conflict", "This charge was already tried again; reload the page.");
    if ((await cardAttemptsOf(t, tx)) >= MAX_CARD_ATTEMPTS) {
      throw unprocessable(LINK_REFUSAL.cardLimit);
    }
    return create(ctx, body, { checkoutId: t.checkoutId ?? undefined, retryOfId: t.id }, tx);
  });
  return result(created);
}

async function payLink(
  link: NonNullable<Awaited<ReturnType<typeof findLinkBySecureId>>>,
  input: Input,
  req: PayerRequest,
): Promise<CheckoutPayResult> {
  const { row, status } = link;
  // Answered at once when already known; checked again under the link's lock below.
  if (status === "paid") throw new ServiceError("conflict", "This payment link is already paid.");
  if (status === "expired") throw unprocessable(LINK_REFUSAL.expired);
  const errors: FieldError[] = [];
  const method = input.method;
  if (!method) errors.push({ field: "method", message: "is required" });
  else if (!row.methods.includes(method)) errors.push({ field: "method", message: `must be one of: ${row.methods.join(", ")}` });
  if (!input.payer) errors.push({ field: "payer", message: "is required" });
  const document = input.payer ? normalizeDocument(input.payer.document) : "";
  const documentType = detectDocumentType(document);
  if (input.payer && (!documentType || !isValidDocument(documentType, document))) {
    errors.push({ field: "payer.document", message: "must be a valid CPF or CNPJ" });
  }
  if (method === "credit_card" && !input.cardToken) errors.push({ field: "cardToken", message: "is required" });
  if (errors.length) {
    throw validation(errors.length === 1 ? `The payment is invalid: ${errors[0].field} ${errors[0].message}.` : "The payment is invalid.", errors);
  }
  const account = await findAccountById(row.companyId);
  if (!account) throw notFound("Checkout");
  const payer = input.payer!;
  const body: CreateTransactionInput = {
    paymentMethod: method,
    amount: row.amount,
    items: row.items.map((i) => ({ title: i.title, unitPrice: i.unitPrice, quantity: i.quantity, tangible: i.tangible })),
    customer: { name: payer.name, email: payer.email, document: { type: documentType, number: document } },
    externalRef: row.externalRef,
    postbackUrl: row.postbackUrl,
    returnUrl: row.returnUrl,
    metadata: metadataAsSent(row) as CreateTransactionInput["metadata"],
  };
  if (method === "credit_card") {
    body.ip = req.ip;
    body.installments = input.installments;
    body.installmentPlan = row.installmentPlan;
    body.card = { hash: requireToken(input.cardToken) };
  }
  // A PIX or boleto must not outlive the link by days: issue it for at most the link's remaining days
  // (a PIX, to the second: ctx.pixExpiresBy below; a boleto is due at the end of a day).
  if (row.expiresAt && (method === "pix" || method === "boleto")) {
    const days = Math.ceil((row.expiresAt.getTime() - req.now.getTime()) / 86_400_000);
    body[method] = { expiresInDays: Math.max(1, Math.min(2, days)) };
  }
  // A PIX is payable until the link expires, not a day after it: its own expiry ends there.
  const ctx = { ...checkoutContext(account, req), pixExpiresBy: row.expiresAt };
  // Network work is done before the link's lock is taken (inside it, it would hold the lock, and on
  // the embedded database the whole database, for its length): the webhook URL's DNS lookup, and a
  // PIX at the merchant's PSP, once the same checks have passed without the lock, so a link that may
  // take no more charges asks nothing of the PSP. Decided again under the lock; a charge made and
  // then not recorded expires at the PSP.
  await withPageFields(async () => postbackCheckOf(ctx, body)?.());
  // The same page asking again for the same method and payer (the answer lost, a double tap, Reload)
  // is given the code already issued, not a second one to pay: looked for first without the lock (no
  // PSP is asked for a PIX that exists), then again under it (two taps at once).
  const repeatOf = { name: payer.name, email: payer.email, document };
  const attempt = checkoutAttemptHash(input.attempt);
  const issued = await pendingRepeatOf(getDb(), row.id, method!, repeatOf, attempt, req.now);
  if (issued) return result(issued);
  let preparedPix: PreparedPix | null | undefined;
  if (makesPixAtPsp(ctx, body)) {
    const refused = await assertLinkTakesNewCharge(getDb(), row.id, method!, req.now, false).then(() => null, (e: unknown) => e);
    if (refused) {
      // A tap racing the one that just made this page's charge finds the cap reached by that charge: it is the answer.
      const madeMeanwhile = await pendingRepeatOf(getDb(), row.id, method!, repeatOf, attempt, req.now);
      if (madeMeanwhile) return result(madeMeanwhile);
      throw refused;
    }
    preparedPix = await withPageFields(() => preparePixAtPsp(ctx, body, { beforeAsking: () => countPspCharge(row.id) }));
  }
  const created = await getDb().transaction(async (tx) => {
    // The repeat before the caps: a double tap on a link's last free charge is given that charge.
    await assertLinkTakesCharge(tx, row.id, req.now);
    const issuedMeanwhile = await pendingRepeatOf(tx, row.id, method!, repeatOf, attempt, req.now);
    if (issuedMeanwhile) return issuedMeanwhile;
    await assertUnderLinkCaps(tx, row.id, method!);
    const repeatable = method === "pix" || method === "boleto" ? attempt : undefined;
    return create(ctx, body, { checkoutId: row.id, preparedPix, checkoutAttempt: repeatable }, tx);
  });
  return result(created);
}

/**
 * Counts a PIX about to be asked of the merchant's PSP for a link, in one guarded statement: payers
 * asking at once, each outside the link's lock, cannot make more than MAX_LINK_CHARGES there.
 */
async function countPspCharge(checkoutId: number): Promise<void> {
  const [counted] = await getDb()
    .update(checkouts)
    .set({ pspChargesAsked: sql`${checkouts.pspChargesAsked} + 1` })
    .where(and(eq(checkouts.id, checkoutId), lt(checkouts.pspChargesAsked, MAX_LINK_CHARGES)))
    .returning({ id: checkouts.id });
  if (!counted) throw unprocessable(LINK_REFUSAL.linkLimit);
}

/**
 * Whether a link may take another charge now: not paid, not expired, and under the caps. A link is
 * paid once, so a few charges cover any honest payer (changing method, a refused card); the caps
 * stop a script from filling the merchant's account with charges or testing cards here. Under the
 * link's lock when `lock` (the decision); without it, a first look before work outside the lock.
 */
async function assertLinkTakesNewCharge(q: Tx | Db, checkoutId: number, method: string, now: Date, lock: boolean): Promise<void> {
  if (lock) await assertLinkTakesCharge(q as Tx, checkoutId, now);
  else {
    const [link] = await q.select({ expiresAt: checkouts.expiresAt }).from(checkouts).where(eq(checkouts.id, checkoutId));
    if (!link) throw notFound("Payment link");
    if (await linkPaymentOf(q, checkoutId)) throw new ServiceError("conflict", ORDER_PAID);
    if (isPastExpiry(link.expiresAt, now)) throw unprocessable(LINK_REFUSAL.expired);
  }
  await assertUnderLinkCaps(q, checkoutId, method);
}

/** The link's caps: MAX_LINK_CHARGES charges in all, MAX_CARD_ATTEMPTS refused cards. */
async function assertUnderLinkCaps(q: Tx | Db, checkoutId: number, method: string): Promise<void> {
  const made = await linkChargeCounts(q, checkoutId);
  if (made.all >= MAX_LINK_CHARGES) throw unprocessable(LINK_REFUSAL.linkLimit);
  if (method === "credit_card" && made.refusedCards >= MAX_CARD_ATTEMPTS) {
    throw unprocessable(LINK_REFUSAL.cardLimit);
  }
}
