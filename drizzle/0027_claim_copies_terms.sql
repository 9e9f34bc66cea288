-- The buy's last word on the sale's terms (issue 32, "Drop-day controls" and "price, copies-per-buyer and opening time
-- cannot change once the first order exists"): the server passes the price and per-buyer limit it read from its cached
-- terms (lib/order/service.ts `readBuyTerms`), which another process's edit, pause or cancel can have changed a moment
-- ago. The stock decrement, under the sale's row lock, now also asks that the sale still has those terms, is open at
-- the order's time, and is neither paused, cancelled nor archived. When it does not, the statement raises
--   SFCHG  the sale changed since its terms were read (the server reads them afresh and answers why)
-- and nothing of the buy stays. An operator's edit that takes the sale's row lock first is therefore never followed by
-- an order on the old terms; one that waits for the buy's lock sees the order and keeps the terms frozen.
-- Otherwise as 0009_claim_copies.sql.
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
      AND "sale_start_time" <= "p_created_at" AND ("sale_end_time" IS NULL OR "sale_end_time" > "p_created_at")
      AND "paused_at" IS NULL AND "cancelled_at" IS NULL AND "archived_at" IS NULL;
  IF NOT FOUND THEN
    SELECT "amount_available",
        "price" = "p_price" AND "limit_per_user" = "p_limit_per_user"
          AND "sale_start_time" <= "p_created_at" AND ("sale_end_time" IS NULL OR "sale_end_time" > "p_created_at")
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
