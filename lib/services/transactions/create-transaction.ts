import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb, type Queryable, type Tx } from "@/lib/db/client";
import { insertTransactionWithCreation, LedgerAccountsMissing, reserveTransactionId } from "@/lib/executor/create-in-one-statement";
import { inTransaction } from "@/lib/db/transaction";
import { transactions } from "@/lib/db/schema";
import { formatDigitableLine } from "@/lib/domain/boleto/barcode";
import { computeTransactionFee } from "@/lib/domain/fees";
import type { TransactionStatus } from "@/lib/domain/status";
import { getEnv } from "@/lib/env";
import { pixProcessorFor, type PixProcessorChoice } from "@/lib/processors/api-pix/processor";
import { API_PIX_PROCESSOR } from "@/lib/processors/api-pix/config";
import { processorFor } from "@/lib/processors/registry";
import type { PixCharge, PixChargeInput, Processor } from "@/lib/processors/types";
import type { CreateTransactionRequest as Request } from "@/lib/schemas/transactions";
import { checkPostbackUrl, postbackCheckOf } from "@/lib/webhooks/ssrf";
import { executeTransaction } from "@/lib/executor/execute";
import { consumeCardToken } from "./card-tokens";
import { cardInstallmentOption, parseCreateTransaction } from "./parse-create-transaction";
import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";
import { boletoView, cardView, reportedFee, transactionResource, type TransactionRow } from "./transaction-view";
import { postbackUrlFor } from "../accounts/default-webhook-url";

const DAY_MS = 86_400_000;

export type CreateTransactionOptions = {
  /** The payment link the payer paid through. */
  checkoutId?: number;
  /** The refused card transaction this charge retries (checkout page). */
  retryOfId?: number;
  /** A payment link's charge: the hash of the payer's page's attempt key (checkout-lookup.ts, pendingRepeatOf). */
  checkoutAttempt?: string;
  /**
   * What preparePixAtPsp decided before the caller's transaction: the PIX charge it made at the
   * merchant's PSP, or null (the account's own processor makes it, in-process). Absent: not prepared.
   */
  preparedPix?: PreparedPix | null;
};

/**
 * A PIX charge made at the merchant's PSP (API Pix) with no database transaction open: the HTTPS call
 * holds no lock, and on the embedded database no other request waits on it. The id and secureId it
 * was made for are the transaction's. A charge that is then not recorded (a retry replayed under its
 * key, a payment link paid meanwhile, an error) is left to expire at the PSP: no payer saw its code.
 */
export type PreparedPix = { processor: string; charge: PixCharge; transactionId: number; secureId: string; amount: number };

/**
 * For a caller that will hold a transaction when it creates the charge (the Idempotency-Key's, a
 * payment link's lock): makes the PIX at the merchant's PSP first, when the account takes PIX there.
 * Null when the charge is not a PIX or the account's own processor makes it (in-process, no network);
 * a request known by its authentication not to use a PSP is answered without reading anything.
 */
export async function preparePixAtPsp(
  ctx: ServiceContext,
  raw: unknown,
  opts: { beforeAsking?: () => Promise<void> } = {},
): Promise<PreparedPix | null> {
  if (!makesPixAtPsp(ctx, raw)) return null;
  const input = parseCreateTransaction(raw);
  const processor = processorFor(ctx.account);
  const pix = await pixProcessorFor(ctx.account, processor, undefined, ctx.pspProcessor);
  if (pix.name === processor.name) return null;
  if (input.postbackUrl) await checkPostbackUrl(ctx, input.postbackUrl);
  await opts.beforeAsking?.();
  return chargeAtPsp(ctx, input, pix, getDb());
}

/**
 * The network work a creation needs before any transaction opens (the Idempotency-Key's): the webhook
 * URL's DNS check, and a PIX at the merchant's PSP. Null when the body needs none (nothing is read).
 */
export function beforeCreateTransaction(ctx: ServiceContext, raw: unknown): (() => Promise<PreparedPix | null | undefined>) | null {
  const checkPostback = postbackCheckOf(ctx, raw);
  const atPsp = makesPixAtPsp(ctx, raw);
  if (!checkPostback && !atPsp) return null;
  return async () => {
    await checkPostback?.();
    return atPsp ? preparePixAtPsp(ctx, raw) : undefined;
  };
}

/** Whether a request may make its PIX at a PSP over the network (false is sure; nothing is read). */
export function makesPixAtPsp(ctx: Pick<ServiceContext, "pspProcessor">, raw: unknown): boolean {
  return takesIdBeforeItsWrite(raw) && (ctx.pspProcessor === undefined || ctx.pspProcessor === API_PIX_PROCESSOR);
}

async function chargeAtPsp(ctx: ServiceContext, input: Request, pix: PixProcessorChoice, q: Queryable): Promise<PreparedPix> {
  const transactionId = ctx.reservedTransactionId ?? (await reserveTransactionId(q));
  const secureId = randomUUID();
  const charge = await pix.pix.createCharge(pixChargeInput(ctx, input, transactionId, secureId));
  return { processor: pix.name, charge, transactionId, secureId, amount: input.amount };
}

function pixChargeInput(ctx: ServiceContext, input: Request, transactionId: number, secureId: string): PixChargeInput {
  const account = ctx.account;
  return {
    transactionId,
    secureId,
    amount: input.amount,
    // createAccount always sets a key (the account's document until the merchant chooses one).
    merchant: { name: account.name, city: account.city, pixKey: account.pixKey ?? account.document },
    expiresInDays: input.pix.expiresInDays,
    ...pixExpiresInSeconds(ctx, input.pix.expiresInDays),
    customer: input.customer,
    now: ctx.now,
  };
}

/** A finer expiry when the request's context sets an earlier end than the days asked (ctx.pixExpiresBy). */
function pixExpiresInSeconds(ctx: ServiceContext, days: number): { expiresInSeconds?: number } {
  if (!ctx.pixExpiresBy) return {};
  const seconds = Math.ceil((ctx.pixExpiresBy.getTime() - ctx.now.getTime()) / 1000);
  return seconds < days * (DAY_MS / 1000) ? { expiresInSeconds: Math.max(1, seconds) } : {};
}

export type CreatedTransaction = { transaction: TransactionRow; response: TransactionCreatedResource };

/**
 * Creates a charge: validates the request, asks the account's processor for the PIX code, the
 * boleto or the card decision, and records the transaction with its timeline, ledger journal (an
 * approved card) and first webhook in one database transaction.
 *
 * The sandbox processor answers in-process, so it is called inside that transaction: a card token is
 * spent only if the charge is recorded. A real acquirer on the network would instead be called
 * between a committed `processing` row and its decision (the status table allows processing -> paid
 * and processing -> refused), so no database transaction waits on it.
 *
 * `outer`: a transaction the caller holds (the idempotency layer, the checkout's lock on a payment
 * link); the charge is then written in a savepoint of it and commits with it.
 */
export async function createTransaction(
  ctx: ServiceContext,
  raw: unknown,
  opts: CreateTransactionOptions = {},
  outer?: Tx,
): Promise<CreatedTransaction> {
  const input = parseCreateTransaction(raw);
  if (input.postbackUrl) await checkPostbackUrl(ctx, input.postbackUrl);
  const processor = processorFor(ctx.account);
  if (input.paymentMethod === "pix") {
    const transaction = await issuePixInOneStatement(outer, ctx, input, processor, baseValues(ctx, input, processor, opts), opts.preparedPix);
    return { transaction, response: transactionCreatedResource(transaction) };
  }

  const transaction = await inTransaction(outer, async (tx) => {
    const values = baseValues(ctx, input, processor, opts);
    let row: TransactionRow;
    switch (input.paymentMethod) {
      case "credit_card":
        return chargeCard(tx, ctx, input, processor, values);
      case "pix":
        throw new Error("PIX charges are written by issuePixInOneStatement");
      case "boleto":
        row = await issueBoleto(tx, ctx, input, processor, values);
        break;
    }
    return executeTransaction(tx, ctx, { cause: "created", transaction: row, facts: {} });
  });
  return { transaction, response: transactionCreatedResource(transaction) };
}

type NewTransaction = typeof transactions.$inferInsert;

function baseValues(ctx: ServiceContext, input: Request, processor: Processor, opts: CreateTransactionOptions) {
  const fee = computeTransactionFee(ctx.account.feePlan, input.paymentMethod, input.amount, input.installments);
  const c = input.customer;
  return {
    companyId: ctx.account.id,
    secureId: randomUUID(),
    paymentMethod: input.paymentMethod,
    amount: input.amount,
    installments: input.installments,
    // A card charge keeps its own plan: a retry with another card is priced by it (checkout page).
    ...(input.paymentMethod === "credit_card" && input.installmentPlan ? { installmentPlan: input.installmentPlan } : {}),
    feeFixed: fee.fixedAmount,
    feeEstimated: fee.estimatedFee,
    metadata: input.metadata?.text ?? null,
    metadataIsJson: input.metadata?.isJson ?? false,
    acquirerType: processor.name,
    externalRef: input.externalRef,
    // Its own, else the account's default (dashboard, Desenvolvedores).
    postbackUrl: postbackUrlFor(ctx.account, input.postbackUrl),
    returnUrl: input.returnUrl,
    customer: {
      name: c.name,
      email: c.email,
      phone: c.phone,
      externalRef: c.externalRef,
      document: { type: c.document.type, number: c.document.number },
    },
    customerEmail: c.email,
    customerDocument: c.document.number,
    items: input.items.map((i) => ({
      title: i.title,
      unitPrice: i.unitPrice,
      quantity: i.quantity,
      tangible: i.tangible,
      ...(i.externalRef ? { externalRef: i.externalRef } : {}),
    })),
    shipping: input.shipping,
    deliveryStatus: input.shipping ? "waiting" : null,
    traceable: input.traceable,
    ip: input.ip,
    checkoutId: opts.checkoutId ?? null,
    retryOfId: opts.retryOfId ?? null,
    checkoutAttempt: opts.checkoutAttempt ?? null,
    livemode: ctx.account.livemode,
    dialect: ctx.dialect ?? "api",
    createdAt: ctx.now,
    updatedAt: ctx.now,
  } satisfies Omit<NewTransaction, "status">;
}

type BaseValues = ReturnType<typeof baseValues>;

/**
 * The card is charged the chosen option's total: the amount, or with interest beyond the plan's
 * interest-free installments the Price-table total. The transaction keeps `amount` (the order) and
 * records the total as `paidAmount`, which the payment journal credits to the merchant (the interest
 * is the merchant's; the fee stays computed on the amount).
 */
async function chargeCard(tx: Tx, ctx: ServiceContext, input: Request, processor: Processor, values: BaseValues): Promise<TransactionRow> {
  const option = cardInstallmentOption(input, ctx.account);
  // The token is marked used before the acquirer is asked (two charges with one token would both be
  // authorized otherwise); the same statement reserves the charge's id.
  const { card, transactionId: id } = await consumeCardToken(tx, ctx.account.id, input.card.hash ?? "", ctx.now);
  const decision = await processor.card.authorize({
    card,
    amount: option.total,
    installments: input.installments,
    reference: values.secureId,
    merchant: { id: ctx.account.id, name: ctx.account.name },
    ip: input.ip ?? "",
    now: ctx.now,
  });
  const status: TransactionStatus = decision.approved ? "paid" : "refused";
  // Card money waits for the acquirer's settlement; with CARD_SETTLEMENT_DAYS=0 it is settled at once
  // (the payment journal then lands it in available).
  const settlementDays = getEnv().cardSettlementDays;
  const settlement = !decision.approved
    ? {}
    : settlementDays === 0
      ? { settleAt: null, settledAt: ctx.now }
      : { settleAt: new Date(ctx.now.getTime() + settlementDays * DAY_MS), settledAt: null };
  const charged = {
    ...values,
    status,
    acquirerRef: decision.authorizationCode,
    refusedReason: decision.approved ? null : decision.reason,
    paidAmount: decision.approved ? option.total : 0,
    paidAt: decision.approved ? ctx.now : null,
    ...settlement,
    // What is kept of the card: never the PAN or the CVV.
    cardBrand: card.brand,
    cardHolderName: card.holderName,
    cardFirstDigits: card.number.slice(0, 6),
    cardLastDigits: card.number.slice(-4),
    cardExpirationMonth: card.expirationMonth,
    cardExpirationYear: card.expirationYear,
  };
  // The charge, its timeline entry, its event and (approved) its journal in one statement, in the
  // transaction that spent the token.
  try {
    return await insertTransactionWithCreation(tx, ctx, { ...charged, id });
  } catch (err) {
    if (!(err instanceof LedgerAccountsMissing)) throw err;
    // Nothing was written: the executor's way creates the merchant's ledger accounts.
    const [row] = await tx.insert(transactions).overridingSystemValue().values({ ...charged, id }).returning();
    return executeTransaction(tx, ctx, { cause: "created", transaction: row, facts: {} });
  }
}

/**
 * Whether a creation body asks for a charge that needs its transaction id before its one writing
 * statement: a PIX charge builds its txid (and so its BR Code) from it. The API route then has the
 * authenticating statement take that id (ServiceContext.reservedTransactionId). A boleto takes its
 * id from its insert, and a card charge from its token's claim.
 */
export function takesIdBeforeItsWrite(body: unknown): boolean {
  // As the schema reads it: any case, spaces around.
  const method = (body as { paymentMethod?: unknown } | null)?.paymentMethod;
  return typeof method === "string" && method.trim().toLowerCase() === "pix";
}

/**
 * PIX and boleto need the transaction id for their txid / our number: insert, then attach. The
 * insert returns only what the processor needs; the full row comes back once, from attach (mapping
 * a 50-column row costs about as much CPU as the insert itself: npm run bench).
 */
async function insertPending(tx: Tx, values: BaseValues): Promise<{ id: number; secureId: string; amount: number }> {
  const [row] = await tx
    .insert(transactions)
    .values({ ...values, status: "pending" })
    .returning({ id: transactions.id, secureId: transactions.secureId, amount: transactions.amount });
  return row;
}

async function attach(tx: Tx, id: number, patch: Partial<NewTransaction>): Promise<TransactionRow> {
  const [row] = await tx.update(transactions).set(patch).where(eq(transactions.id, id)).returning();
  return row;
}

/**
 * A PIX charge in two round trips (lib/executor/create-in-one-statement.ts): the id is reserved, the
 * BR Code built from it (by the sandbox, or by the account's own PSP: lib/processors/api-pix, the
 * transaction records which), then one statement writes the transaction, its timeline entry and its
 * outbox event. In a caller's transaction (idempotency, a payment link's lock) it is a savepoint of
 * it, so an error rolls back only this charge. A PSP charge also writes its own row (psp_charges):
 * then the two go in one database transaction. The PSP itself is asked before that transaction
 * opens; a caller that holds a transaction of its own passes the charge it prepared before taking
 * it (preparePixAtPsp), or else the PSP is asked inside the caller's transaction.
 */
async function issuePixInOneStatement(
  outer: Tx | undefined,
  ctx: ServiceContext,
  input: Request,
  processor: Processor,
  values: BaseValues,
  prepared: PreparedPix | null | undefined,
) {
  // A charge prepared for another request would record an amount the PSP was not asked for.
  if (prepared && prepared.amount !== input.amount) throw new Error("A PIX charge prepared at the PSP for another amount.");
  // Decided before the caller's transaction (prepared, or null: the account's own processor), else now.
  const pix = prepared ? null : prepared === null ? processor : await pixProcessorFor(ctx.account, processor, outer, ctx.pspProcessor);
  const network = pix !== null && pix.name !== processor.name;
  // A PSP on the network is never asked inside a transaction: before ours opens, and a caller that
  // holds one must have prepared the charge (the settings changed since it decided: tried again).
  if (network && outer) throw new ServiceError("conflict", "The account's PIX settings changed while this charge was being made; nothing was charged. Try again (with a new Idempotency-Key).");
  const atPsp = prepared ?? (network ? await chargeAtPsp(ctx, input, pix, getDb()) : null);
  const run = async (q: Queryable) => {
    const id = atPsp?.transactionId ?? ctx.reservedTransactionId ?? (await reserveTransactionId(q));
    const secureId = atPsp?.secureId ?? values.secureId;
    const charge = atPsp?.charge ?? (await pix!.pix.createCharge(pixChargeInput(ctx, input, id, secureId)));
    const row = await insertTransactionWithCreation(q, ctx, {
      ...values,
      id,
      secureId,
      status: "pending",
      pixQrcode: charge.qrcode,
      pixTxid: charge.txid,
      acquirerRef: charge.txid,
      acquirerType: atPsp?.processor ?? pix!.name,
      expiresAt: charge.expiresAt,
    });
    if (charge.record) await charge.record(q as Tx, id);
    return row;
  };
  if (outer) return outer.transaction(run);
  return atPsp ? getDb().transaction(run) : run(getDb());
}

async function issueBoleto(tx: Tx, ctx: ServiceContext, input: Request, processor: Processor, values: BaseValues) {
  const row = await insertPending(tx, values);
  const boleto = await processor.boleto.issue({
    transactionId: row.id,
    amount: row.amount,
    expiresInDays: input.boleto.expiresInDays,
    payer: { name: input.customer.name, document: input.customer.document.number },
    merchant: { name: ctx.account.name, document: ctx.account.document },
    now: ctx.now,
  });
  return attach(tx, row.id, {
    boletoBarcode: boleto.barcode,
    // Stored and returned as printed on the slip ("00190.00009 01234.567897 ..."); bank apps accept it pasted as is.
    boletoDigitableLine: formatDigitableLine(boleto.digitableLine),
    boletoDueDate: boleto.dueDate,
    expiresAt: boleto.expiresAt,
    acquirerRef: boleto.reference,
  });
}

/** The creation response's `data`: the Transaction resource plus what only creation returns. */
export function transactionCreatedResource(t: TransactionRow) {
  return {
    ...transactionResource(t),
    fees: reportedFee(t).estimatedFee,
    ...(t.postbackUrl ? { postbackUrl: t.postbackUrl } : {}),
    ...(t.returnUrl ? { returnUrl: t.returnUrl } : {}),
    ...(t.paymentMethod === "credit_card"
      ? {
          installments: t.installments,
          card: cardView(t),
        }
      : {}),
    ...(t.paymentMethod === "boleto" ? { boleto: boletoView(t) } : {}),
  };
}
export type TransactionCreatedResource = ReturnType<typeof transactionCreatedResource>;
