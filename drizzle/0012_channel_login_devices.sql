CREATE TABLE "channel_login_devices" (
	"channel_id" integer NOT NULL,
	"device_hash" text NOT NULL,
	"last_login_at" timestamp with time zone NOT NULL,
	CONSTRAINT "channel_login_devices_channel_id_device_hash_pk" PRIMARY KEY("channel_id","device_hash")
);
--> statement-breakpoint
ALTER TABLE "channel_login_devices" ADD CONSTRAINT "channel_login_devices_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_login_devices_last_login" ON "channel_login_devices" USING btree ("last_login_at");