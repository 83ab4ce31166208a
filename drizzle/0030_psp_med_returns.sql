ALTER TABLE "psp_refunds" ADD COLUMN "initiated_by" text DEFAULT 'merchant' NOT NULL;--> statement-breakpoint
ALTER TABLE "psp_refunds" ADD COLUMN "natureza" text;--> statement-breakpoint
ALTER TABLE "psp_refunds" ADD COLUMN "motivo" text;--> statement-breakpoint
ALTER TABLE "psp_refunds" ADD CONSTRAINT "psp_refunds_initiated_by_check" CHECK ("psp_refunds"."initiated_by" in ('merchant', 'psp'));