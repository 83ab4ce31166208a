ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('available', 'waiting_funds', 'reserved', 'available_at_psp', 'platform_fees', 'acquirer_clearing', 'psp_clearing'));--> statement-breakpoint
-- Custody (lib/domain/ledger.ts, FundsAccount): every merchant gets an available_at_psp account, and the
-- postings that put PIX received through the merchant's own PSP (acquirer 'api-pix') into available, or
-- took cash-outs sent from that PSP account (processor 'efi-pix-envio') out of it, move to that account,
-- as if it had always existed. The two accounts' running balances (balance_after) are recomputed in id
-- order and their balances set to the sum of their postings, which is what ledger:check proves.
INSERT INTO "ledger_accounts" ("company_id", "kind")
  SELECT DISTINCT "company_id", 'available_at_psp' FROM "ledger_accounts" WHERE "company_id" IS NOT NULL
  ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TEMPORARY TABLE "custody_moved" AS
  SELECT p."id" AS "posting_id", a."id" AS "from_id", psp."id" AS "to_id"
  FROM "ledger_postings" p
  JOIN "ledger_accounts" a ON a."id" = p."account_id" AND a."kind" = 'available' AND a."company_id" IS NOT NULL
  JOIN "ledger_accounts" psp ON psp."company_id" = a."company_id" AND psp."kind" = 'available_at_psp'
  JOIN "ledger_journals" j ON j."id" = p."journal_id"
  WHERE EXISTS (SELECT 1 FROM "transactions" t WHERE t."id" = j."transaction_id" AND t."acquirer_type" = 'api-pix')
     OR EXISTS (SELECT 1 FROM "cash_outs" c WHERE c."id" = j."cash_out_id" AND c."processor" = 'efi-pix-envio');--> statement-breakpoint
UPDATE "ledger_postings" p SET "account_id" = m."to_id" FROM "custody_moved" m WHERE p."id" = m."posting_id";--> statement-breakpoint
UPDATE "ledger_postings" p SET "balance_after" = r."running"
  FROM (SELECT "id", sum("amount") OVER (PARTITION BY "account_id" ORDER BY "id") AS "running"
        FROM "ledger_postings"
        WHERE "account_id" IN (SELECT "from_id" FROM "custody_moved" UNION SELECT "to_id" FROM "custody_moved")) r
  WHERE p."id" = r."id" AND p."balance_after" <> r."running";--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance" = coalesce((SELECT sum(p."amount") FROM "ledger_postings" p WHERE p."account_id" = a."id"), 0)
  WHERE a."id" IN (SELECT "from_id" FROM "custody_moved" UNION SELECT "to_id" FROM "custody_moved");--> statement-breakpoint
DROP TABLE "custody_moved";
