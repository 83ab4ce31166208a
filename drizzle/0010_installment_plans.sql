ALTER TABLE "companies" ADD COLUMN "installment_max" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "installment_interest_free" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "installment_monthly_rate_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "installment_plan" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_installment_max_check" CHECK ("companies"."installment_max" between 1 and 12);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_installment_interest_free_check" CHECK ("companies"."installment_interest_free" between 1 and "companies"."installment_max");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_installment_monthly_rate_check" CHECK ("companies"."installment_monthly_rate_bp" between 0 and 1000);