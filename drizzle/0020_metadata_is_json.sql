-- Whether metadata was sent as JSON (an object or an array) rather than as a string: /v1 returns it as it was sent (docs/switching.md). Rows from before are false: read back as the text, as always.
ALTER TABLE "checkouts" ADD COLUMN "metadata_is_json" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "metadata_is_json" boolean DEFAULT false NOT NULL;