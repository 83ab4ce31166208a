ALTER TABLE "transactions" ADD COLUMN "dialect" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "dialect" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_dialect_check" CHECK ("transactions"."dialect" in ('api', 'v1'));--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_dialect_check" CHECK ("webhook_events"."dialect" in ('api', 'v1'));