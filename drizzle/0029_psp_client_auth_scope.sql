ALTER TABLE "account_psp_configs" ADD COLUMN "client_auth" text DEFAULT 'basic' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD COLUMN "scope" text;--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD CONSTRAINT "account_psp_configs_client_auth_check" CHECK ("account_psp_configs"."client_auth" in ('basic', 'body'));