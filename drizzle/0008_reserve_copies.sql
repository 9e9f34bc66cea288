-- A buy's reservation in one round trip (lib/order/service.ts `reserve`; docs/orders.md, "One round trip"): the
-- buyer's quota, the order and the stock, in this order, as one statement. A refusal raises, so nothing of it stays:
--   SFLIM  the per-user limit (the quota's check refused the upsert)
--   SFOUT  fewer copies left than asked; DETAIL carries the copies left
-- Every buyer of a sale queues on the sale's row lock from the stock update to the end of the statement: inside the
-- database, not across a round trip to the server.
CREATE OR REPLACE FUNCTION "reserve_copies"(
  "p_sale_id" integer,
  "p_user_id" integer,
  "p_channel_id" integer,
  "p_quantity" integer,
  "p_limit_per_user" integer,
  "p_order_no" text,
  "p_price" integer,
  "p_idempotency_key" text,
  "p_created_at" timestamptz,
  "p_expires_at" timestamptz
) RETURNS integer AS $$
DECLARE
  "made_id" integer;
  "left" integer;
BEGIN
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
    RETURNING "id" INTO "made_id";
  UPDATE "sales" SET "amount_available" = "amount_available" - "p_quantity"
    WHERE "id" = "p_sale_id" AND "amount_available" >= "p_quantity";
  IF NOT FOUND THEN
    SELECT "amount_available" INTO "left" FROM "sales" WHERE "id" = "p_sale_id";
    RAISE EXCEPTION USING ERRCODE = 'SFOUT', MESSAGE = 'fewer copies left than asked', DETAIL = coalesce("left", 0)::text;
  END IF;
  RETURN "made_id";
END;
$$ LANGUAGE plpgsql;
