-- Fewer index entries per money write. Every read of webhook_events by ordering key asks for pending
-- events, which webhook_events_pending_order_idx holds, so the index over all events by key only cost
-- an entry per event. An event or a journal belongs to a transaction or to a cash-out, and every read
-- of these columns is `= id`: partial indexes (NOT NULL) hold only the rows a read can find, so an
-- insert writes one entry, not one for the id and one for the NULL of the other column.
DROP INDEX "webhook_events_ordering_idx";--> statement-breakpoint
DROP INDEX "ledger_journals_tx_idx";--> statement-breakpoint
DROP INDEX "ledger_journals_cash_out_idx";--> statement-breakpoint
DROP INDEX "webhook_events_tx_idx";--> statement-breakpoint
DROP INDEX "webhook_events_cash_out_idx";--> statement-breakpoint
CREATE INDEX "ledger_journals_tx_idx" ON "ledger_journals" USING btree ("transaction_id") WHERE "ledger_journals"."transaction_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_journals_cash_out_idx" ON "ledger_journals" USING btree ("cash_out_id") WHERE "ledger_journals"."cash_out_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_tx_idx" ON "webhook_events" USING btree ("transaction_id") WHERE "webhook_events"."transaction_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_cash_out_idx" ON "webhook_events" USING btree ("cash_out_id") WHERE "webhook_events"."cash_out_id" is not null;