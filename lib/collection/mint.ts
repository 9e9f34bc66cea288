import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { editionCounters, holdings } from '../db/schema';

export type MintInput = {
  channelId: number;
  userId: number;
  commodity: { id: number; amountSku: number };
  quantity: number;
  orderId?: number;
  fromBoxId?: number;
  /** How the holdings came (holdings.source); defaults from orderId / fromBoxId. */
  source?: 'order' | 'box' | 'gift' | 'exchange' | 'chainUp';
  now: Date;
};

/**
 * Mints `quantity` numbered holdings of a commodity inside the caller's transaction (DESIGN §7). The numbers come
 * from the commodity's edition counter in one upsert, so concurrent mints get disjoint ranges; the counter's CHECK
 * refuses to go past the edition size, and a unique (commodity, number) index backs it up.
 */
export async function mintHoldings(tx: Db, input: MintInput): Promise<(typeof holdings.$inferSelect)[]> {
  const [counter] = await tx
    .insert(editionCounters)
    .values({ commodityId: input.commodity.id, minted: input.quantity, amountSku: input.commodity.amountSku })
    .onConflictDoUpdate({ target: editionCounters.commodityId, set: { minted: sql`${editionCounters.minted} + excluded.minted` } })
    .returning({ minted: editionCounters.minted });
  const last = counter!.minted;
  const values = Array.from({ length: input.quantity }, (_, i) => ({
    channelId: input.channelId,
    userId: input.userId,
    commodityId: input.commodity.id,
    number: last - input.quantity + 1 + i,
    orderId: input.orderId ?? null,
    fromBoxId: input.fromBoxId ?? null,
    source: input.source ?? (input.fromBoxId !== undefined ? 'box' : 'order'),
    createdAt: input.now,
  }));
  return tx.insert(holdings).values(values).returning();
}
