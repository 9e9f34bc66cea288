CREATE TABLE "sale_priority" (
	"sale_id" integer PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"minutes_early" integer NOT NULL,
	"holder_commodity_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"min_paid_orders" integer,
	"decide_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"eligible_count" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sale_priority_minutes_early" CHECK ("sale_priority"."minutes_early" between 1 and 1440),
	CONSTRAINT "sale_priority_min_paid_orders" CHECK ("sale_priority"."min_paid_orders" is null or "sale_priority"."min_paid_orders" >= 1),
	CONSTRAINT "sale_priority_decided" CHECK (("sale_priority"."decided_at" is null) = ("sale_priority"."eligible_count" is null))
);
--> statement-breakpoint
CREATE TABLE "sale_priority_buyers" (
	"sale_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reasons" text[] NOT NULL,
	CONSTRAINT "sale_priority_buyers_sale_id_user_id_pk" PRIMARY KEY("sale_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sale_priority_whitelist" (
	"sale_id" integer NOT NULL,
	"account_number" text NOT NULL,
	CONSTRAINT "sale_priority_whitelist_sale_id_account_number_pk" PRIMARY KEY("sale_id","account_number")
);
--> statement-breakpoint
ALTER TABLE "sale_priority" ADD CONSTRAINT "sale_priority_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_priority" ADD CONSTRAINT "sale_priority_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_priority_whitelist" ADD CONSTRAINT "sale_priority_whitelist_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sale_priority_due" ON "sale_priority" USING btree ("decide_at") WHERE "sale_priority"."decided_at" is null;
--> statement-breakpoint
-- Priority purchase (优先购, issue 35; lib/sale/priority.ts): an eligible buyer's order is taken from their own opening,
-- the sale's opening less its minutes early. The server passes that opening (`p_opens_at`, from its cached terms and one
-- indexed read of the buyer's eligibility; null for everyone else, whose check is the sale's opening as before). The
-- statement itself holds the floor: an order before the sale's opening is taken only when the sale's priority was
-- decided, the buyer is among its eligible buyers, and their opening is not before the sale's opening less its minutes
-- early. A sale without priority never reads the priority tables: its opening passed, the first test is true.
-- Otherwise as 0027_claim_copies_terms.sql.
DROP FUNCTION "claim_copies"(integer, integer, integer, integer, integer, text, integer, text, timestamptz, timestamptz);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "claim_copies"(
  "p_sale_id" integer,
  "p_user_id" integer,
  "p_channel_id" integer,
  "p_quantity" integer,
  "p_limit_per_user" integer,
  "p_order_no" text,
  "p_price" integer,
  "p_idempotency_key" text,
  "p_created_at" timestamptz,
  "p_expires_at" timestamptz,
  "p_opens_at" timestamptz,
  OUT "order_id" integer,
  OUT "made" boolean,
  OUT "order_channel_id" integer,
  OUT "order_sale_id" integer,
  OUT "order_quantity" integer
) AS $$
DECLARE
  "left" integer;
  "same_terms" boolean;
BEGIN
  SELECT "id", "channel_id", "sale_id", "quantity" INTO "order_id", "order_channel_id", "order_sale_id", "order_quantity"
    FROM "orders" WHERE "user_id" = "p_user_id" AND "idempotency_key" = "p_idempotency_key";
  IF FOUND THEN
    "made" := false;
    RETURN;
  END IF;
  SELECT "amount_available" INTO "left" FROM "sales" WHERE "id" = "p_sale_id";
  IF coalesce("left", 0) < "p_quantity" THEN
    RAISE EXCEPTION USING ERRCODE = 'SFOUT', MESSAGE = 'fewer copies left than asked', DETAIL = coalesce("left", 0)::text;
  END IF;
  INSERT INTO "sale_quotas" ("sale_id", "user_id", "reserved", "max_reserved")
    VALUES ("p_sale_id", "p_user_id", "p_quantity", "p_limit_per_user")
    ON CONFLICT ("sale_id", "user_id") DO UPDATE SET "reserved" = "sale_quotas"."reserved" + excluded."reserved"
    WHERE "sale_quotas"."reserved" + excluded."reserved" <= "sale_quotas"."max_reserved";
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'SFLIM', MESSAGE = 'the per-user limit of this sale is reached';
  END IF;
  INSERT INTO "orders" ("order_no", "channel_id", "user_id", "sale_id", "quantity", "price", "amount", "status_trade",
      "idempotency_key", "created_at", "expires_at")
    VALUES ("p_order_no", "p_channel_id", "p_user_id", "p_sale_id", "p_quantity", "p_price", "p_price" * "p_quantity", 0,
      "p_idempotency_key", "p_created_at", "p_expires_at")
    RETURNING "id" INTO "order_id";
  UPDATE "sales" SET "amount_available" = "amount_available" - "p_quantity"
    WHERE "id" = "p_sale_id" AND "amount_available" >= "p_quantity"
      AND "price" = "p_price" AND "limit_per_user" = "p_limit_per_user"
      AND ("sale_start_time" <= "p_created_at" OR ("p_opens_at" IS NOT NULL AND "p_opens_at" <= "p_created_at" AND EXISTS (
        SELECT 1 FROM "sale_priority" "p" JOIN "sale_priority_buyers" "b" ON "b"."sale_id" = "p"."sale_id" AND "b"."user_id" = "p_user_id"
        WHERE "p"."sale_id" = "p_sale_id" AND "p"."decided_at" IS NOT NULL
          AND "sales"."sale_start_time" - make_interval(mins => "p"."minutes_early") <= "p_opens_at"))) AND ("sale_end_time" IS NULL OR "sale_end_time" > "p_created_at")
      AND "paused_at" IS NULL AND "cancelled_at" IS NULL AND "archived_at" IS NULL;
  IF NOT FOUND THEN
    SELECT "amount_available",
        "price" = "p_price" AND "limit_per_user" = "p_limit_per_user"
          AND ("sale_start_time" <= "p_created_at" OR ("p_opens_at" IS NOT NULL AND "p_opens_at" <= "p_created_at" AND EXISTS (
        SELECT 1 FROM "sale_priority" "p" JOIN "sale_priority_buyers" "b" ON "b"."sale_id" = "p"."sale_id" AND "b"."user_id" = "p_user_id"
        WHERE "p"."sale_id" = "p_sale_id" AND "p"."decided_at" IS NOT NULL
          AND "sales"."sale_start_time" - make_interval(mins => "p"."minutes_early") <= "p_opens_at"))) AND ("sale_end_time" IS NULL OR "sale_end_time" > "p_created_at")
          AND "paused_at" IS NULL AND "cancelled_at" IS NULL AND "archived_at" IS NULL
      INTO "left", "same_terms" FROM "sales" WHERE "id" = "p_sale_id";
    IF "same_terms" IS NOT TRUE THEN
      RAISE EXCEPTION USING ERRCODE = 'SFCHG', MESSAGE = 'the sale changed since its terms were read';
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'SFOUT', MESSAGE = 'fewer copies left than asked', DETAIL = coalesce("left", 0)::text;
  END IF;
  "made" := true;
  "order_channel_id" := "p_channel_id";
  "order_sale_id" := "p_sale_id";
  "order_quantity" := "p_quantity";
END;
$$ LANGUAGE plpgsql;
