ALTER TABLE "account_psp_configs" ADD COLUMN "client_auth" text DEFAULT 'basic' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD COLUMN "scope" text;--> statement-breakpoint
-- A configuration saved before this version asked its token with no scope and worked so: it keeps
-- doing that ("" sends none), whether it takes new charges (api-pix) or only follows its earlier ones
-- (switched back to the sandbox, credentials kept). Only configurations saved from now on ask the API
-- Pix scopes (null).
UPDATE "account_psp_configs" SET "scope" = '' WHERE "client_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD CONSTRAINT "account_psp_configs_client_auth_check" CHECK ("account_psp_configs"."client_auth" in ('basic', 'body'));
