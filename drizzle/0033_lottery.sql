CREATE TABLE "lottery_registrations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lottery_registrations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sale_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"account_number" text NOT NULL,
	"identity_hash" text,
	"created_at" timestamp with time zone NOT NULL,
	"rank" integer
);
--> statement-breakpoint
CREATE TABLE "sale_allocations" (
	"sale_id" integer PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"mode" text NOT NULL,
	"copies" integer,
	"registration_opens_at" timestamp with time zone,
	"registration_closes_at" timestamp with time zone,
	"draw_at" timestamp with time zone,
	"purchase_window_minutes" integer,
	"public_value_source" text,
	"seed" text,
	"commitment" text,
	"public_value" text,
	"list_hash" text,
	"published" text,
	"drawn_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sale_allocations_mode" CHECK ("sale_allocations"."mode" in ('first-come', 'lottery')),
	CONSTRAINT "sale_allocations_lottery_settings" CHECK ("sale_allocations"."mode" <> 'lottery' or ("sale_allocations"."copies" >= 1 and "sale_allocations"."registration_opens_at" < "sale_allocations"."registration_closes_at"
        and "sale_allocations"."registration_closes_at" <= "sale_allocations"."draw_at" and "sale_allocations"."purchase_window_minutes" >= 1 and "sale_allocations"."public_value_source" is not null
        and "sale_allocations"."seed" is not null and "sale_allocations"."commitment" is not null)),
	CONSTRAINT "sale_allocations_drawn" CHECK ("sale_allocations"."drawn_at" is null or ("sale_allocations"."public_value" is not null and "sale_allocations"."list_hash" is not null and "sale_allocations"."published" is not null))
);
--> statement-breakpoint
ALTER TABLE "lottery_registrations" ADD CONSTRAINT "lottery_registrations_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lottery_registrations" ADD CONSTRAINT "lottery_registrations_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lottery_registrations" ADD CONSTRAINT "lottery_registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD CONSTRAINT "sale_allocations_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD CONSTRAINT "sale_allocations_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lottery_registrations_sale_user" ON "lottery_registrations" USING btree ("sale_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lottery_registrations_sale_account" ON "lottery_registrations" USING btree ("sale_id","account_number");--> statement-breakpoint
CREATE UNIQUE INDEX "lottery_registrations_sale_identity" ON "lottery_registrations" USING btree ("sale_id","identity_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "lottery_registrations_sale_rank" ON "lottery_registrations" USING btree ("sale_id","rank");