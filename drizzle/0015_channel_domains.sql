CREATE TABLE "channel_domains" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_domains_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"host" text NOT NULL,
	"channel_id" integer NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"problem" text,
	"token" text NOT NULL,
	"proven_by" text DEFAULT 'txt' NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_checked_at" timestamp with time zone,
	"verified_since" timestamp with time zone,
	"failing_since" timestamp with time zone,
	CONSTRAINT "channel_domains_host_unique" UNIQUE("host"),
	CONSTRAINT "channel_domains_status" CHECK ("channel_domains"."status" in ('pending', 'verified', 'misconfigured', 'removed')),
	CONSTRAINT "channel_domains_problem" CHECK ("channel_domains"."problem" is null or "channel_domains"."problem" in ('txt_missing', 'txt_wrong', 'points_elsewhere')),
	CONSTRAINT "channel_domains_proven_by" CHECK ("channel_domains"."proven_by" in ('txt', 'setup')),
	CONSTRAINT "channel_domains_host_lower" CHECK ("channel_domains"."host" = lower("channel_domains"."host"))
);
--> statement-breakpoint
ALTER TABLE "channel_domains" ADD CONSTRAINT "channel_domains_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_domains_one_primary" ON "channel_domains" USING btree ("channel_id") WHERE "channel_domains"."is_primary";--> statement-breakpoint
CREATE INDEX "channel_domains_channel" ON "channel_domains" USING btree ("channel_id");--> statement-breakpoint
-- Hand-written (issue 31): the hosts the deployment served before domains existed (docs/deploy.md §8, each channel's
-- `host`) become verified domains, trusted as set up (`proven_by` 'setup': never re-checked), and not primary, so
-- nothing redirects that did not before. Only plain host names (a host stored with a port is left to the key rule).
INSERT INTO "channel_domains" ("host", "channel_id", "is_primary", "status", "token", "proven_by", "verified_since", "last_checked_at")
SELECT lower(rtrim("host", '.')), "id", false, 'verified', md5(random()::text || clock_timestamp()::text || "id"::text), 'setup', now(), now()
FROM "channels"
WHERE rtrim("host", '.') ~ '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$'
ON CONFLICT ("host") DO NOTHING;
