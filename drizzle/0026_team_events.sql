CREATE TABLE "team_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "team_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" bigint NOT NULL,
	"actor_user_id" bigint NOT NULL,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"target_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_events_action_check" CHECK ("team_events"."action" in ('invited', 'invitation_cancelled', 'joined', 'removed'))
);
--> statement-breakpoint
ALTER TABLE "team_events" ADD CONSTRAINT "team_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_events_company_at_idx" ON "team_events" USING btree ("company_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);