-- A sale's copies left grew (a cancel, an expiry, a failed payment, more stock): every process that knows it sold
-- out hears it and asks the database again (lib/order/sold-out.ts). The notice goes out when the transaction commits.
CREATE OR REPLACE FUNCTION "notify_sale_stock_returned"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('sale_stock_returned', NEW."id"::text);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER "sales_stock_returned" AFTER UPDATE OF "amount_available" ON "sales" FOR EACH ROW
  WHEN (NEW."amount_available" > OLD."amount_available") EXECUTE FUNCTION "notify_sale_stock_returned"();
