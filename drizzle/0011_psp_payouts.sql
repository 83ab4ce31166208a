CREATE TABLE "psp_payouts" (
	"cash_out_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"id_envio" text NOT NULL,
	"payer_key" text NOT NULL,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"psp_status" text,
	"e2e_id" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_payouts_provider_check" CHECK ("psp_payouts"."provider" in ('efi')),
	CONSTRAINT "psp_payouts_id_envio_check" CHECK ("psp_payouts"."id_envio" ~ '^[a-zA-Z0-9]{1,35}$'),
	CONSTRAINT "psp_payouts_attempts_check" CHECK ("psp_payouts"."send_attempts" >= 0),
	CONSTRAINT "psp_payouts_psp_status_check" CHECK ("psp_payouts"."psp_status" in ('EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO'))
);
--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD COLUMN "payout_provider" text;--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD COLUMN "payout_payer_key" text;--> statement-breakpoint
ALTER TABLE "psp_payouts" ADD CONSTRAINT "psp_payouts_cash_out_id_cash_outs_id_fk" FOREIGN KEY ("cash_out_id") REFERENCES "public"."cash_outs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_payouts" ADD CONSTRAINT "psp_payouts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "psp_payouts_id_envio_idx" ON "psp_payouts" USING btree ("provider","id_envio");--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD CONSTRAINT "account_psp_configs_payout_provider_check" CHECK ("account_psp_configs"."payout_provider" is null or ("account_psp_configs"."payout_provider" = 'efi' and "account_psp_configs"."payout_payer_key" is not null));