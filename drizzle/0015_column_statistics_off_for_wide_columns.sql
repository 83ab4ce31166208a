-- No planner statistics for the wide columns no query filters, joins or sorts by. ANALYZE samples up
-- to 30,000 rows and, for every column, sorts the sample to find its common values and histogram; for a
-- JSON document that is a comparison of whole documents. On the embedded database ANALYZE runs on the
-- app's one thread (lib/db/maintenance.ts), so every request waits for it: at 40,000 events, analyzing
-- webhook_events took about 2 s, 0.2 s without its payload's statistics. The planner never reads these
-- statistics (the list's search by the customer's name reads an expression of `customer`, which has
-- none of its own either), so no plan changes. Statistics target 0 = none gathered (ALTER TABLE ... SET
-- STATISTICS); drizzle's schema cannot state it, so the schema's files name these columns.
ALTER TABLE "webhook_events" ALTER COLUMN "payload" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "customer" SET STATISTICS 0, ALTER COLUMN "items" SET STATISTICS 0, ALTER COLUMN "shipping" SET STATISTICS 0, ALTER COLUMN "pix_qrcode" SET STATISTICS 0, ALTER COLUMN "boleto_barcode" SET STATISTICS 0, ALTER COLUMN "boleto_digitable_line" SET STATISTICS 0, ALTER COLUMN "metadata" SET STATISTICS 0, ALTER COLUMN "postback_url" SET STATISTICS 0, ALTER COLUMN "return_url" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "checkouts" ALTER COLUMN "items" SET STATISTICS 0, ALTER COLUMN "methods" SET STATISTICS 0, ALTER COLUMN "installment_plan" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ALTER COLUMN "response_excerpt" SET STATISTICS 0, ALTER COLUMN "error" SET STATISTICS 0;
