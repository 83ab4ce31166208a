ALTER TABLE "psp_pix_received" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "psp_pix_received" ADD COLUMN "due_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "psp_pix_received_due_idx" ON "psp_pix_received" USING btree ("company_id","next_check_at") WHERE "psp_pix_received"."next_check_at" is not null;