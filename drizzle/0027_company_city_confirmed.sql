ALTER TABLE "companies" ADD COLUMN "city_confirmed_at" timestamp with time zone;--> statement-breakpoint
-- An account whose city is no longer the default put in at creation had it set by its merchant.
UPDATE "companies" SET "city_confirmed_at" = "created_at" WHERE "city" <> 'SAO PAULO';
