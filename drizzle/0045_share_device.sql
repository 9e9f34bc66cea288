ALTER TABLE "orders" ADD COLUMN "device_key" text;--> statement-breakpoint
ALTER TABLE "share_visits" ADD COLUMN "device_key" text;--> statement-breakpoint
CREATE INDEX "share_visits_device_key" ON "share_visits" USING btree ("channel_id","device_key","visited_at");