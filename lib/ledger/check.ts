import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "@/lib/db/client";
import { waitingShare } from "@/lib/domain/journals";
import { MERCHANT_PSP_ACQUIRER_TYPES, MERCHANT_PSP_PAYOUT_PROCESSORS } from "@/lib/domain/ledger";

/**
 * The ledger's invariants, checked against the database (`npm run ledger:check`, and the tests):
 *
 * 1. every journal has postings and they sum to zero;
 * 2. every account's balance equals the sum of its postings and its latest posting's balanceAfter;
 * 3. each posting's balanceAfter is the previous one's plus its amount (walking the account in order);
 * 4. a merchant's available balance was taken below zero only by a chargeback journal (other
 *    journals may land while it is negative, and pay it down; the return of a duplicate payment
 *    takes back exactly what that payment's own journal just credited), and waiting_funds and
 *    reserved never went below zero;
 * 5. each transaction has one payment journal if it was ever paid and none otherwise, and its
 *    refund postings add up to its refundedAmount;
 * 6. card funds: a settled sale has nothing left in waiting_funds, an unsettled one has exactly the
 *    share the journals derive from its row, and nothing waits without a settlement date;
 * 7. cash-outs: amount + fee was debited from its funds account (returned if it failed) and sits in
 *    reserved exactly while the cash-out is pending or processing;
 * 8. refunds at a PSP (psp_refunds): each transaction's journals hold in reserved exactly the
 *    amounts of its open refunds that were held when requested (none once each is done or failed).
 * 9. custody: money received through the merchant's own PSP and money Arara holds never mix. A
 *    transaction's journals use available_at_psp (and never available or waiting_funds) exactly when
 *    its acquirer puts the money in the merchant's PSP account, and a cash-out's exactly when its
 *    processor sends from that account (lib/domain/ledger.ts, FundsAccount). An `adjustment` (an
 *    operator's correction, tied to neither) may move either. Journals written before a merchant's
 *    `custody_split` (migration 0021: earlier versions kept one pool) are not held to it.
 *
 * Read-only. Violations are sentences naming the rows, for a person to act on.
 */
export type LedgerCheckResult = {
  ok: boolean;
  violations: string[];
  stats: { accounts: number; journals: number; postings: number; cashOuts: number; transactions: number };
};

const MAX_PER_CHECK = 200;

type Row = Record<string, unknown>;

async function rows(db: Queryable, query: SQL): Promise<Row[]> {
  // postgres.js returns the rows as an array, PGlite as { rows }.
  const r = (await db.execute(query)) as unknown;
  return (Array.isArray(r) ? r : (r as { rows: Row[] }).rows) as Row[];
}

const n = (v: unknown) => Number(v ?? 0);

export async function checkLedger(db: Queryable): Promise<LedgerCheckResult> {
  const violations: string[] = [];

  for (const r of await rows(
    db,
    sql`select j.id, j.kind, coalesce(sum(p.amount), 0)::text as total, count(p.id)::int as postings
        from ledger_journals j left join ledger_postings p on p.journal_id = j.id
        group by j.id, j.kind
        having coalesce(sum(p.amount), 0) <> 0 or count(p.id) = 0
        order by j.id limit ${MAX_PER_CHECK}`,
  )) {
    violations.push(
      n(r.postings) === 0
        ? `journal ${r.id} (${r.kind}) has no postings`
        : `journal ${r.id} (${r.kind}) postings sum to ${n(r.total)}, not 0`,
    );
  }

  for (const r of await rows(
    db,
    sql`select a.id, a.company_id, a.kind, a.balance::text as balance,
               coalesce(s.total, 0)::text as total, coalesce(l.balance_after, 0)::text as latest
        from ledger_accounts a
        left join (select account_id, sum(amount) as total from ledger_postings group by account_id) s on s.account_id = a.id
        left join lateral (select balance_after from ledger_postings p where p.account_id = a.id order by p.id desc limit 1) l on true
        where a.balance <> coalesce(s.total, 0) or a.balance <> coalesce(l.balance_after, 0)
        order by a.id limit ${MAX_PER_CHECK}`,
  )) {
    violations.push(
      `account ${r.id} (${r.company_id === null ? "platform" : `company ${r.company_id}`} ${r.kind}) balance ${n(r.balance)} but postings sum to ${n(r.total)} and the latest balanceAfter is ${n(r.latest)}`,
    );
  }

  for (const r of await rows(
    db,
    sql`select id, account_id, amount::text as amount, balance_after::text as balance_after, prev::text as prev from (
          select p.id, p.account_id, p.amount, p.balance_after,
                 coalesce(lag(p.balance_after) over (partition by p.account_id order by p.id), 0) as prev
          from ledger_postings p) x
        where balance_after <> prev + amount
        order by id limit ${MAX_PER_CHECK}`,
  )) {
    violations.push(
      `posting ${r.id} on account ${r.account_id}: balanceAfter ${n(r.balance_after)} is not the previous ${n(r.prev)} plus ${n(r.amount)}`,
    );
  }

  // Per journal rather than per posting: a payment that lands while available is below zero (after a
  // chargeback) credits the amount and debits its fee, and the journal as a whole pays the debt down.
  for (const r of await rows(
    db,
    sql`select x.journal_id, j.kind, a.company_id, x.net::text as net, p.balance_after::text as balance_after
        from (select p.journal_id, p.account_id, sum(p.amount) as net, max(p.id) as last_id
                from ledger_postings p group by p.journal_id, p.account_id) x
        join ledger_accounts a on a.id = x.account_id
        join ledger_journals j on j.id = x.journal_id
        join ledger_postings p on p.id = x.last_id
        where a.company_id is not null and p.balance_after < 0
          and a.kind = 'available' and x.net < 0 and j.kind <> 'chargeback'
          and not (j.kind = 'refund' and exists (select 1 from transactions t
                                                  where t.id = j.transaction_id and t.duplicate_of_id is not null))
        order by x.journal_id limit ${MAX_PER_CHECK}`,
  )) {
    violations.push(
      `journal ${r.journal_id} (${r.kind}) took company ${r.company_id}'s available to ${n(r.balance_after)} (${n(r.net)}): only a chargeback may overdraw`,
    );
  }

  // waiting_funds and reserved are never below zero, not even between the postings of one journal.
  for (const r of await rows(
    db,
    sql`select p.id, a.company_id, a.kind, p.entry_type, p.balance_after::text as balance_after
        from ledger_postings p join ledger_accounts a on a.id = p.account_id
        where a.company_id is not null and a.kind <> 'available' and p.balance_after < 0
        order by p.id limit ${MAX_PER_CHECK}`,
  )) {
    violations.push(`posting ${r.id}: company ${r.company_id} ${r.kind} went negative (${n(r.balance_after)}) through a ${r.entry_type}`);
  }

  for (const r of await rows(
    db,
    sql`select t.id, t.status, t.refunded_amount::text as refunded_amount,
               (select count(*) from ledger_journals j where j.transaction_id = t.id and j.kind = 'payment')::int as payments,
               coalesce((select -sum(p.amount) from ledger_journals j
                           join ledger_postings p on p.journal_id = j.id
                           join ledger_accounts a on a.id = p.account_id and a.company_id is not null
                         where j.transaction_id = t.id and j.kind = 'refund'), 0)::text as refunds
        from transactions t
        where (select count(*) from ledger_journals j where j.transaction_id = t.id and j.kind = 'payment')
                <> (case when t.status in ('paid', 'refunded', 'chargedback', 'in_protest') then 1 else 0 end)
           or coalesce((select -sum(p.amount) from ledger_journals j
                          join ledger_postings p on p.journal_id = j.id
                          join ledger_accounts a on a.id = p.account_id and a.company_id is not null
                        where j.transaction_id = t.id and j.kind = 'refund'), 0) <> t.refunded_amount
        order by t.id limit ${MAX_PER_CHECK}`,
  )) {
    if (n(r.refunds) !== n(r.refunded_amount)) {
      violations.push(`transaction ${r.id}: refundedAmount is ${n(r.refunded_amount)} but its refund postings total ${n(r.refunds)}`);
    } else {
      violations.push(`transaction ${r.id} (${r.status}) has ${r.payments} payment journal(s)`);
    }
  }

  const waitingRows = await rows(
    db,
    sql`select t.id, t.settled_at is not null as settled, t.settle_at is null as no_date,
               coalesce(w.total, 0)::text as waiting
        from transactions t
        left join (select j.transaction_id, sum(p.amount) as total from ledger_journals j
                     join ledger_postings p on p.journal_id = j.id
                     join ledger_accounts a on a.id = p.account_id and a.kind = 'waiting_funds'
                   where j.transaction_id is not null group by j.transaction_id) w on w.transaction_id = t.id
        -- Sales waiting for settlement (bounded by CARD_SETTLEMENT_DAYS), and any row whose waiting
        -- share is not zero; refused and pending cards with nothing waiting are not loaded.
        where t.payment_method = 'credit_card'
          and ((t.settled_at is null and t.status in ('paid', 'refunded', 'chargedback', 'in_protest'))
               or coalesce(w.total, 0) <> 0)
        order by t.id`,
  );
  const unsettledIds: number[] = [];
  for (const r of waitingRows) {
    const waiting = n(r.waiting);
    if (r.settled && waiting !== 0) violations.push(`transaction ${r.id} is settled but still has ${waiting} in waiting_funds`);
    else if (!r.settled && waiting < 0) violations.push(`transaction ${r.id} has a negative waiting_funds share (${waiting})`);
    else if (!r.settled && waiting > 0 && r.no_date) {
      violations.push(`transaction ${r.id} has ${waiting} in waiting_funds and no settlement date (settleAt): it would never settle`);
    }
    if (!r.settled) unsettledIds.push(n(r.id));
  }
  if (unsettledIds.length) {
    const waitingById = new Map(waitingRows.map((r) => [n(r.id), n(r.waiting)]));
    for (let i = 0; i < unsettledIds.length; i += 500) {
      const chunk = unsettledIds.slice(i, i + 500);
      const txs = await rows(
        db,
        sql`select id, status, payment_method, amount::text as amount, paid_amount::text as paid_amount,
                   refunded_amount::text as refunded_amount, fee_estimated::text as fee_estimated, settled_at
            from transactions where id in (${sql.join(chunk.map((id) => sql`${id}`), sql`, `)})`,
      );
      for (const t of txs) {
        const expected = waitingShare({
          status: String(t.status),
          paymentMethod: String(t.payment_method),
          amount: n(t.amount),
          paidAmount: n(t.paid_amount),
          refundedAmount: n(t.refunded_amount),
          feeEstimated: n(t.fee_estimated),
          settledAt: t.settled_at ? new Date(String(t.settled_at)) : null,
        });
        const actual = waitingById.get(n(t.id)) ?? 0;
        if (actual !== expected) {
          violations.push(`transaction ${t.id} (${t.status}) has ${actual} in waiting_funds; its journals should leave ${expected}`);
        }
      }
    }
  }

  for (const r of await rows(
    db,
    sql`select c.id, c.status, (c.amount + c.fee)::text as due,
               coalesce(sum(p.amount) filter (where a.kind = 'reserved'), 0)::text as reserved,
               coalesce(-sum(p.amount) filter (where a.kind in ('available', 'available_at_psp')), 0)::text as debited
        from cash_outs c
        left join ledger_journals j on j.cash_out_id = c.id
        left join ledger_postings p on p.journal_id = j.id
        left join ledger_accounts a on a.id = p.account_id
        group by c.id, c.status, c.amount, c.fee
        having (c.status in ('pending', 'processing') and coalesce(sum(p.amount) filter (where a.kind = 'reserved'), 0) <> c.amount + c.fee)
            or (c.status in ('completed', 'failed') and coalesce(sum(p.amount) filter (where a.kind = 'reserved'), 0) <> 0)
            or (c.status in ('pending', 'processing', 'completed') and coalesce(-sum(p.amount) filter (where a.kind in ('available', 'available_at_psp')), 0) <> c.amount + c.fee)
            or (c.status = 'failed' and coalesce(sum(p.amount) filter (where a.kind in ('available', 'available_at_psp')), 0) <> 0)
            or c.status not in ('pending', 'processing', 'completed', 'failed')
        order by c.id limit ${MAX_PER_CHECK}`,
  )) {
    violations.push(
      `cash-out ${r.id} (${r.status}, amount + fee ${n(r.due)}): ${n(r.debited)} net debited from its funds, ${n(r.reserved)} in reserved`,
    );
  }

  for (const r of await rows(
    db,
    sql`select coalesce(h.transaction_id, o.transaction_id) as id, coalesce(h.total, 0)::text as held, coalesce(o.total, 0)::text as open
        from (select j.transaction_id, sum(p.amount) as total from ledger_journals j
                join ledger_postings p on p.journal_id = j.id
                join ledger_accounts a on a.id = p.account_id and a.kind = 'reserved'
              where j.transaction_id is not null group by j.transaction_id) h
        full join (select transaction_id, sum(amount) as total from psp_refunds
                   where reserved and status in ('requested', 'processing') group by transaction_id) o
          on o.transaction_id = h.transaction_id
        where coalesce(h.total, 0) <> coalesce(o.total, 0)
        order by 1 limit ${MAX_PER_CHECK}`,
  )) {
    violations.push(`transaction ${r.id}: ${n(r.held)} held in reserved for refunds at the PSP, but its open refunds there total ${n(r.open)}`);
  }

  const atPspAcquirers = sql.join(MERCHANT_PSP_ACQUIRER_TYPES.map((v) => sql`${v}`), sql`, `);
  const atPspPayouts = sql.join(MERCHANT_PSP_PAYOUT_PROCESSORS.map((v) => sql`${v}`), sql`, `);
  for (const r of await rows(
    db,
    sql`select distinct j.id as journal_id, j.kind, a.kind as account, j.transaction_id, j.cash_out_id
        from ledger_postings p
        join ledger_accounts a on a.id = p.account_id and a.company_id is not null
                              and a.kind in ('available', 'waiting_funds', 'available_at_psp')
        join ledger_journals j on j.id = p.journal_id
        left join transactions t on t.id = j.transaction_id
        left join cash_outs c on c.id = j.cash_out_id
        left join (select company_id, max(id) as split_id from ledger_journals where kind = 'custody_split' group by company_id) cs
          on cs.company_id = j.company_id
        where j.kind not in ('adjustment', 'custody_split')
          -- Journals written before the merchant's custody split (migration 0021) kept one pool.
          and (cs.split_id is null or j.id > cs.split_id)
          and (case when t.id is not null then t.acquirer_type in (${atPspAcquirers})
                    when c.id is not null then c.processor in (${atPspPayouts})
                    else false end) <> (a.kind = 'available_at_psp')
        order by j.id limit ${MAX_PER_CHECK}`,
  )) {
    const of = r.transaction_id ? `transaction ${r.transaction_id}` : r.cash_out_id ? `cash-out ${r.cash_out_id}` : "nothing";
    violations.push(
      `journal ${r.journal_id} (${r.kind}, for ${of}) moved ${r.account}: money held at the merchant's PSP and money Arara holds must not mix`,
    );
  }

  const [stats] = await rows(
    db,
    sql`select (select count(*) from ledger_accounts)::int as accounts, (select count(*) from ledger_journals)::int as journals,
               (select count(*) from ledger_postings)::int as postings, (select count(*) from cash_outs)::int as cash_outs,
               (select count(*) from transactions)::int as transactions`,
  );
  return {
    ok: violations.length === 0,
    violations,
    stats: {
      accounts: n(stats.accounts),
      journals: n(stats.journals),
      postings: n(stats.postings),
      cashOuts: n(stats.cash_outs),
      transactions: n(stats.transactions),
    },
  };
}

export function ledgerCheckSummary(r: LedgerCheckResult): string {
  const s = r.stats;
  const counts = `${s.journals} journals, ${s.postings} postings, ${s.accounts} accounts, ${s.transactions} transactions, ${s.cashOuts} cash-outs`;
  return r.ok ? `ledger ok: ${counts}; every invariant holds` : `ledger has ${r.violations.length} violation(s) in ${counts}`;
}
