import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { ledgerAccounts, ledgerJournals, ledgerPostings } from "@/lib/db/schema";
import { ServiceError } from "@/lib/core/errors";
import { assertBalanced, nonZero, type JournalDraft, type PostingLine } from "@/lib/domain/ledger";
import { insertIf } from "@/lib/db/insert-if";
import { rowsOf } from "@/lib/db/rows";
import { ensureLedgerAccounts } from "./accounts";
import { executePrepared } from "@/lib/db/prepared";

/** A journal of lib/domain/journals.ts, stamped with the time of the move. */
export type JournalInput = JournalDraft & { now: Date };

type Locked = { id: number; owner: number; kind: string; balance: number };

/**
 * Writes one journal inside the caller's transaction, in two statements:
 *
 * 1. The accounts it moves are locked (`SELECT ... ORDER BY owner, kind FOR UPDATE`): rows are locked
 *    in the order they are returned, one fixed order for every journal (this is the only code that
 *    moves a balance), so concurrent journals cannot deadlock. Two concurrent debits of one account
 *    serialise here, and the second reads the first's committed balance: no overdraft, no lost update.
 * 2. With the balances read under the lock, a guarded debit that would take an account below zero is
 *    refused (422 insufficient_balance) before anything is written. Otherwise ONE statement moves
 *    every balance (`UPDATE ... FROM (VALUES ...)`) and writes the journal and all its postings
 *    (data-modifying CTEs), with each posting's balance after it.
 *
 * The account rows (a merchant's available balance is the hottest row there is) stay locked for one
 * statement before the commit.
 */
export async function postJournal(tx: Tx, input: JournalInput): Promise<number> {
  const lines = nonZero(input.lines);
  assertBalanced(lines);
  if (lines.length === 0) return 0;

  const ownerOf = (line: PostingLine) => (line.owner === "merchant" ? input.companyId : 0);
  const keyOf = (owner: number, kind: string) => `${owner}:${kind}`;
  const wanted = new Map(lines.map((l) => [keyOf(ownerOf(l), l.account), { owner: ownerOf(l), kind: l.account }]));
  const byKey = await lockAccounts(tx, [...wanted.values()], input.companyId);

  // An account's lines are applied in order; a guarded debit must leave it >= 0 after that line.
  const running = new Map<string, number>();
  const postings: { accountId: number; entryType: string; amount: number; balanceAfter: number }[] = [];
  for (const line of lines) {
    const key = keyOf(ownerOf(line), line.account);
    const account = byKey.get(key)!;
    const after = (running.get(key) ?? account.balance) + line.amount;
    if (line.owner === "merchant" && line.mustStayNonNegative && line.amount < 0 && after < 0) {
      throw new ServiceError("insufficient_balance", "The available balance does not cover this amount.");
    }
    running.set(key, after);
    postings.push({ accountId: account.id, entryType: line.entryType, amount: line.amount, balanceAfter: after });
  }

  const moves = [...running].map(([key, after]) => sql`(${byKey.get(key)!.id}::bigint, ${after - byKey.get(key)!.balance}::bigint)`);
  const journal = tx.insert(ledgerJournals).values(journalRow(input)).returning({ id: ledgerJournals.id });
  // Postings are written grouped by account, in the lock order (a statement lists them in that order).
  const order = (id: number) => [...byKey.values()].findIndex((a) => a.id === id);
  postings.sort((a, b) => order(a.accountId) - order(b.accountId));
  const rows = postings.map((p) => sql`(${p.accountId}::bigint, ${p.entryType}::text, ${p.amount}::bigint, ${p.balanceAfter}::bigint)`);
  const result = await executePrepared(tx, sql`
    with moved as (
      update ${ledgerAccounts} a set balance = a.balance + m.delta
      from (values ${sql.join(moves, sql`, `)}) as m(id, delta)
      where a.id = m.id
      returning a.id
    ), journal as (${journal.getSQL()})
    insert into ${ledgerPostings} (journal_id, account_id, entry_type, amount, balance_after, created_at)
    select journal.id, v.account_id, v.entry_type, v.amount, v.balance_after, ${input.now.toISOString()}::timestamptz
    from journal, (values ${sql.join(rows, sql`, `)}) as v(account_id, entry_type, amount, balance_after)
    returning journal_id::text as id, (select count(*) from moved)::int as moved`);
  const written = rowsOf<{ id: string; moved: number }>(result);
  if (Number(written[0].moved) !== moves.length) throw new Error(`Journal of ${input.kind}: ${written[0].moved} of ${moves.length} balances moved`);
  return Number(written[0].id);
}

/** The `ledger_journals` row of a journal. */
function journalRow(input: JournalInput): typeof ledgerJournals.$inferInsert {
  return {
    companyId: input.companyId,
    kind: input.kind,
    description: input.description,
    transactionId: input.transactionId ?? null,
    cashOutId: input.cashOutId ?? null,
    createdAt: input.now,
  };
}

/** Locks the accounts (owner 0: the platform) in the one fixed order; creates a merchant's on first use. */
async function lockAccounts(tx: Tx, accounts: { owner: number; kind: string }[], companyId: number): Promise<Map<string, Locked>> {
  const lock = async () => {
    const pairs = accounts.map((a) => sql`(${a.owner}::bigint, ${a.kind}::text)`);
    const result = await executePrepared(tx, sql`
      select id, coalesce(company_id, 0) as owner, kind, balance from ${ledgerAccounts}
      where (coalesce(company_id, 0), kind) in (${sql.join(pairs, sql`, `)})
      order by coalesce(company_id, 0), kind
      for update`);
    return new Map(
      rowsOf<Record<string, unknown>>(result).map((r) => {
        const row = { id: Number(r.id), owner: Number(r.owner), kind: String(r.kind), balance: Number(r.balance) };
        return [`${row.owner}:${row.kind}`, row] as const;
      }),
    );
  };
  let locked = await lock();
  const missing = accounts.filter((a) => !locked.has(`${a.owner}:${a.kind}`));
  if (missing.some((a) => a.owner === 0)) throw new Error(`Platform ledger account ${missing.find((a) => a.owner === 0)!.kind} is missing: no merchant account was ever created.`);
  if (missing.length) {
    await ensureLedgerAccounts(tx, companyId);
    locked = await lock();
  }
  return locked;
}

/** A journal as the CTEs of a caller's single statement (journalInStatement). */
export type JournalInStatement = {
  /** The statement's CTE definitions (`locked as (...), journal_ok as (...), ...`), after a `with`. */
  ctes: SQL;
  /** True when every account was found and no guarded debit would overdraw: the caller's writes are conditioned on it. */
  ok: SQL;
  /** For the RETURNING list: accounts found and locked, and balances moved. */
  found: SQL;
  moved: SQL;
  accounts: number;
};

/**
 * The same journal as postJournal, for a statement that writes it together with the caller's rows and
 * needs no transaction of its own (a cash-out request in one statement,
 * lib/executor/cash-out-in-one-statement.ts):
 *
 * - `locked`: the accounts locked in the same fixed order, by the same `SELECT ... ORDER BY owner, kind
 *   FOR UPDATE` (a CTE with a locking clause is run once, materialized), so it cannot deadlock with
 *   postJournal either. A row changed by a concurrent transaction is waited for and read as committed.
 * - `journal_ok`: the guard on the locked balances, in SQL: each account's balance must cover the
 *   deepest point its guarded debits reach (the same rule as postJournal's running check), and every
 *   account must exist. It is one row, read by every write of the statement as a one-time filter, so
 *   nothing is written before all the locks are held, and nothing at all when it is false.
 * - `moved`, `journal`, `postings`: the balances, the journal and its postings (each posting's balance
 *   after it computed from the locked balance), written only when `journal_ok` holds.
 *
 * When an account is missing (found < accounts) nothing is written: the caller goes the way of
 * postJournal, which creates a merchant's accounts on first use. `also`: a condition of the caller's
 * statement that `journal_ok` requires too (it may name a CTE defined before the journal's), so that
 * one `ok` decides every write of the statement.
 */
export function journalInStatement(input: JournalInput, opts: { also?: SQL } = {}): JournalInStatement {
  const { accounts, postings } = aggregate([input]);
  const wanted = accounts.map((a) => sql`(${a.owner}::bigint, ${a.kind}::text, ${a.delta}::bigint, ${a.floor}::bigint)`);
  const pairs = accounts.map((a) => sql`(${a.owner}::bigint, ${a.kind}::text)`);
  const rows = postings.map((p) => sql`(${p.owner}::bigint, ${p.kind}::text, ${p.ord}::int, ${p.entry_type}::text, ${p.amount}::bigint, ${p.running}::bigint)`);
  const ok = sql`(select ok from journal_ok)`;
  const journal = insertIf(ledgerJournals, journalRow(input), ok);
  const ctes = sql`
    locked as (
      select id, coalesce(company_id, 0) as owner, kind, balance from ${ledgerAccounts}
      where (coalesce(company_id, 0), kind) in (${sql.join(pairs, sql`, `)})
      order by coalesce(company_id, 0), kind
      for update
    ), wanted(owner, kind, delta, floor) as (values ${sql.join(wanted, sql`, `)}),
    ${guardAndMove(accounts.length, opts.also)},
    journal as (${journal} returning id),
    postings as (
      insert into ${ledgerPostings} (journal_id, account_id, entry_type, amount, balance_after, created_at)
      select journal.id, l.id, p.entry_type, p.amount, l.balance + p.running, ${input.now.toISOString()}::timestamptz
      from journal, locked l join (values ${sql.join(rows, sql`, `)}) as p(owner, kind, ord, entry_type, amount, running)
        on p.owner = l.owner and p.kind = l.kind
      order by l.owner, l.kind, p.ord
      returning 1
    )`;
  return { ctes, ok, found: sql`(select found from journal_ok)`, moved: sql`(select count(*) from moved)::int`, accounts: accounts.length };
}

type Account = { owner: number; kind: string; delta: number; floor: number | null };
type Posting = { j: number; owner: number; kind: string; ord: number; entry_type: string; amount: number; running: number };

/**
 * The journals' lines as the accounts they move and their postings, in the order given: an account's
 * delta is the sum of its lines, its floor the deepest point its guarded debits reach (the same rule as
 * postJournal's running check), and a posting's `running` the account's sum of lines up to it.
 */
function aggregate(inputs: JournalInput[]): { accounts: Account[]; postings: Posting[] } {
  const accounts = new Map<string, Account>();
  const postings: Posting[] = [];
  inputs.forEach((input, j) => {
    const lines = nonZero(input.lines);
    assertBalanced(lines);
    if (lines.length === 0) throw new Error(`Journal of ${input.kind} has no lines`);
    const ownerOf = (line: PostingLine) => (line.owner === "merchant" ? input.companyId : 0);
    for (const line of lines) {
      const key = `${ownerOf(line)}:${line.account}`;
      const account = accounts.get(key) ?? { owner: ownerOf(line), kind: line.account, delta: 0, floor: null };
      accounts.set(key, account);
      account.delta += line.amount;
      if (line.owner === "merchant" && line.mustStayNonNegative && line.amount < 0) account.floor = Math.max(account.floor ?? -Infinity, -account.delta);
      postings.push({ j, owner: account.owner, kind: account.kind, ord: postings.length, entry_type: line.entryType, amount: line.amount, running: account.delta });
    }
  });
  return { accounts: [...accounts.values()], postings };
}

/** The guard on the locked balances (`journal_ok`) and the balances' move (`moved`), for both forms. */
function guardAndMove(accounts: number | SQL, also: SQL | undefined): SQL {
  const ok = sql`(select ok from journal_ok)`;
  return sql`journal_ok as (
      select count(*) = ${accounts}::int and coalesce(bool_and(w.floor is null or l.balance >= w.floor), true)${also ? sql` and ${also}` : sql``} as ok,
        count(*)::int as found
      from locked l join wanted w on w.owner = l.owner and w.kind = l.kind
    ), moved as (
      update ${ledgerAccounts} a set balance = a.balance + w.delta
      from locked l join wanted w on w.owner = l.owner and w.kind = l.kind
      where a.id = l.id and ${ok}
      returning a.id
    )`;
}

/**
 * Several journals in one statement, as if written one after the other (the sandbox's cash-out moves
 * of one claim, lib/executor/cash-out-in-one-statement.ts): an UPDATE moves a row once per statement,
 * so each account is moved once by the sum of its lines in all of them, and its guard is the deepest
 * point its guarded debits reach across them, in the order given. Each posting's balance after it is
 * the account's running balance across the journals, and the postings are written grouped by account
 * in that order (ledger:check walks an account's postings by id). All or nothing: one `ok`. The
 * journals' ids are taken from their sequence in a CTE run once (`journal_ids`), so that each posting
 * names its own journal. The accounts, journals and postings go as JSON parameters, so the statement's
 * text is the same whatever their number: one prepared statement and one plan.
 */
export function journalsInStatement(inputs: JournalInput[], opts: { also?: SQL } = {}): JournalInStatement {
  if (inputs.length === 0) throw new Error("No journal to write");
  const { accounts, postings } = aggregate(inputs);
  const journals = inputs.map((input, j) => {
    const r = journalRow(input);
    return { j, company_id: r.companyId, kind: r.kind, description: r.description, transaction_id: r.transactionId, cash_out_id: r.cashOutId, created_at: input.now.toISOString() };
  });
  const ok = sql`(select ok from journal_ok)`;
  const ctes = sql`
    wanted as (
      select * from jsonb_to_recordset(${JSON.stringify(accounts)}::jsonb) as w(owner bigint, kind text, delta bigint, floor bigint)
    ), locked as (
      select id, coalesce(company_id, 0) as owner, kind, balance from ${ledgerAccounts}
      where (coalesce(company_id, 0), kind) in (select owner, kind from wanted)
      order by coalesce(company_id, 0), kind
      for update
    ),
    ${guardAndMove(sql`(select count(*) from wanted)`, opts.also)},
    journal_ids as (
      select j, nextval(pg_get_serial_sequence('ledger_journals', 'id')) as id
      from generate_series(0, ${inputs.length - 1}::int) as j where ${ok}
    ), journal as (
      insert into ${ledgerJournals} (id, company_id, kind, description, transaction_id, cash_out_id, created_at) overriding system value
      select i.id, v.company_id, v.kind, v.description, v.transaction_id, v.cash_out_id, v.created_at
      from journal_ids i join jsonb_to_recordset(${JSON.stringify(journals)}::jsonb)
        as v(j int, company_id bigint, kind text, description text, transaction_id bigint, cash_out_id bigint, created_at timestamptz) on v.j = i.j
      order by i.j
      returning id
    ), postings as (
      insert into ${ledgerPostings} (journal_id, account_id, entry_type, amount, balance_after, created_at)
      select i.id, l.id, p.entry_type, p.amount, l.balance + p.running, p.created_at
      from journal_ids i
        join jsonb_to_recordset(${JSON.stringify(postings.map((p) => ({ ...p, created_at: journals[p.j].created_at })))}::jsonb)
          as p(j int, owner bigint, kind text, ord int, entry_type text, amount bigint, running bigint, created_at timestamptz) on p.j = i.j
        join locked l on p.owner = l.owner and p.kind = l.kind
      order by l.owner, l.kind, p.ord
      returning 1
    )`;
  return { ctes, ok, found: sql`(select found from journal_ok)`, moved: sql`(select count(*) from moved)::int`, accounts: accounts.length };
}
