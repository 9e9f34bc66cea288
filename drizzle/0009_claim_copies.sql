-- A buy in one statement (lib/order/service.ts `claim`; docs/orders.md, "Buying"): replaces reserve_copies (0008).
-- In this order, within one statement:
--   1. the buyer's key: an order this key already made is answered as it is (made = false), whatever the stock;
--   2. the copies left, read without a lock: fewer than asked is refused before anything is written (a hint only);
--   3. the buyer's quota upsert, refused beyond the sale's per-user limit;
--   4. the order (a copy of the same tap racing this one fails on the key's unique index);
--   5. the conditional stock decrement, refused when fewer copies are left.
-- A refusal raises, so nothing of it stays:
--   SFLIM  the per-user limit (the quota's check refused the upsert)
--   SFOUT  fewer copies left than asked; DETAIL carries the copies left
-- Every buyer of a sale queues on the sale's row lock from the stock update to the end of the statement: inside the
-- database, not across a round trip to the server.
DROP FUNCTION IF EXISTS "reserve_copies"(integer, integer, integer, integer, integer, text, integer, text, timestamptz, timestamptz);
--> statement-breakpoint
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
    WHERE "id" = "p_sale_id" AND "amount_available" >= "p_quantity";
  IF NOT FOUND THEN
    SELECT "amount_available" INTO "left" FROM "sales" WHERE "id" = "p_sale_id";
    RAISE EXCEPTION USING ERRCODE = 'SFOUT', MESSAGE = 'fewer copies left than asked', DETAIL = coalesce("left", 0)::text;
  END IF;
  "made" := true;
  "order_channel_id" := "p_channel_id";
  "order_sale_id" := "p_sale_id";
  "order_quantity" := "p_quantity";
END;
$$ LANGUAGE plpgsql;
