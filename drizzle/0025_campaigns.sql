CREATE TABLE "redeem_code_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_code_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"offer_id" integer NOT NULL,
	"size" integer NOT NULL,
	"source" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_by_name" text NOT NULL,
	"sealed_codes" text,
	"exported_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "redeem_code_batches_source" CHECK ("redeem_code_batches"."source" in ('generated', 'imported')),
	CONSTRAINT "redeem_code_batches_size_positive" CHECK ("redeem_code_batches"."size" > 0)
);
--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD COLUMN "batch_id" integer;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "redeem_code_batches" ADD CONSTRAINT "redeem_code_batches_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_code_batches" ADD CONSTRAINT "redeem_code_batches_offer_id_campaign_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."campaign_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_code_batches" ADD CONSTRAINT "redeem_code_batches_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redeem_code_batches_offer" ON "redeem_code_batches" USING btree ("offer_id");--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_batch_id_redeem_code_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."redeem_code_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redeem_codes_batch" ON "redeem_codes" USING btree ("batch_id");