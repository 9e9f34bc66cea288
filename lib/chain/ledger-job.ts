import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commodities, holdings, users } from '../db/schema';
import type { ChainAdapter, ChainAsset } from './adapter';
import { ledgerAdapter } from './ledger';
import { isUniqueViolation } from '../db/errors';

/** The chain adapter in use: the built-in ledger (a real chain plugs in here). */
export function chainAdapter(): ChainAdapter {
  return ledgerAdapter;
}

/**
 * Puts pending holdings on chain, oldest first (the chain-up job), up to `limit` a pass. Returns how many went on chain.
 *
 * With an adapter that records many at once (the built-in ledger), the pass is one transaction of a few statements
 * whatever the number of holdings (a drop's 500 paid holdings held the embedded database's one connection for six
 * round trips each before): the holdings still pending are claimed (one taken by another worker meanwhile is skipped),
 * recorded together, and their receipts written in one statement. Should the lot fail on a unique index (two editions
 * sharing a token id), the pass goes holding by holding instead, so one holding cannot hold the others back.
 * Otherwise each holding has a transaction of its own: the adapter's record and the holding's receipt commit together,
 * and a holding another worker got to first rolls back.
 */
export async function chainUpPending(db: Db, now: Date, options: { adapter?: ChainAdapter; limit?: number } = {}): Promise<number> {
  const adapter = options.adapter ?? chainAdapter();
  const pending: Pending[] = await db
    .select({ holding: holdings, commodity: commodities, owner: users.uuid })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .innerJoin(users, eq(users.id, holdings.userId))
    .where(eq(holdings.chainStatus, 0))
    .orderBy(holdings.id)
    .limit(options.limit ?? 100);
  if (pending.length === 0) return 0;
  if (adapter.submitMany) {
    try {
      return await chainUpTogether(db, adapter.submitMany.bind(adapter), pending, now);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  let done = 0;
  for (const item of pending) {
    try {
      await db.transaction(async (tx) => {
        const receipt = await adapter.submit(tx, assetOf(item), now);
        const [claimed] = await tx
          .update(holdings)
          .set({ chainStatus: 1, tokenId: receipt.tokenId, tradeHash: receipt.txHash })
          .where(and(eq(holdings.id, item.holding.id), eq(holdings.chainStatus, 0)))
          .returning({ id: holdings.id });
        if (!claimed) throw new AlreadyOnChain();
      });
      done++;
    } catch (error) {
      if (error instanceof AlreadyOnChain || isUniqueViolation(error)) continue;
      throw error;
    }
  }
  return done;
}

type Pending = { holding: typeof holdings.$inferSelect; commodity: typeof commodities.$inferSelect; owner: string };

const assetOf = ({ holding, commodity, owner }: Pending): ChainAsset => ({
  holdingId: holding.id,
  commodityId: commodity.id,
  number: holding.number,
  amountNumber: commodity.amountSku,
  contractAddress: commodity.contractAddress,
  chainName: commodity.chainName,
  owner,
});

/**
 * One transaction for the lot: the holdings still pending claimed (their rows locked, so a second worker waits and
 * then finds them taken), recorded by `submitMany`, and their token ids and hashes written in one statement.
 */
async function chainUpTogether(
  db: Db,
  submitMany: NonNullable<ChainAdapter['submitMany']>,
  pending: readonly Pending[],
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(holdings)
      .set({ chainStatus: 1 })
      .where(
        and(
          inArray(
            holdings.id,
            pending.map((p) => p.holding.id),
          ),
          eq(holdings.chainStatus, 0),
        ),
      )
      .returning({ id: holdings.id });
    const ids = new Set(claimed.map((row) => row.id));
    const mine = pending.filter((p) => ids.has(p.holding.id));
    if (mine.length === 0) return 0;
    const receipts = await submitMany(tx, mine.map(assetOf), now);
    const written = mine.map((p, i) => ({ id: p.holding.id, token_id: receipts[i]!.tokenId, trade_hash: receipts[i]!.txHash }));
    // One JSON parameter for the lot: PGlite and postgres.js read it alike.
    await tx.execute(sql`
      update ${holdings} set token_id = v.token_id, trade_hash = v.trade_hash
      from json_to_recordset(${JSON.stringify(written)}::json) as v(id integer, token_id text, trade_hash text)
      where ${holdings.id} = v.id`);
    return mine.length;
  });
}

class AlreadyOnChain extends Error {}
