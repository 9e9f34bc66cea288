CREATE TABLE "channel_page_views" (
	"channel_id" integer NOT NULL,
	"day" date NOT NULL,
	"views" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "channel_page_views_channel_id_day_pk" PRIMARY KEY("channel_id","day")
);
--> statement-breakpoint
ALTER TABLE "channel_page_views" ADD CONSTRAINT "channel_page_views_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_audit_at_id" ON "operator_audit" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "operator_audit_channel" ON "operator_audit" USING btree ("channel_id","at");--> statement-breakpoint
-- Hand-written (drizzle-kit does not generate triggers): the audit trail is append-only in the database too (issue 31).
-- UPDATE and TRUNCATE are always refused; DELETE only inside the retention sweep's transaction, which sets
-- storefront.audit_retention (lib/operator/audit-retention.ts).
CREATE FUNCTION "operator_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('storefront.audit_retention', true), '') = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'operator_audit is append-only: % refused (rows leave only through the retention sweep)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "operator_audit_no_update_or_delete" BEFORE UPDATE OR DELETE ON "operator_audit" FOR EACH ROW EXECUTE FUNCTION "operator_audit_append_only"();--> statement-breakpoint
CREATE TRIGGER "operator_audit_no_truncate" BEFORE TRUNCATE ON "operator_audit" FOR EACH STATEMENT EXECUTE FUNCTION "operator_audit_append_only"();
