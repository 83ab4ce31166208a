import { brandErrorClass } from "@/lib/core/errors";
import { getTableColumns, sql } from "drizzle-orm";
import { insertIf } from "@/lib/db/insert-if";
import { reserveId, rowsOf } from "@/lib/db/rows";
import { journalInStatement } from "@/lib/ledger/post";
import type { Queryable } from "@/lib/db/client";
import { transactions, transactionStatusChanges, webhookEvents } from "@/lib/db/schema";
import { webhookEventKind, type PaymentMethod, type TransactionStatus } from "@/lib/domain/status";
import { targetOf, transactionRule } from "@/lib/domain/transitions";
import type { TransactionRow } from "@/lib/core/rows";
import { transactionEventValues } from "@/lib/webhooks/outbox";
import { OUTBOX_CHANNEL } from "@/lib/webhooks/wake";
import { executePrepared } from "@/lib/db/prepared";

/**
 * A creation in one statement: the transaction, its first timeline entry, its first outbox event and,
 * for a creation that moves money (an approved card), its journal are written by a single statement
 * of data-modifying CTEs (and, for an event to deliver, the NOTIFY that wakes the dispatchers on
 * commit). One statement is atomic on its own: without a caller's transaction it needs no
 * BEGIN/COMMIT, so a PIX charge costs two round trips (reserve the id, then this) instead of seven.
 * Inside a caller's transaction (the idempotency layer, a card's token claim) it commits with it.
 *
 * This is the executor's `created` cause (lib/domain/transitions.ts) written as one statement: the
 * table decides the move, the timeline entry, the event and the journal, exactly as
 * executeTransaction does. The journal is lib/ledger/post.ts's journalInStatement: the accounts
 * locked in the ledger's one order, every write of the statement conditioned on them being there.
 */

type NewTransaction = typeof transactions.$inferInsert & { id: number; status: TransactionStatus };

/** Takes the next transaction id (the PIX txid and the boleto's number are built from it). */
export const reserveTransactionId = (q: Queryable): Promise<number> => reserveId(q, "transactions");

/**
 * The row as the database will store it: the values given, each other column's default. The outbox
 * payload is built from it before the statement runs (the statement itself returns the stored row,
 * which is what the caller gets; tests/integration/insert-transaction-statement.test.ts checks that
 * the two give the same payload).
 */
function rowOf(values: NewTransaction): TransactionRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(transactions))) {
    const given = (values as Record<string, unknown>)[key];
    row[key] = given !== undefined ? given : column.default !== undefined && !(column.default instanceof Object) ? column.default : null;
  }
  return row as TransactionRow;
}

/**
 * Thrown, with nothing written, when a creation's journal finds the merchant's ledger accounts not
 * there yet: the caller goes the way of executeTransaction (postJournal creates them on first use).
 * The statement did not fail, so a caller's transaction stays usable.
 */
export class LedgerAccountsMissing extends Error {
  constructor(companyId: number) {
    super(`The ledger accounts of company ${companyId} are not there yet`);
    this.name = "LedgerAccountsMissing";
  }
}
brandErrorClass(LedgerAccountsMissing, "LedgerAccountsMissing");

export async function insertTransactionWithCreation(
  q: Queryable,
  ctx: { actor: string; now: Date },
  values: NewTransaction,
): Promise<TransactionRow> {
  const expected = rowOf(values);
  const rule = transactionRule("created");
  targetOf("created", values.paymentMethod as PaymentMethod, null, values.status); // refuses a creation the table does not list
  if (rule.timeline !== "record" || rule.event !== "status") throw new Error("The money table's creation no longer records a timeline entry and an event: update this statement");
  const draft = rule.journal({ before: expected, after: expected, facts: {} });
  const journal = draft ? journalInStatement({ ...draft, now: ctx.now }) : null;
  const kind = webhookEventKind(values.paymentMethod as PaymentMethod, values.status, { isCreation: true });
  const event = transactionEventValues(expected, kind, ctx.now);

  // Every write is conditioned on the journal's guard (with no journal, on nothing).
  const ok = journal ? journal.ok : sql`true`;
  const timeline = insertIf(
    transactionStatusChanges,
    { transactionId: values.id, fromStatus: null, toStatus: values.status, cause: "created", amount: values.amount, actor: ctx.actor, createdAt: ctx.now },
    ok,
  );
  const outbox = insertIf(webhookEvents, event, ok);
  const created = insertIf(transactions, values, ok, { overridingSystemValue: true });
  // A data-modifying CTE runs whether or not the main query reads it; the NOTIFY is an expression of
  // the result, so it runs only when there is an event written and to deliver.
  const notify = event.deliveryState === "pending" ? sql`(select pg_notify(${OUTBOX_CHANNEL}, outbox.id::text) from outbox)` : sql`null`;
  const result = await executePrepared(q, sql`
    with ${journal ? sql`${journal.ctes},` : sql``}
    created as (${created} returning id),
    timeline as (${timeline} returning id),
    outbox as (${outbox} returning id)
    select ${ok} as ok, ${journal ? journal.found : sql`null`}::int as found, ${journal ? journal.moved : sql`null`}::int as moved,
      (select count(*) from created)::int as created, ${notify} as notified`);
  const [outcome] = rowsOf<{ ok: boolean; found: number | null; moved: number | null; created: number }>(result);
  if (!outcome.ok) throw new LedgerAccountsMissing(values.companyId); // a creation's journal has no guarded debit
  if (Number(outcome.created) !== 1 || (journal && Number(outcome.moved) !== journal.accounts)) {
    throw new Error(`Transaction ${values.id}: ${outcome.created} rows and ${outcome.moved} balances written`);
  }
  // The row as stored: the values given and the columns' defaults (the statement returns only the id,
  // which spares reading back and mapping some fifty columns).
  return expected;
}
