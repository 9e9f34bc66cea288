CREATE TABLE "box_draws" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "box_draws_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"box_holding_id" integer NOT NULL,
	"prize_holding_id" integer NOT NULL,
	"prize_commodity_id" integer NOT NULL,
	"roll" integer NOT NULL,
	"total_weight" integer NOT NULL,
	"weights" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "box_draws_box_holding_id_unique" UNIQUE("box_holding_id")
);
--> statement-breakpoint
CREATE TABLE "chain_ledger" (
	"height" integer PRIMARY KEY NOT NULL,
	"prev_hash" text NOT NULL,
	"tx_hash" text NOT NULL,
	"holding_id" integer NOT NULL,
	"token_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_ledger_tx_hash_unique" UNIQUE("tx_hash"),
	CONSTRAINT "chain_ledger_holding_id_unique" UNIQUE("holding_id")
);
--> statement-breakpoint
CREATE TABLE "edition_counters" (
	"commodity_id" integer PRIMARY KEY NOT NULL,
	"minted" integer NOT NULL,
	"amount_sku" integer NOT NULL,
	CONSTRAINT "edition_counters_within_edition" CHECK ("edition_counters"."minted" >= 0 AND "edition_counters"."minted" <= "edition_counters"."amount_sku")
);
--> statement-breakpoint
CREATE TABLE "holdings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "holdings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"commodity_id" integer NOT NULL,
	"number" integer NOT NULL,
	"order_id" integer,
	"from_box_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"chain_status" integer DEFAULT 0 NOT NULL,
	"token_id" text,
	"trade_hash" text
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_no" text NOT NULL,
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sale_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"price" integer NOT NULL,
	"amount" integer NOT NULL,
	"status_trade" integer DEFAULT 0 NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"pay_time" timestamp with time zone,
	"cancel_time" timestamp with time zone,
	"cancel_reason" text,
	CONSTRAINT "orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "orders_quantity_positive" CHECK ("orders"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"payment_no" text NOT NULL,
	"order_id" integer NOT NULL,
	"provider" text NOT NULL,
	"amount" integer NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"provider_trade_no" text,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"notifications" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "payments_payment_no_unique" UNIQUE("payment_no")
);
--> statement-breakpoint
CREATE TABLE "sale_quotas" (
	"sale_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reserved" integer NOT NULL,
	"max_reserved" integer NOT NULL,
	CONSTRAINT "sale_quotas_within_limit" CHECK ("sale_quotas"."reserved" >= 0 AND "sale_quotas"."reserved" <= "sale_quotas"."max_reserved")
);
--> statement-breakpoint
CREATE TABLE "sandbox_transactions" (
	"payment_no" text PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_transactions_trade_no_unique" UNIQUE("trade_no")
);
--> statement-breakpoint
ALTER TABLE "box_draws" ADD CONSTRAINT "box_draws_box_holding_id_holdings_id_fk" FOREIGN KEY ("box_holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_draws" ADD CONSTRAINT "box_draws_prize_holding_id_holdings_id_fk" FOREIGN KEY ("prize_holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_draws" ADD CONSTRAINT "box_draws_prize_commodity_id_commodities_id_fk" FOREIGN KEY ("prize_commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_ledger" ADD CONSTRAINT "chain_ledger_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edition_counters" ADD CONSTRAINT "edition_counters_commodity_id_commodities_id_fk" FOREIGN KEY ("commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_commodity_id_commodities_id_fk" FOREIGN KEY ("commodity_id") REFERENCES "public"."commodities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holdings" ADD CONSTRAINT "holdings_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_quotas" ADD CONSTRAINT "sale_quotas_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_quotas" ADD CONSTRAINT "sale_quotas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "holdings_commodity_number" ON "holdings" USING btree ("commodity_id","number");--> statement-breakpoint
CREATE INDEX "holdings_user_channel" ON "holdings" USING btree ("user_id","channel_id","created_at");--> statement-breakpoint
CREATE INDEX "holdings_chain_pending" ON "holdings" USING btree ("chain_status");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_user_created" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_open_expiry" ON "orders" USING btree ("status_trade","expires_at");--> statement-breakpoint
CREATE INDEX "payments_order" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_quotas_sale_user" ON "sale_quotas" USING btree ("sale_id","user_id");