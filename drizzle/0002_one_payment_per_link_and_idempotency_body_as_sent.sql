ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "duplicate_of_id" bigint;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "response_content_type" text;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_one_payment_per_link_idx" ON "transactions" USING btree ("checkout_id") WHERE "transactions"."checkout_id" is not null and "transactions"."paid_at" is not null and "transactions"."duplicate_of_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_retry_of_idx" ON "transactions" USING btree ("retry_of_id") WHERE "transactions"."retry_of_id" is not null;