CREATE TABLE "buyer_account_numbers" (
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"number" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "buyer_account_numbers_channel_id_user_id_pk" PRIMARY KEY("channel_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "buyer_blocks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "buyer_blocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text DEFAULT 'buyer' NOT NULL,
	"user_id" integer,
	"channel_id" integer,
	"reason" text NOT NULL,
	"blocked_by" integer,
	"blocked_at" timestamp with time zone NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" integer,
	"lift_reason" text,
	CONSTRAINT "buyer_blocks_kind" CHECK ("buyer_blocks"."kind" in ('buyer')),
	CONSTRAINT "buyer_blocks_buyer_has_user" CHECK ("buyer_blocks"."kind" <> 'buyer' OR "buyer_blocks"."user_id" IS NOT NULL)
);
--> statement-breakpoint
ALTER TABLE "buyer_account_numbers" ADD CONSTRAINT "buyer_account_numbers_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_account_numbers" ADD CONSTRAINT "buyer_account_numbers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_blocked_by_operators_id_fk" FOREIGN KEY ("blocked_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_lifted_by_operators_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_account_numbers_channel_number" ON "buyer_account_numbers" USING btree ("channel_id","number");--> statement-breakpoint
CREATE INDEX "buyer_blocks_user" ON "buyer_blocks" USING btree ("user_id");