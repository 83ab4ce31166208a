ALTER TABLE "checkouts" ADD COLUMN "return_url" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "return_url" text;