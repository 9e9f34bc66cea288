ALTER TABLE "channels" ADD COLUMN "sms_sign_name" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "sms_template_id" text;