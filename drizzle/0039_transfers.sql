CREATE TABLE "holding_transfers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "holding_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"holding_id" integer NOT NULL,
	"sender_id" integer NOT NULL,
	"receiver_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "holding_transfers_not_self" CHECK ("holding_transfers"."sender_id" <> "holding_transfers"."receiver_id")
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "gift_holding_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "holdings" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "holding_transfers" ADD CONSTRAINT "holding_transfers_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holding_transfers" ADD CONSTRAINT "holding_transfers_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holding_transfers" ADD CONSTRAINT "holding_transfers_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holding_transfers" ADD CONSTRAINT "holding_transfers_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "holding_transfers_sender_key" ON "holding_transfers" USING btree ("sender_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "holding_transfers_one_pending" ON "holding_transfers" USING btree ("holding_id") WHERE "holding_transfers"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "holding_transfers_receiver" ON "holding_transfers" USING btree ("receiver_id","channel_id","created_at");--> statement-breakpoint
CREATE INDEX "holding_transfers_sender" ON "holding_transfers" USING btree ("sender_id","channel_id","created_at");--> statement-breakpoint
CREATE INDEX "holding_transfers_due" ON "holding_transfers" USING btree ("expires_at") WHERE "holding_transfers"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "holding_transfers_holding" ON "holding_transfers" USING btree ("holding_id","created_at");