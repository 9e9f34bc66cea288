CREATE TABLE "blind_box_prizes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "blind_box_prizes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"box_commodity_id" integer NOT NULL,
	"prize_commodity_id" integer NOT NULL,
	"weight" integer NOT NULL,
	CONSTRAINT "blind_box_prizes_weight_positive" CHECK ("blind_box_prizes"."weight" > 0)
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"host" text NOT NULL,
	"name" text NOT NULL,
	"brand_name" text NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"label_list" text NOT NULL,
	"is_have_theme" boolean DEFAULT true NOT NULL,
	"market_text" text DEFAULT '' NOT NULL,
	"buy_text" text DEFAULT '' NOT NULL,
	"exchange_text" text DEFAULT '' NOT NULL,
	"privacy_text" text DEFAULT '' NOT NULL,
	"sales_strategy_text" text DEFAULT '' NOT NULL,
	"skin_json" text DEFAULT '{}' NOT NULL,
	"locale" text,
	"time_zone" text DEFAULT 'Asia/Shanghai' NOT NULL,
	"app_scheme" text,
	"app_download_url" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channels_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "commodities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "commodities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"cover" text NOT NULL,
	"actual_picture" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"amount_sku" integer NOT NULL,
	"chain_name" text NOT NULL,
	"chain_contract" text NOT NULL,
	"contract_address" text NOT NULL,
	"author_name" text NOT NULL,
	"author_cover" text NOT NULL,
	"publisher_name" text NOT NULL,
	"series_name" text,
	"is_blind_box" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commodities_amount_sku_positive" CHECK ("commodities"."amount_sku" > 0)
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sales_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"commodity_id" integer NOT NULL,
	"code" text NOT NULL,
	"price" integer NOT NULL,
	"amount" integer NOT NULL,
	"amount_available" integer NOT NULL,
	"limit_per_user" integer DEFAULT 1 NOT NULL,
	"sale_start_time" timestamp with time zone NOT NULL,
	"sale_end_time" timestamp with time zone,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_price_non_negative" CHECK ("sales"."price" >= 0),
	CONSTRAINT "sales_stock_in_range" CHECK ("sales"."amount_available" >= 0 AND "sales"."amount_available" <= "sales"."amount")
);
--> statement-breakpoint
CREATE TABLE "store_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "store_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blind_box_prizes" ADD CONSTRAINT "blind_box_prizes_box_commodity_id_commodities_id_fk" FOREIGN KEY ("box_commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blind_box_prizes" ADD CONSTRAINT "blind_box_prizes_prize_commodity_id_commodities_id_fk" FOREIGN KEY ("prize_commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commodities" ADD CONSTRAINT "commodities_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_commodity_id_commodities_id_fk" FOREIGN KEY ("commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_codes" ADD CONSTRAINT "store_codes_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blind_box_prizes_pair" ON "blind_box_prizes" USING btree ("box_commodity_id","prize_commodity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "commodities_channel_code" ON "commodities" USING btree ("channel_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_channel_code" ON "sales" USING btree ("channel_id","code");--> statement-breakpoint
CREATE INDEX "sales_channel_sort" ON "sales" USING btree ("channel_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "store_codes_channel_code" ON "store_codes" USING btree ("channel_id","code");