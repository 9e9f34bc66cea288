ALTER TABLE "blind_box_prizes" ADD COLUMN "value" integer;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "listed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blind_box_prizes" ADD CONSTRAINT "blind_box_prizes_value_non_negative" CHECK ("blind_box_prizes"."value" is null or "blind_box_prizes"."value" >= 0);