-- A refund asked of the merchant's PSP that reached its end (done or failed) is notified with `type: "refund"` (docs/api.md, Webhooks).
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_type_check";--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_type_check" CHECK ("webhook_events"."type" in ('transaction', 'cash_out', 'refund'));