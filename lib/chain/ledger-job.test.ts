import { eq } from 'drizzle-orm';
import { seededTestDb, transactionsDuring } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { chainLedger, commodities, holdings } from '@/lib/db/schema';
import { mintHoldings } from '@/lib/collection/mint';
import type { ChainAdapter } from './adapter';
import { chainTokenId, ledgerAdapter, verifyLedger } from './ledger';
import { chainUpPending } from './ledger-job';

// The chain-up job on the built-in ledger (DESIGN §7): a pass of many holdings in one transaction of a few statements.

const t0 = new Date('2026-11-29T08:00:00Z');
const db = seededTestDb(t0);

/** `quantity` freshly minted holdings of a new sale's commodity, for one buyer: pending chain-up. */
async function pendingHoldings(code: string, quantity: number): Promise<number[]> {
  const sale = await makeSale(db, { code, amount: 50, limitPerUser: 50, price: 100, now: t0 });
  const [buyer] = await makeUsers(db, 1, `39${code.length}${quantity}`);
  const [commodity] = await db.select().from(commodities).where(eq(commodities.id, sale.commodityId));
  const minted = await mintHoldings(db, { channelId: sale.channelId, userId: buyer!, commodity: commodity!, quantity, now: t0 });
  return minted.map((h) => h.id);
}

/** Each holding's chain state, and whether its hash is the ledger's mint entry of it. */
async function chainStateOf(ids: number[]) {
  const entries = await db.select().from(chainLedger);
  const rows = await db.select().from(holdings);
  return rows
    .filter((h) => ids.includes(h.id))
    .map((h) => ({
      onChain: h.chainStatus === 1,
      tokenId: h.tokenId === chainTokenId(h.commodityId, h.number),
      hash: entries.some((e) => e.holdingId === h.id && e.kind === 'mint' && `0x${e.txHash}` === h.tradeHash && e.tokenId === h.tokenId),
    }));
}

describe('the chain-up job', () => {
  it('puts a pass of pending holdings on chain in one transaction, each with its token id and its own ledger entry', async () => {
    // Whatever the seed left pending goes first; these come after it, within the pass of 100.
    await chainUpPending(db, t0);
    const ids = await pendingHoldings('chain-pass', 12);
    const pass = await transactionsDuring(db, () => chainUpPending(db, t0));
    expect(pass).toEqual({ value: 12, transactions: 1 });
    expect(await chainStateOf(ids)).toEqual(Array(12).fill({ onChain: true, tokenId: true, hash: true }));
    expect(await verifyLedger(db)).toBeNull();
    // Nothing is left for the next pass.
    expect(await chainUpPending(db, t0)).toBe(0);
  });

  it('goes holding by holding when the lot fails on a unique index, so the others still go on chain', async () => {
    await chainUpPending(db, t0);
    const ids = await pendingHoldings('chain-clash', 4);
    // The lot's insert clashes (as two editions sharing a token id would): the first entry written twice.
    const clashing: ChainAdapter = {
      ...ledgerAdapter,
      submitMany: async (tx, assets, now) => {
        const receipts = await ledgerAdapter.submitMany!(tx, assets, now);
        const [first] = await tx.select().from(chainLedger).where(eq(chainLedger.holdingId, assets[0]!.holdingId));
        await tx.insert(chainLedger).values({ ...first!, height: first!.height + 1000 });
        return receipts;
      },
    };
    expect(await chainUpPending(db, t0, { adapter: clashing })).toBe(4);
    expect(await chainStateOf(ids)).toEqual(Array(4).fill({ onChain: true, tokenId: true, hash: true }));
    expect(await verifyLedger(db)).toBeNull();
  });
});
