ALTER TABLE "holdings" ADD COLUMN "share_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "holdings_share_code" ON "holdings" USING btree ("share_code");