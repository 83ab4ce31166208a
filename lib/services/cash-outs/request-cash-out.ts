import { getDb, type Tx } from "@/lib/db/client";
import { inTransaction } from "@/lib/db/transaction";
import { cashOuts } from "@/lib/db/schema";
import { canonicalPixKeyType } from "@/lib/domain/cash-out";
import { computeCashOutFee } from "@/lib/domain/fees";
import { formatBRL } from "@/lib/domain/money";
import { parsePixKey } from "@/lib/domain/pix/keys";
import { parseWith } from "@/lib/core/validation";
import { executeCashOut } from "@/lib/executor/execute";
import { insertCashOutWithRequest, reserveCashOutId, type NewCashOut } from "@/lib/executor/cash-out-in-one-statement";
import { payoutRouteFor, pspPayoutValues, recordPspPayout } from "./payout-route";
import { CashOutRequest, type CashOutInput } from "@/lib/schemas/money";
import { checkPostbackUrl } from "@/lib/webhooks/ssrf";
import type { CashOutRow } from "./cash-out-view";
import type { ServiceContext } from "../context";
import { ServiceError, validation } from "../errors";
import { postbackUrlFor } from "../accounts/default-webhook-url";

/**
 * Requests a PIX transfer out of the available balance. The amount plus the account's cash-out fee
 * is debited in the same statement that records the request, guarded on the available account
 * locked: concurrent requests serialise on that row and the one that would overdraw writes nothing
 * (422 insufficient_balance), so the balance can never go below zero however many arrive at once.
 * The money waits in `reserved` until the PSP finishes (see advance-cash-outs.ts); the `pending`
 * webhook is in the same statement.
 * The money and the event are the executor's (the money table's `cash_out_requested` row), written
 * by one statement (lib/executor/cash-out-in-one-statement.ts): its guard refuses an overdraft and
 * writes nothing, the hot balance row is locked for that one statement.
 * The transfer goes through Arara's payouts (the sandbox) from `available`, or through Efí's Pix Envio
 * from `available_at_psp` (`source`, and its default, in payout-route.ts); `psp` without Efí set up is
 * refused.
 * `outer`: the caller's transaction (the idempotency layer's); the statement is part of it.
 */
export async function requestCashOut(ctx: ServiceContext, input: CashOutInput, outer?: Tx): Promise<CashOutRow> {
  const req = parseWith(CashOutRequest, input, "cash-out request");
  const keyType = canonicalPixKeyType(req.pixKeyType);
  // A key sent as a JSON number has lost any leading zero (CNPJ 05.511.912/0001-41 arrives as the 13
  // digits 5511912000141, which read as a phone): without a type to check it against, it is refused.
  if (typeof input?.pixKey === "number" && !keyType) {
    const message = "must be a string when pixKeyType is not given: a number loses leading zeros (send \"05511912000141\", not 5511912000141)";
    throw validation(`The cash-out request is invalid: pixKey ${message}.`, [{ field: "pixKey", message }]);
  }
  // The same parser as every other entry point (lib/domain/pix/keys.ts): with or without a type, a
  // mistyped CPF is refused, never sent to the phone its digits spell, and a phone must be a mobile.
  const key = parsePixKey(req.pixKey, keyType);
  if (!key.ok) {
    const field = key.problem === "unknown_type" ? "pixKeyType" : "pixKey";
    // One sentence: "…is invalid: the PIX key is not…" (the parser's message starts a sentence of its own).
    const reason = key.message.charAt(0).toLowerCase() + key.message.slice(1);
    throw validation(`The cash-out request is invalid: ${reason}`, [{ field, message: key.message }]);
  }
  if (req.postbackUrl) await checkPostbackUrl(ctx, req.postbackUrl);
  const fee = computeCashOutFee(ctx.account.feePlan);
  const route = await payoutRouteFor(ctx.account.id, outer, ctx.pspProcessor, req.source);
  const q = outer ?? getDb();
  const id = ctx.reservedCashOutId ?? (await reserveCashOutId(q));
  const values: NewCashOut = {
    id,
    companyId: ctx.account.id,
    status: "pending",
    amount: req.amount,
    fee,
    pixKey: key.key,
    pixKeyType: key.type,
    description: req.description ?? null,
    externalRef: req.externalRef ?? null,
    // Its own, else the account's default (dashboard, Desenvolvedores).
    postbackUrl: postbackUrlFor(ctx.account, req.postbackUrl),
    processor: route.processor,
    nextStepAt: ctx.now,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  // Named after the money the route takes it from (lib/domain/ledger.ts, FundsAccount).
  const funds = route.efi ? "The balance at your PSP (availableAtPsp)" : "The available balance";
  const insufficient = () =>
    new ServiceError(
      "insufficient_balance",
      fee > 0
        ? `${funds} does not cover this cash-out of ${formatBRL(req.amount)} plus the ${formatBRL(fee)} fee.`
        : `${funds} does not cover this cash-out of ${formatBRL(req.amount)}.`,
    );

  const outcome = await insertCashOutWithRequest(q, ctx, values, pspPayoutValues(values, route, ctx.now));
  if (outcome.written) return outcome.cashOut;
  if (outcome.reason === "insufficient_balance") throw insufficient();
  // The account's ledger accounts do not exist yet (created on first use): the executor's transaction
  // creates them and does the same writes.
  return inTransaction(outer, async (tx) => {
    const [row] = await tx.insert(cashOuts).overridingSystemValue().values(values).returning();
    await recordPspPayout(tx, row, route, ctx.now);
    try {
      return await executeCashOut(tx, ctx, { cause: "cash_out_requested", cashOut: row, facts: {} });
    } catch (err) {
      if (err instanceof ServiceError && err.code === "insufficient_balance") throw insufficient();
      throw err;
    }
  });
}
