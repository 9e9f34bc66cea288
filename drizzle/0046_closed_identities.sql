CREATE TABLE "avatar_photos" (
	"key" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL,
	"unused_since" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "buyer_identities" DROP CONSTRAINT "buyer_identities_id_hash_unique";--> statement-breakpoint
ALTER TABLE "buyer_identities" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_identities_open_id_hash" ON "buyer_identities" USING btree ("id_hash") WHERE "buyer_identities"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "buyer_identities_id_hash" ON "buyer_identities" USING btree ("id_hash");--> statement-breakpoint
-- Hand-added backfill (issue 36): accounts closed before this migration mark their kept identity closed too.
UPDATE "buyer_identities" SET "closed_at" = "users"."closed_at" FROM "users" WHERE "users"."id" = "buyer_identities"."user_id" AND "users"."closed_at" IS NOT NULL;--> statement-breakpoint
-- Hand-added backfill (issue 36): photos that are avatars now are known to the sweep.
INSERT INTO "avatar_photos" ("key", "url", "uploaded_at") SELECT substring("avatar" from '[0-9a-f]{64}\.webp$'), "avatar", now() FROM "users" WHERE "avatar" ~ '[0-9a-f]{64}\.webp$' ON CONFLICT DO NOTHING;
