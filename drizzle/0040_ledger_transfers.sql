ALTER TABLE "chain_ledger" DROP CONSTRAINT "chain_ledger_holding_id_unique";--> statement-breakpoint
ALTER TABLE "chain_ledger" ADD COLUMN "kind" text DEFAULT 'mint' NOT NULL;--> statement-breakpoint
ALTER TABLE "holding_transfers" ADD COLUMN "tx_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_ledger_holding_mint" ON "chain_ledger" USING btree ("holding_id") WHERE "chain_ledger"."kind" = 'mint';--> statement-breakpoint
CREATE INDEX "chain_ledger_holding" ON "chain_ledger" USING btree ("holding_id","height");