-- The lists' indexes in the order their queries ask for. `ORDER BY created_at DESC, id DESC` means
-- NULLS FIRST in PostgreSQL; these indexes were DESC NULLS LAST, which such an ORDER BY cannot use, so
-- every list page read and sorted all of the account's rows (a top-N sort growing with the account).
-- With NULLS FIRST (the columns are NOT NULL: no row moves) a page is read from the index, 20 rows.
DROP INDEX "checkouts_company_idx";--> statement-breakpoint
DROP INDEX "transactions_company_created_idx";--> statement-breakpoint
DROP INDEX "ledger_postings_account_idx";--> statement-breakpoint
DROP INDEX "cash_outs_company_idx";--> statement-breakpoint
CREATE INDEX "checkouts_company_idx" ON "checkouts" USING btree ("company_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transactions_company_created_idx" ON "transactions" USING btree ("company_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ledger_postings_account_idx" ON "ledger_postings" USING btree ("account_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "cash_outs_company_idx" ON "cash_outs" USING btree ("company_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);