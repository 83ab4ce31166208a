CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_document_type_check" CHECK ("companies"."document_type" in ('cpf', 'cnpj'));--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_pix_key_type_check" CHECK ("companies"."pix_key_type" in ('cpf', 'cnpj', 'email', 'phone', 'evp'));--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_status_check" CHECK ("checkouts"."status" in ('open', 'paid', 'expired'));--> statement-breakpoint
ALTER TABLE "transaction_status_changes" ADD CONSTRAINT "transaction_status_changes_from_check" CHECK ("transaction_status_changes"."from_status" in ('pending', 'processing', 'paid', 'approved', 'refused', 'refunded', 'chargedback', 'in_protest'));--> statement-breakpoint
ALTER TABLE "transaction_status_changes" ADD CONSTRAINT "transaction_status_changes_to_check" CHECK ("transaction_status_changes"."to_status" in ('pending', 'processing', 'paid', 'approved', 'refused', 'refunded', 'chargedback', 'in_protest'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_check" CHECK ("transactions"."status" in ('pending', 'processing', 'paid', 'approved', 'refused', 'refunded', 'chargedback', 'in_protest'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_payment_method_check" CHECK ("transactions"."payment_method" in ('pix', 'boleto', 'credit_card'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_delivery_status_check" CHECK ("transactions"."delivery_status" in ('waiting', 'in_transit', 'delivered'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('available', 'waiting_funds', 'reserved', 'platform_fees', 'acquirer_clearing', 'psp_clearing'));--> statement-breakpoint
ALTER TABLE "ledger_journals" ADD CONSTRAINT "ledger_journals_kind_check" CHECK ("ledger_journals"."kind" in ('payment', 'refund', 'chargeback', 'chargeback_reversal', 'settlement', 'cash_out', 'cash_out_reversal', 'adjustment'));--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_entry_type_check" CHECK ("ledger_postings"."entry_type" in ('payment', 'fee', 'refund', 'chargeback', 'chargeback_reversal', 'cash_out', 'cash_out_fee', 'cash_out_reversal', 'settlement', 'adjustment'));--> statement-breakpoint
ALTER TABLE "cash_outs" ADD CONSTRAINT "cash_outs_status_check" CHECK ("cash_outs"."status" in ('pending', 'processing', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "cash_outs" ADD CONSTRAINT "cash_outs_pix_key_type_check" CHECK ("cash_outs"."pix_key_type" in ('cpf', 'cnpj', 'email', 'phone', 'evp'));--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_type_check" CHECK ("webhook_events"."type" in ('transaction', 'cash_out'));--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_delivery_state_check" CHECK ("webhook_events"."delivery_state" in ('pending', 'succeeded', 'failed', 'skipped', 'abandoned'));