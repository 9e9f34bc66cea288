CREATE TABLE "wechat_tickets" (
	"app_id" text PRIMARY KEY NOT NULL,
	"access_token" text,
	"access_token_expires_at" timestamp with time zone,
	"jsapi_ticket" text,
	"jsapi_ticket_expires_at" timestamp with time zone,
	"fetching_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "wechat_app_id" text;