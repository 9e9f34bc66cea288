CREATE TABLE "share_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_visits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "share_visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"sharer_id" integer NOT NULL,
	"sale_id" integer,
	"device_id" text NOT NULL,
	"visitor_id" integer,
	"visited_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_channel_days" ADD COLUMN "share_visits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_channel_days" ADD COLUMN "share_buys" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "share_codes" ADD CONSTRAINT "share_codes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_codes" ADD CONSTRAINT "share_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_visits" ADD CONSTRAINT "share_visits_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_visits" ADD CONSTRAINT "share_visits_sharer_id_users_id_fk" FOREIGN KEY ("sharer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_visits" ADD CONSTRAINT "share_visits_visitor_id_users_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "share_codes_channel_user" ON "share_codes" USING btree ("channel_id","user_id");--> statement-breakpoint
CREATE INDEX "share_visits_device" ON "share_visits" USING btree ("channel_id","device_id","visited_at");--> statement-breakpoint
CREATE INDEX "share_visits_visitor" ON "share_visits" USING btree ("channel_id","visitor_id","visited_at");--> statement-breakpoint
CREATE INDEX "share_visits_sharer" ON "share_visits" USING btree ("sharer_id","visited_at");--> statement-breakpoint
CREATE INDEX "share_visits_day" ON "share_visits" USING btree ("channel_id","visited_at");