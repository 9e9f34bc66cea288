ALTER TABLE "channels" ADD COLUMN "customer_service" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "icp_filing" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "public_security_filing" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "blockchain_filing" text;