ALTER TABLE "transactions" ADD COLUMN "installment_plan" jsonb;--> statement-breakpoint
-- A card charge's own plan, kept for a retry with another card. No query filters by it (see 0015).
ALTER TABLE "transactions" ALTER COLUMN "installment_plan" SET STATISTICS 0;
