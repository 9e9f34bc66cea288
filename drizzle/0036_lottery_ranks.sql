CREATE TABLE "lottery_ranks" (
	"sale_id" integer NOT NULL,
	"rank" integer NOT NULL,
	"account_number" text NOT NULL,
	CONSTRAINT "lottery_ranks_sale_id_account_number_pk" PRIMARY KEY("sale_id","account_number")
);
--> statement-breakpoint
DROP INDEX "lottery_registrations_sale_rank";--> statement-breakpoint
ALTER TABLE "lottery_registrations" DROP COLUMN "rank";