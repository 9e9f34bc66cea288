ALTER TABLE "payments" ADD COLUMN "client" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payer_openid" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "start" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "next_query_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "queries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "queried_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_due" ON "payments" USING btree ("next_query_at") WHERE "payments"."status" in (0, 4);