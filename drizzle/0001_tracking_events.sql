CREATE TABLE "tracking_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracking_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"event_type" text NOT NULL,
	"page_id" text NOT NULL,
	"session_id" text NOT NULL,
	"serv_time" timestamp with time zone DEFAULT now() NOT NULL,
	"record" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracking_events" ADD CONSTRAINT "tracking_events_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracking_events_channel_time" ON "tracking_events" USING btree ("channel_id","serv_time");