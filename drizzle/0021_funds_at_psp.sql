ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_journals" DROP CONSTRAINT "ledger_journals_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('available', 'waiting_funds', 'reserved', 'available_at_psp', 'platform_fees', 'acquirer_clearing', 'psp_clearing'));--> statement-breakpoint
ALTER TABLE "ledger_journals" ADD CONSTRAINT "ledger_journals_kind_check" CHECK ("ledger_journals"."kind" in ('payment', 'refund', 'chargeback', 'chargeback_reversal', 'settlement', 'cash_out', 'cash_out_reversal', 'adjustment', 'custody_split'));--> statement-breakpoint
-- Custody (lib/domain/ledger.ts, FundsAccount). Every merchant gets an available_at_psp account. Earlier
-- versions kept in `available` one pool: what Arara holds, and PIX received through the merchant's own
-- PSP (acquirer 'api-pix'), from which Efí cash-outs (processor 'efi-pix-envio') and devoluções were
-- paid, and which sandbox cash-outs could spend. History is left as it was written; for each merchant
-- with any such posting, one `custody_split` journal moves the PSP's share of the pool to
-- available_at_psp: P0, the sum of those postings, bounded by the pool T (never below zero, never more
-- than the pool), so neither side goes below zero where the pool did not, and what Arara may pay out
-- never grows. ledger:check's rule 9 applies to the journals after it.
INSERT INTO "ledger_accounts" ("company_id", "kind")
  SELECT DISTINCT "company_id", 'available_at_psp' FROM "ledger_accounts" WHERE "company_id" IS NOT NULL
  ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TEMPORARY TABLE "custody_split" AS
  SELECT a."company_id", a."id" AS "available_id", psp."id" AS "psp_id", a."balance" AS "pool",
         least(greatest(s."psp_share", 0), greatest(a."balance", 0)) AS "moved", NULL::bigint AS "journal_id"
  FROM (SELECT p."account_id", sum(p."amount") AS "psp_share"
          FROM "ledger_postings" p
          JOIN "ledger_journals" j ON j."id" = p."journal_id"
         WHERE EXISTS (SELECT 1 FROM "transactions" t WHERE t."id" = j."transaction_id" AND t."acquirer_type" = 'api-pix')
            OR EXISTS (SELECT 1 FROM "cash_outs" c WHERE c."id" = j."cash_out_id" AND c."processor" = 'efi-pix-envio')
         GROUP BY p."account_id") s
  JOIN "ledger_accounts" a ON a."id" = s."account_id" AND a."kind" = 'available' AND a."company_id" IS NOT NULL
  JOIN "ledger_accounts" psp ON psp."company_id" = a."company_id" AND psp."kind" = 'available_at_psp';--> statement-breakpoint
WITH "journals" AS (
  INSERT INTO "ledger_journals" ("company_id", "kind", "description")
    SELECT "company_id", 'custody_split',
           'PIX received through your own PSP counted apart from now on (availableAtPsp): ' || "moved" || ' centavos moved from available'
      FROM "custody_split" ORDER BY "company_id"
    RETURNING "id", "company_id")
UPDATE "custody_split" s SET "journal_id" = j."id" FROM "journals" j WHERE j."company_id" = s."company_id";--> statement-breakpoint
INSERT INTO "ledger_postings" ("journal_id", "account_id", "entry_type", "amount", "balance_after")
  SELECT "journal_id", "available_id", 'adjustment', -"moved", "pool" - "moved" FROM "custody_split"
  UNION ALL
  SELECT "journal_id", "psp_id", 'adjustment', "moved", "moved" FROM "custody_split"
  ORDER BY 1, 2;--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance" = a."balance" - s."moved" FROM "custody_split" s WHERE a."id" = s."available_id";--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance" = s."moved" FROM "custody_split" s WHERE a."id" = s."psp_id";--> statement-breakpoint
DROP TABLE "custody_split";
