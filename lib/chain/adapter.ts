import 'server-only';
import type { Db } from '../db/client';

/** What goes on chain for one holding. */
export type ChainAsset = {
  holdingId: number;
  commodityId: number;
  number: number;
  amountNumber: number;
  contractAddress: string;
  chainName: string;
  /** The owner's public id (userUuid), never the phone. */
  owner: string;
};

export type ChainReceipt = { txHash: string; tokenId: string };

/** An edition already on chain passing from one buyer to another (issue 36: a gift accepted), by public ids. */
export type ChainTransfer = { holdingId: number; tokenId: string; from: string; to: string };

/**
 * Puts holdings on a chain (DESIGN §7). The built-in adapter (./ledger.ts) is a hash-chained ledger in our own
 * database; a real chain's adapter implements the same call, and the chain-up job (lib/jobs/runner.ts) retries
 * whatever stays pending.
 */
export interface ChainAdapter {
  readonly name: string;
  /** Records the asset and returns its receipt. Called inside the job's transaction for the ledger; a remote chain may ignore `tx`. */
  submit(tx: Db, asset: ChainAsset, now: Date): Promise<ChainReceipt>;
  /**
   * Records several assets at once, in the caller's one transaction, their receipts in the same order (the ledger: one
   * lock and one insert for the lot, so the chain-up job holds a connection for a few round trips, not a few per
   * holding). Optional: an adapter without it is called once per asset.
   */
  submitMany?(tx: Db, assets: readonly ChainAsset[], now: Date): Promise<ChainReceipt[]>;
  /** Records a transfer of an edition on chain (issue 36), in the caller's transaction for the ledger; its receipt's hash. */
  transfer(tx: Db, event: ChainTransfer, now: Date): Promise<{ txHash: string }>;
}
