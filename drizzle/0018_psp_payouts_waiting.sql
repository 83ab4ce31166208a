ALTER TABLE "psp_payouts" ADD COLUMN "last_error_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "psp_payouts" ADD COLUMN "may_have_reached_psp" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "psp_payouts" ADD COLUMN "send_in_flight" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "psp_payouts" ADD COLUMN "not_configured_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "psp_payouts" ADD COLUMN "not_found_since" timestamp with time zone;--> statement-breakpoint
-- Cash-outs already tried before this migration: what their attempts were is not known, so each one counts as possibly at the PSP (never failed for incomplete settings).
UPDATE "psp_payouts" SET "may_have_reached_psp" = true, "last_error_since" = CASE WHEN "last_error" IS NULL THEN NULL ELSE "updated_at" END WHERE "send_attempts" > 0 OR "psp_status" IS NOT NULL;
