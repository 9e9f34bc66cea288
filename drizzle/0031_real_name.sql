CREATE TABLE "agreement_acceptances" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agreement_acceptances_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"agreement" text NOT NULL,
	"version" text NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agreement_acceptances_agreement" CHECK ("agreement_acceptances"."agreement" in ('privacy', 'salesStrategy', 'identityConsent'))
);
--> statement-breakpoint
CREATE TABLE "buyer_identities" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"id_hash" text NOT NULL,
	"name_sealed" text NOT NULL,
	"id_number_sealed" text NOT NULL,
	"key_id" text NOT NULL,
	"birth_date" date NOT NULL,
	"masked_name" text NOT NULL,
	"masked_id_number" text NOT NULL,
	"provider" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	CONSTRAINT "buyer_identities_id_hash_unique" UNIQUE("id_hash")
);
--> statement-breakpoint
ALTER TABLE "buyer_blocks" DROP CONSTRAINT "buyer_blocks_kind";--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD COLUMN "value" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "identity_policy" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "risk_policy" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agreement_acceptances" ADD CONSTRAINT "agreement_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreement_acceptances" ADD CONSTRAINT "agreement_acceptances_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_identities" ADD CONSTRAINT "buyer_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agreement_acceptances_once" ON "agreement_acceptances" USING btree ("user_id","channel_id","agreement","version");--> statement-breakpoint
CREATE INDEX "buyer_blocks_value" ON "buyer_blocks" USING btree ("kind","value");--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_value_set" CHECK ("buyer_blocks"."kind" = 'buyer' OR "buyer_blocks"."value" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "buyer_blocks" ADD CONSTRAINT "buyer_blocks_kind" CHECK ("buyer_blocks"."kind" in ('buyer', 'identity', 'phone', 'cidr'));