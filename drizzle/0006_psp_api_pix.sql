CREATE TABLE "account_psp_configs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_psp_configs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" bigint NOT NULL,
	"processor" text NOT NULL,
	"base_url" text,
	"token_url" text,
	"client_id" text,
	"client_secret_enc" text,
	"cert_pem" text,
	"key_pem_enc" text,
	"pkcs12_enc" text,
	"pkcs12_password_enc" text,
	"ca_pem" text,
	"pix_key" text,
	"webhook_token" text NOT NULL,
	"webhook_registered_at" timestamp with time zone,
	"webhook_url" text,
	"pix_scanned_until" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "psp_charges" (
	"transaction_id" bigint PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"txid" text NOT NULL,
	"amount" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"e2eid" text,
	"next_check_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "psp_pix_received" (
	"e2eid" text PRIMARY KEY NOT NULL,
	"company_id" bigint NOT NULL,
	"transaction_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"decision" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "psp_refunds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "psp_refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" bigint NOT NULL,
	"transaction_id" bigint NOT NULL,
	"e2eid" text NOT NULL,
	"devolucao_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"rtr_id" text,
	"fail_reason" text,
	"next_check_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_psp_configs" ADD CONSTRAINT "account_psp_configs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_charges" ADD CONSTRAINT "psp_charges_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_charges" ADD CONSTRAINT "psp_charges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_pix_received" ADD CONSTRAINT "psp_pix_received_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_pix_received" ADD CONSTRAINT "psp_pix_received_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_refunds" ADD CONSTRAINT "psp_refunds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_refunds" ADD CONSTRAINT "psp_refunds_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_psp_configs_company_idx" ON "account_psp_configs" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "account_psp_configs_webhook_token_idx" ON "account_psp_configs" USING btree ("webhook_token");--> statement-breakpoint
CREATE UNIQUE INDEX "psp_charges_company_txid_idx" ON "psp_charges" USING btree ("company_id","txid");--> statement-breakpoint
CREATE INDEX "psp_charges_due_idx" ON "psp_charges" USING btree ("next_check_at") WHERE "psp_charges"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "psp_pix_received_tx_idx" ON "psp_pix_received" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "psp_refunds_devolucao_idx" ON "psp_refunds" USING btree ("e2eid","devolucao_id");--> statement-breakpoint
CREATE INDEX "psp_refunds_tx_idx" ON "psp_refunds" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "psp_refunds_open_idx" ON "psp_refunds" USING btree ("next_check_at") WHERE "psp_refunds"."status" in ('requested', 'processing');