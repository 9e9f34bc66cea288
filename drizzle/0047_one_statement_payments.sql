-- A drop's payments in one statement each (lib/payment/service.ts; docs/benchmarks.md, "Payments in one statement").
-- A transaction holds its connection from BEGIN to COMMIT, one round trip per statement; on the embedded database the
-- one connection carries every request, so a drop's 500 payments opened and 500 settled held it most of the selling
-- seconds and the buyers' own statements queued behind them. These two do the common case in one statement; anything
-- else (a second payment, a failed or repeated notification, a payment too late) they leave untouched, answering
-- null, and the service runs its transaction as before.
--
-- open_first_payment: the first payment of one of the buyer's unpaid orders. Under the order's row lock, as pay/create's
-- transaction decides: the order must be the buyer's on the channel and have no payment at all; then the payment is
-- inserted. A payment number drawn twice raises the unique violation (the service draws again through its transaction).
CREATE OR REPLACE FUNCTION "open_first_payment"(
  "p_order_no" text,
  "p_user_id" integer,
  "p_channel_id" integer,
  "p_payment_no" text,
  "p_provider" text,
  "p_amount" integer,
  "p_client" text,
  "p_payer_openid" text,
  "p_created_at" timestamptz,
  "p_next_query_at" timestamptz,
  OUT "payment_id" integer
) AS $$
DECLARE
  "order_row_id" integer;
BEGIN
  SELECT "id" INTO "order_row_id" FROM "orders"
    WHERE "order_no" = "p_order_no" AND "user_id" = "p_user_id" AND "channel_id" = "p_channel_id"
    FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  -- Read after the lock (each statement of the function sees what committed before it): a payment opened meanwhile is seen.
  IF EXISTS (SELECT 1 FROM "payments" WHERE "order_id" = "order_row_id") THEN
    RETURN;
  END IF;
  INSERT INTO "payments" ("payment_no", "order_id", "provider", "amount", "created_at", "client", "payer_openid", "next_query_at")
    VALUES ("p_payment_no", "order_row_id", "p_provider", "p_amount", "p_created_at", "p_client", "p_payer_openid", "p_next_query_at")
    RETURNING "id" INTO "payment_id";
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- settle_paid: a provider's verified "paid" for a payment still open (created, or failed at an earlier try) whose
-- order is still to pay and not past its time: the payment paid (its notification counted), the order paid, and its
-- holdings minted from the commodity's edition counter, as applyNotification's transaction does for that case.
-- Answers 'paid'; null when anything else holds, having written nothing.
CREATE OR REPLACE FUNCTION "settle_paid"(
  "p_payment_no" text,
  "p_provider" text,
  "p_amount" integer,
  "p_trade_no" text,
  "p_now" timestamptz,
  OUT "outcome" text
) AS $$
DECLARE
  "pay" record;
  "ord" record;
  "item" record;
  "last" integer;
BEGIN
  SELECT "id", "order_id", "provider", "amount", "status" INTO "pay" FROM "payments" WHERE "payment_no" = "p_payment_no";
  IF NOT FOUND OR "pay"."provider" <> "p_provider" OR "pay"."amount" <> "p_amount" OR "pay"."status" NOT IN (0, 2) THEN
    RETURN;
  END IF;
  SELECT "id", "channel_id", "user_id", "sale_id", "quantity", "status_trade", "expires_at" INTO "ord" FROM "orders"
    WHERE "id" = "pay"."order_id"
    FOR UPDATE;
  IF NOT FOUND OR "ord"."status_trade" <> 0 OR "ord"."expires_at" <= "p_now" THEN
    RETURN;
  END IF;
  -- Only the first delivery that may move the payment gets past (a repeat racing this one finds it paid).
  UPDATE "payments"
    SET "notifications" = "notifications" + 1, "status" = 1, "provider_trade_no" = "p_trade_no", "settled_at" = "p_now"
    WHERE "id" = "pay"."id" AND "status" IN (0, 2);
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE "orders" SET "status_trade" = 1, "pay_time" = "p_now" WHERE "id" = "ord"."id";
  SELECT "commodities"."id", "commodities"."amount_sku" INTO "item"
    FROM "sales" JOIN "commodities" ON "commodities"."id" = "sales"."commodity_id"
    WHERE "sales"."id" = "ord"."sale_id";
  -- The edition numbers as lib/collection/mint.ts takes them: one upsert of the counter, whose CHECK stops at the edition.
  INSERT INTO "edition_counters" ("commodity_id", "minted", "amount_sku")
    VALUES ("item"."id", "ord"."quantity", "item"."amount_sku")
    ON CONFLICT ("commodity_id") DO UPDATE SET "minted" = "edition_counters"."minted" + excluded."minted"
    RETURNING "minted" INTO "last";
  INSERT INTO "holdings" ("channel_id", "user_id", "commodity_id", "number", "order_id", "from_box_id", "source", "created_at")
    SELECT "ord"."channel_id", "ord"."user_id", "item"."id", "last" - "ord"."quantity" + "n", "ord"."id", NULL, 'order', "p_now"
    FROM generate_series(1, "ord"."quantity") AS "n";
  "outcome" := 'paid';
END;
$$ LANGUAGE plpgsql;
