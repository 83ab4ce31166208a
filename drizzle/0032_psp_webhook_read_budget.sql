ALTER TABLE "account_psp_configs" ADD COLUMN "unknown_reads_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD COLUMN "unknown_reads" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "psp_charges" ADD COLUMN "notified_reads_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "psp_charges" ADD COLUMN "notified_reads" integer DEFAULT 0 NOT NULL;