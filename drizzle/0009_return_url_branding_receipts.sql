CREATE TABLE "company_branding" (
	"company_id" bigint PRIMARY KEY NOT NULL,
	"display_name" text,
	"brand_color" text,
	"support_email" text,
	"support_phone" text,
	"logo" "bytea",
	"logo_type" text,
	"logo_sha256" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "return_url" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "return_url" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "receipt_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "company_branding" ADD CONSTRAINT "company_branding_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_branding_logo_idx" ON "company_branding" USING btree ("logo_sha256");