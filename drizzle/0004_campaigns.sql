CREATE TABLE "campaign_offers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campaign_offers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"campaign_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"commodity_id" integer NOT NULL,
	"total" integer NOT NULL,
	"remaining" integer NOT NULL,
	"limit_per_user" integer DEFAULT 1 NOT NULL,
	"requires_commodity_id" integer,
	"requires_code" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_offers_remaining" CHECK ("campaign_offers"."remaining" >= 0 AND "campaign_offers"."remaining" <= "campaign_offers"."total"),
	CONSTRAINT "campaign_offers_limit_positive" CHECK ("campaign_offers"."limit_per_user" > 0)
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campaigns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaigns_kind" CHECK ("campaigns"."kind" in ('gift', 'exchange'))
);
--> statement-breakpoint
CREATE TABLE "chain_campaigns" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_campaigns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover" text NOT NULL,
	"commodity_id" integer NOT NULL,
	"author_stage_name" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"campaign_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"type" integer NOT NULL,
	"used_by" integer,
	"used_at" timestamp with time zone,
	CONSTRAINT "chain_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "chain_records" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"chain_code_id" integer NOT NULL,
	"store_code" text NOT NULL,
	"holding_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_records_chain_code_id_unique" UNIQUE("chain_code_id")
);
--> statement-breakpoint
CREATE TABLE "code_attempts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "code_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"user_id" integer,
	"ip" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offer_claims" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "offer_claims_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"offer_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"holding_id" integer NOT NULL,
	"redeem_code_id" integer,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offer_inputs" (
	"offer_id" integer NOT NULL,
	"commodity_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "offer_inputs_quantity_positive" CHECK ("offer_inputs"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "offer_quotas" (
	"offer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"taken" integer NOT NULL,
	"max_taken" integer NOT NULL,
	CONSTRAINT "offer_quotas_within_limit" CHECK ("offer_quotas"."taken" >= 0 AND "offer_quotas"."taken" <= "offer_quotas"."max_taken")
);
--> statement-breakpoint
CREATE TABLE "redeem_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"offer_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_by" integer,
	"used_at" timestamp with time zone,
	CONSTRAINT "redeem_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "source" text DEFAULT 'order' NOT NULL;--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "destroyed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "destroyed_by_exchange_id" integer;--> statement-breakpoint
ALTER TABLE "campaign_offers" ADD CONSTRAINT "campaign_offers_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_offers" ADD CONSTRAINT "campaign_offers_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_offers" ADD CONSTRAINT "campaign_offers_commodity_id_commodities_id_fk" FOREIGN KEY ("commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_offers" ADD CONSTRAINT "campaign_offers_requires_commodity_id_commodities_id_fk" FOREIGN KEY ("requires_commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_campaigns" ADD CONSTRAINT "chain_campaigns_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_campaigns" ADD CONSTRAINT "chain_campaigns_commodity_id_commodities_id_fk" FOREIGN KEY ("commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_codes" ADD CONSTRAINT "chain_codes_campaign_id_chain_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."chain_campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_codes" ADD CONSTRAINT "chain_codes_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_records" ADD CONSTRAINT "chain_records_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_records" ADD CONSTRAINT "chain_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_records" ADD CONSTRAINT "chain_records_campaign_id_chain_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."chain_campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_records" ADD CONSTRAINT "chain_records_chain_code_id_chain_codes_id_fk" FOREIGN KEY ("chain_code_id") REFERENCES "public"."chain_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_records" ADD CONSTRAINT "chain_records_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_attempts" ADD CONSTRAINT "code_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_offer_id_campaign_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."campaign_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_claims" ADD CONSTRAINT "offer_claims_redeem_code_id_redeem_codes_id_fk" FOREIGN KEY ("redeem_code_id") REFERENCES "public"."redeem_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_inputs" ADD CONSTRAINT "offer_inputs_offer_id_campaign_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."campaign_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_inputs" ADD CONSTRAINT "offer_inputs_commodity_id_commodities_id_fk" FOREIGN KEY ("commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_quotas" ADD CONSTRAINT "offer_quotas_offer_id_campaign_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."campaign_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_quotas" ADD CONSTRAINT "offer_quotas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_offer_id_campaign_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."campaign_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_codes" ADD CONSTRAINT "redeem_codes_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_offers_campaign" ON "campaign_offers" USING btree ("campaign_id");--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_channel_code" ON "campaigns" USING btree ("channel_id","code");--> statement-breakpoint
CREATE INDEX "campaigns_channel_kind" ON "campaigns" USING btree ("channel_id","kind");--> statement-breakpoint
CREATE INDEX "chain_campaigns_channel" ON "chain_campaigns" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "chain_codes_campaign" ON "chain_codes" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "chain_records_user_channel" ON "chain_records" USING btree ("user_id","channel_id","created_at");--> statement-breakpoint
CREATE INDEX "code_attempts_user" ON "code_attempts" USING btree ("kind","user_id","created_at");--> statement-breakpoint
CREATE INDEX "code_attempts_ip" ON "code_attempts" USING btree ("kind","ip","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_claims_user_key" ON "offer_claims" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "offer_claims_user_channel" ON "offer_claims" USING btree ("user_id","channel_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_inputs_pair" ON "offer_inputs" USING btree ("offer_id","commodity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_quotas_pair" ON "offer_quotas" USING btree ("offer_id","user_id");--> statement-breakpoint
CREATE INDEX "redeem_codes_offer" ON "redeem_codes" USING btree ("offer_id");