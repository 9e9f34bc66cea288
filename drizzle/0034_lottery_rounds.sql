ALTER TABLE "sale_allocations" ADD COLUMN "ranked" integer;--> statement-breakpoint
ALTER TABLE "sale_allocations" ADD COLUMN "rounds" jsonb;