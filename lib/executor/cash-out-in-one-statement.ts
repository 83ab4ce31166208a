import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Queryable, Tx } from "@/lib/db/client";
import { cashOuts, pspPayouts, webhookEvents } from "@/lib/db/schema";
import { insertIf, insertManyIf } from "@/lib/db/insert-if";
import { reserveId, rowsOf } from "@/lib/db/rows";
import { cashOutRule, cashOutTargetOf } from "@/lib/domain/transitions";
import type { CashOutRow } from "@/lib/core/rows";
import { journalInStatement, journalsInStatement } from "@/lib/ledger/post";
import { ensureLedgerAccounts } from "@/lib/ledger/accounts";
import { ServiceError } from "@/lib/core/errors";
import type { JournalDraft } from "@/lib/domain/ledger";
import { cashOutEventValues } from "@/lib/webhooks/outbox";
import { cashOutEventData } from "@/lib/webhooks/payloads";
import { OUTBOX_CHANNEL } from "@/lib/webhooks/wake";
import { executePrepared } from "@/lib/db/prepared";

/**
 * A cash-out request in one statement: the cash-out, its PSP row (a payout through Efí), its outbox
 * event and its journal (the amount and fee moved from available to reserved) are written by a single
 * statement of data-modifying CTEs, all of them conditioned on the journal's guard
 * (lib/ledger/post.ts, journalInStatement): the merchant's accounts are locked in the one fixed order,
 * and if the available balance does not cover the amount plus the fee, nothing is written. One
 * statement is atomic on its own, so without a caller's transaction it needs no BEGIN/COMMIT, and the
 * hot balance row stays locked for that one statement. A request then costs two round trips (reserve
 * the id, then this) where the transaction of executeCashOut took six.
 *
 * This is the executor's `cash_out_requested` cause (lib/domain/transitions.ts) written as one
 * statement: the table gives the move, the journal and the event, exactly as executeCashOut does.
 */

export type NewCashOut = Omit<CashOutRow, "end2endId" | "failReason" | "completedAt">;

/** Takes the next cash-out id (the event's payload and Efí's idEnvio are built from it). */
export const reserveCashOutId = (q: Queryable): Promise<number> => reserveId(q, "cash_outs");

export type CashOutRequestOutcome =
  | { written: true; cashOut: CashOutRow }
  /** Nothing written: the balance does not cover it. */
  | { written: false; reason: "insufficient_balance" }
  /** Nothing written: the merchant's ledger accounts do not exist yet (executeCashOut creates them). */
  | { written: false; reason: "accounts_missing" };

export async function insertCashOutWithRequest(
  q: Queryable,
  ctx: { now: Date },
  values: NewCashOut,
  pspPayout: typeof pspPayouts.$inferInsert | null,
): Promise<CashOutRequestOutcome> {
  const row: CashOutRow = { ...values, end2endId: null, failReason: null, completedAt: null };
  const rule = cashOutRule("cash_out_requested");
  if (cashOutTargetOf("cash_out_requested", null) !== row.status) throw new Error(`A cash-out is requested ${cashOutTargetOf("cash_out_requested", null)}, not ${row.status}`);
  const draft = rule.journal({ before: row, after: row, facts: {} });
  if (!draft || rule.event !== "status") throw new Error("cash_out_requested moves money and tells the merchant: the money table says otherwise");
  const journal = journalInStatement({ ...draft, now: ctx.now });
  const event = cashOutEventValues(row, cashOutEventData(row), ctx.now);

  const cashOut = insertIf(cashOuts, row, journal.ok, { overridingSystemValue: true });
  const outbox = insertIf(webhookEvents, event, journal.ok);
  const psp = pspPayout ? sql`, psp as (${insertIf(pspPayouts, pspPayout, journal.ok)} returning 1)` : sql``;
  // The NOTIFY is an expression of the result, so it runs only for an event written and to deliver.
  const notify = event.deliveryState === "pending" ? sql`(select pg_notify(${OUTBOX_CHANNEL}, outbox.id::text) from outbox)` : sql`null`;
  const result = await executePrepared(q, sql`
    with ${journal.ctes},
    cash_out as (${cashOut} returning id),
    outbox as (${outbox} returning id)${psp}
    select ${journal.ok} as ok, ${journal.found} as found, ${journal.moved} as moved,
      (select count(*) from cash_out)::int as cash_outs, ${notify} as notified`);
  const [outcome] = rowsOf<{ ok: boolean; found: number; moved: number; cash_outs: number }>(result);
  if (!outcome.ok) return { written: false, reason: Number(outcome.found) < journal.accounts ? "accounts_missing" : "insufficient_balance" };
  if (Number(outcome.cash_outs) !== 1 || Number(outcome.moved) !== journal.accounts) {
    throw new Error(`Cash-out ${row.id}: ${outcome.cash_outs} rows and ${outcome.moved} of ${journal.accounts} balances written`);
  }
  return { written: true, cashOut: row };
}

/**
 * A move of a cash-out after its request, as executeCashOut builds it from the money table
 * (lib/executor/execute.ts): the row as read, the columns the move sets, the row after it, its journal.
 */
export type CashOutMove = { cashOut: CashOutRow; patch: Partial<CashOutRow>; after: CashOutRow; journal: JournalDraft | null };

/**
 * A cash-out's later move (processing, completed, failed) in one statement, as its request is: the
 * subject's row locked and checked still in the status read (`subject`), the journal of the move (its accounts
 * locked in the one fixed order, the guard), the cash-out's UPDATE and its outbox event, every write
 * conditioned on one `ok` (the subject as read, every account found, no guarded debit overdrawn). A
 * move of the sandbox's cash-out job took two statements (UPDATE, event) or four (with the accounts'
 * lock and the journal). The row after the move is the row read plus the move's columns, as the
 * request's row is built before its statement: the event's payload is made from it.
 *
 * Nothing written: a concurrent move got there first (409 conflict), or the balance does not cover a
 * guarded debit (422 insufficient_balance), or an account was missing, which is created (as postJournal
 * does) before the statement runs once more.
 */
export async function moveCashOutInOneStatement(tx: Tx, ctx: { now: Date }, move: CashOutMove): Promise<CashOutRow> {
  const { cashOut: before, after } = move;
  const subject = sql`subject as (select id from ${cashOuts} where id = ${before.id}::bigint and status = ${before.status}::text for update)`;
  const asRead = sql`exists (select 1 from subject)`;
  const journal = move.journal ? journalInStatement({ ...move.journal, now: ctx.now }, { also: asRead }) : null;
  const ok = journal ? journal.ok : asRead;
  const update = tx
    .update(cashOuts)
    .set({ ...move.patch, status: after.status, updatedAt: after.updatedAt })
    .where(and(eq(cashOuts.id, before.id), eq(cashOuts.status, before.status), ok))
    .returning({ id: cashOuts.id });
  const event = cashOutEventValues(after, cashOutEventData(after), ctx.now);
  const outbox = insertIf(webhookEvents, event, sql`exists (select 1 from cash_out)`);
  const notify = event.deliveryState === "pending" ? sql`(select pg_notify(${OUTBOX_CHANNEL}, outbox.id::text) from outbox)` : sql`null`;
  const run = async () => {
    const result = await executePrepared(tx, sql`
      with ${subject},${journal ? sql` ${journal.ctes},` : sql``}
      cash_out as (${update.getSQL()}),
      outbox as (${outbox} returning id)
      select ${ok} as ok, (select count(*) from subject)::int as as_read, (select count(*) from cash_out)::int as moved,
        ${journal ? journal.found : sql`0`} as found, ${journal ? journal.moved : sql`0`} as balances, ${notify} as notified`);
    const [outcome] = rowsOf<{ ok: boolean; as_read: number; moved: number; found: number; balances: number }>(result);
    return { ok: outcome.ok, asRead: Number(outcome.as_read), moved: Number(outcome.moved), found: Number(outcome.found), balances: Number(outcome.balances) };
  };
  let outcome = await run();
  if (!outcome.ok && outcome.asRead === 1 && journal && outcome.found < journal.accounts) {
    await ensureLedgerAccounts(tx, before.companyId);
    outcome = await run();
  }
  if (!outcome.ok) {
    if (outcome.asRead === 0) throw new ServiceError("conflict", `Cash-out ${before.id} changed while this request ran; read it and try again.`);
    if (journal && outcome.found < journal.accounts) throw new Error(`Cash-out ${before.id}: ${outcome.found} of ${journal.accounts} ledger accounts found after creating them`);
    throw new ServiceError("insufficient_balance", "The available balance does not cover this amount.");
  }
  if (outcome.moved !== 1 || (journal && outcome.balances !== journal.accounts)) {
    throw new Error(`Cash-out ${before.id}: ${outcome.moved} rows and ${outcome.balances} of ${journal?.accounts ?? 0} balances written`);
  }
  return after;
}

/**
 * Several cash-outs' later moves in one statement, every one or none (the sandbox's steps of one claim,
 * lib/services/cash-outs/advance-cash-outs.ts): the subjects checked still in the status read, the
 * journals of the moves that have one (lib/ledger/post.ts, journalsInStatement: each account moved
 * once by the sum of its lines, its guard the deepest point its guarded debits reach in the order
 * given), each cash-out's UPDATE with its own columns, and one outbox event per move, written only when
 * one `ok` holds. The moves are the ones moveCashOutInOneStatement writes one at a time, and what they
 * write is the same: the same rows, the same events, the same postings with the same balances after them.
 *
 * Returns the rows after the moves, or null when nothing was written (a subject not as read, an account
 * missing, a guarded debit overdrawn): the caller then writes them one at a time, which creates the
 * accounts or names the error.
 */
export async function moveCashOutsInOneStatement(tx: Tx, ctx: { now: Date }, moves: CashOutMove[]): Promise<CashOutRow[] | null> {
  if (new Set(moves.map((m) => m.cashOut.id)).size !== moves.length) throw new Error("A cash-out moves once per statement");
  const n = moves.length;
  // Each move as one JSON row: its subject as read, its status after, and for each column a move may
  // set, whether this one sets it and to what (a column it does not set is kept as it is).
  const document = moves.map(({ cashOut: before, patch, after }) => {
    const row: Record<string, unknown> = { id: before.id, from_status: before.status, to_status: after.status };
    for (const key of Object.keys(patch)) if (!(key in MOVABLE)) throw new Error(`A cash-out's move sets ${key}, which the batched statement does not write`);
    for (const [key, name] of Object.entries(MOVABLE)) {
      row[`set_${name}`] = key in patch;
      const value = after[key as keyof CashOutRow];
      row[name] = value instanceof Date ? value.toISOString() : value;
    }
    return row;
  });
  const columns = Object.values(MOVABLE);
  const types = Object.entries(MOVABLE).map(([key, name]) => `set_${name} boolean, ${name} ${getTableColumns(cashOuts)[key as keyof CashOutRow].getSQLType()}`).join(", ");
  const sets = columns.map((name) => `, ${name} = case when m.set_${name} then m.${name} else c.${name} end`).join("");
  const asRead = sql`((select count(*) from subject) = ${n}::int)`;
  const drafts = moves.flatMap((m) => (m.journal ? [{ ...m.journal, now: ctx.now }] : []));
  const journal = drafts.length ? journalsInStatement(drafts, { also: asRead }) : null;
  const ok = journal ? journal.ok : asRead;
  const events = moves.map(({ after }) => cashOutEventValues(after, cashOutEventData(after), ctx.now));
  const outbox = insertManyIf(webhookEvents, events, sql`(select count(*) from cash_out) = ${n}::int`);
  const result = await executePrepared(tx, sql`
    with m as (
      select * from jsonb_to_recordset(${JSON.stringify(document)}::jsonb) as m(id bigint, from_status text, to_status text, ${sql.raw(types)})
    ), subject as (
      select c.id from ${cashOuts} c join m on c.id = m.id and c.status = m.from_status order by c.id for update of c
    ),${journal ? sql` ${journal.ctes},` : sql``}
    cash_out as (
      update ${cashOuts} c set status = m.to_status, updated_at = ${ctx.now.toISOString()}::timestamptz${sql.raw(sets)}
      from m where c.id = m.id and c.status = m.from_status and ${ok}
      returning c.id
    ),
    outbox as (${outbox} returning id, delivery_state)
    select ${ok} as ok, (select count(*) from cash_out)::int as moved, (select count(*) from outbox)::int as events,
      ${journal ? journal.moved : sql`0`} as balances,
      (select count(*) from (select pg_notify(${OUTBOX_CHANNEL}, outbox.id::text) as n from outbox where delivery_state = 'pending') as notified)::int as notified`);
  const [outcome] = rowsOf<{ ok: boolean; moved: number; events: number; balances: number }>(result);
  if (!outcome.ok) return null;
  if (Number(outcome.moved) !== n || Number(outcome.events) !== n || (journal && Number(outcome.balances) !== journal.accounts)) {
    throw new Error(`Cash-outs ${moves.map((m) => m.cashOut.id).join(", ")}: ${outcome.moved} rows, ${outcome.events} events and ${outcome.balances} of ${journal?.accounts ?? 0} balances written`);
  }
  return moves.map((m) => m.after);
}

/** The columns a cash-out's later move may set (the money table's patches), by key and SQL name. */
const MOVABLE: Partial<Record<keyof CashOutRow, string>> = {
  nextStepAt: "next_step_at",
  end2endId: "end2end_id",
  failReason: "fail_reason",
  completedAt: "completed_at",
};
