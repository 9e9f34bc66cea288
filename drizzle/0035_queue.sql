CREATE TABLE "queue_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "queue_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sale_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"shuffle_key" text NOT NULL,
	"rank" integer,
	"last_seen_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"admitted_at" timestamp with time zone,
	"admission_expires_at" timestamp with time zone,
	CONSTRAINT "queue_entries_outcome" CHECK ("queue_entries"."outcome" in ('waiting', 'admitted', 'bought', 'expired', 'left')),
	CONSTRAINT "queue_entries_admitted" CHECK ("queue_entries"."outcome" = 'waiting' or "queue_entries"."outcome" = 'left' or "queue_entries"."admission_expires_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "sale_allocations" DROP CONSTRAINT "sale_allocations_mode";--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD COLUMN "queue_join_minutes" integer;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD COLUMN "queue_grace_seconds" integer;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD COLUMN "queue_hold_seconds" integer;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD COLUMN "queue_admission_seconds" integer;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD COLUMN "queue_admit_per_second" integer;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD COLUMN "queue_shuffled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_entries" ADD CONSTRAINT "queue_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_entries_sale_user" ON "queue_entries" USING btree ("sale_id","user_id");--> statement-breakpoint
CREATE INDEX "queue_entries_sale_outcome" ON "queue_entries" USING btree ("sale_id","outcome");--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD CONSTRAINT "sale_allocations_queue_settings" CHECK ("sale_allocations"."mode" <> 'queue' or ("sale_allocations"."queue_join_minutes" >= 0 and "sale_allocations"."queue_grace_seconds" >= 0 and "sale_allocations"."queue_hold_seconds" >= 1
        and "sale_allocations"."queue_admission_seconds" >= 1 and "sale_allocations"."queue_admit_per_second" >= 1));--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD CONSTRAINT "sale_allocations_mode" CHECK ("sale_allocations"."mode" in ('first-come', 'lottery', 'queue'));