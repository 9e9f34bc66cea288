import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commodities, holdings, users } from '../db/schema';
import type { ChainAdapter } from './adapter';
import { ledgerAdapter } from './ledger';
import { isUniqueViolation } from '../db/errors';

/** The chain adapter in use: the built-in ledger (a real chain plugs in here). */
export function chainAdapter(): ChainAdapter {
  return ledgerAdapter;
}

/**
 * Puts pending holdings on chain, oldest first (the chain-up job). Each holding in its own transaction: the adapter's
 * record and the holding's receipt commit together, and a holding another worker got to first rolls back.
 * Returns how many went on chain.
 */
export async function chainUpPending(db: Db, now: Date, options: { adapter?: ChainAdapter; limit?: number } = {}): Promise<number> {
  const adapter = options.adapter ?? chainAdapter();
  const pending = await db
    .select({ holding: holdings, commodity: commodities, owner: users.uuid })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .innerJoin(users, eq(users.id, holdings.userId))
    .where(eq(holdings.chainStatus, 0))
    .orderBy(holdings.id)
    .limit(options.limit ?? 100);
  let done = 0;
  for (const { holding, commodity, owner } of pending) {
    try {
      await db.transaction(async (tx) => {
        const receipt = await adapter.submit(
          tx,
          {
            holdingId: holding.id,
            commodityId: commodity.id,
            number: holding.number,
            amountNumber: commodity.amountSku,
            contractAddress: commodity.contractAddress,
            chainName: commodity.chainName,
            owner,
          },
          now,
        );
        const [claimed] = await tx
          .update(holdings)
          .set({ chainStatus: 1, tokenId: receipt.tokenId, tradeHash: receipt.txHash })
          .where(and(eq(holdings.id, holding.id), eq(holdings.chainStatus, 0)))
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

class AlreadyOnChain extends Error {}
