import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { blindBoxPrizes, boxDraws, holdings } from '@/lib/db/schema';
import { mintHoldings } from './mint';
import { pickByRoll, totalWeight } from './draw';
import { countUnopenedBoxes, listCollection, listUnopenedBoxes, openBox } from './service';
import type { UserScope } from '@/lib/procedure/scope';

// Blind boxes and the collection (DESIGN §7): draws follow the published weights; a box opens once.

const t0 = new Date('2026-11-22T08:00:00Z');

const db = seededTestDb(t0);

describe('drawing by weight', () => {
  it('follows the published weights over 60,000 CSPRNG draws, within 1 percentage point', () => {
    const prizes = [
      { commodityId: 1, weight: 60 },
      { commodityId: 2, weight: 30 },
      { commodityId: 3, weight: 9 },
      { commodityId: 4, weight: 1 },
    ];
    const total = totalWeight(prizes);
    const counts = new Map<number, number>();
    const N = 60_000;
    for (let i = 0; i < N; i++) {
      const prize = pickByRoll(prizes, randomInt(total));
      counts.set(prize.commodityId, (counts.get(prize.commodityId) ?? 0) + 1);
    }
    for (const p of prizes) {
      // The standard error at 60% over 60,000 draws is 0.2 points: 1 point is five of them.
      expect(Math.abs((counts.get(p.commodityId) ?? 0) / N - p.weight / total)).toBeLessThan(0.01);
    }
    expect(counts.get(4)).toBeGreaterThan(0);
  });

  it('maps every roll to the prize whose range holds it, and refuses rolls outside', () => {
    const prizes = [
      { commodityId: 7, weight: 2 },
      { commodityId: 8, weight: 3 },
    ];
    expect([0, 1, 2, 3, 4].map((roll) => pickByRoll(prizes, roll).commodityId)).toEqual([7, 7, 8, 8, 8]);
    expect(() => pickByRoll(prizes, 5)).toThrow(RangeError);
  });
});

describe('opening a box', () => {
  let boxes = 0;
  async function boxFor(code: string, weights: number[], prizeEdition = 100) {
    const box = await makeSale(db, { code, amount: 10, limitPerUser: 5, now: t0, isBlindBox: true });
    const prizes = [];
    for (const [i, weight] of weights.entries()) {
      const prize = await makeSale(db, {
        code: `${code}-prize-${i}`,
        amount: prizeEdition,
        amountSku: prizeEdition,
        limitPerUser: 1,
        now: t0,
      });
      await db.insert(blindBoxPrizes).values({ boxCommodityId: box.commodityId, prizeCommodityId: prize.commodityId, weight });
      prizes.push(prize.commodityId);
    }
    const [buyer] = await makeUsers(db, 1, String(3700 + ++boxes));
    const ctx: UserScope = { db, now: t0, channelId: box.channelId, userId: buyer! };
    const [held] = await db.transaction((tx) =>
      mintHoldings(tx, {
        channelId: box.channelId,
        userId: buyer!,
        commodity: { id: box.commodityId, amountSku: 10 },
        quantity: 1,
        now: t0,
      }),
    );
    return { ctx, boxHoldingId: held!.id, prizes };
  }

  it('opens once, reveals a numbered prize, records the draw, and moves the box out of "my boxes"', async () => {
    const { ctx, boxHoldingId, prizes } = await boxFor('box-open', [70, 30]);
    expect((await listUnopenedBoxes(ctx)).map((b) => b.id)).toEqual([String(boxHoldingId)]);
    expect(await countUnopenedBoxes(ctx)).toBe(1);
    // A roll of 75 out of 100 lands on the second prize (weights 70 | 30).
    const { prize } = await openBox(ctx, boxHoldingId, (max) => (max === 100 ? 75 : 0));
    expect(prize.commodity.id).toBe(String(prizes[1]));
    expect(prize.commoditySku).toEqual({ number: 1, amountNumber: 100 });
    const [draw] = await db.select().from(boxDraws).where(eq(boxDraws.boxHoldingId, boxHoldingId));
    expect(draw).toMatchObject({
      roll: 75,
      totalWeight: 100,
      prizeCommodityId: prizes[1],
      weights: { [String(prizes[0])]: 70, [String(prizes[1])]: 30 },
    });
    expect(await listUnopenedBoxes(ctx)).toEqual([]);
    expect(await countUnopenedBoxes(ctx)).toBe(0);
    const collection = await listCollection(ctx, { pageCount: 1, pageSize: 10 });
    expect(collection.records.map((h) => h.commodity.id)).toEqual([String(prizes[1])]);
  });

  it("counts every box a buyer has still to open, beyond the list's first 200", async () => {
    const box = await makeSale(db, { code: 'box-many', amount: 300, amountSku: 300, limitPerUser: 300, now: t0, isBlindBox: true });
    const [buyer] = await makeUsers(db, 1, String(3800 + ++boxes));
    const ctx: UserScope = { db, now: t0, channelId: box.channelId, userId: buyer! };
    await db.transaction((tx) =>
      mintHoldings(tx, {
        channelId: box.channelId,
        userId: buyer!,
        commodity: { id: box.commodityId, amountSku: 300 },
        quantity: 205,
        now: t0,
      }),
    );
    expect(await listUnopenedBoxes(ctx)).toHaveLength(200);
    expect(await countUnopenedBoxes(ctx)).toBe(205);
  });

  it('opens a box only once when two taps race', async () => {
    const { ctx, boxHoldingId } = await boxFor('box-race', [1, 1]);
    const results = await Promise.allSettled([openBox(ctx, boxHoldingId), openBox(ctx, boxHoldingId)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 409 } });
    expect(await db.select().from(holdings).where(eq(holdings.fromBoxId, boxHoldingId))).toHaveLength(1);
  });

  it("skips prizes whose editions are gone, and refuses another buyer's box", async () => {
    const { ctx, boxHoldingId, prizes } = await boxFor('box-gone', [99, 1], 1);
    // The heavy prize's only edition is already minted.
    await db.transaction((tx) =>
      mintHoldings(tx, { channelId: ctx.channelId, userId: ctx.userId, commodity: { id: prizes[0]!, amountSku: 1 }, quantity: 1, now: t0 }),
    );
    const [stranger] = await makeUsers(db, 1, '3798');
    await expect(openBox({ ...ctx, userId: stranger! }, boxHoldingId)).rejects.toMatchObject({ code: 404 });
    const { prize } = await openBox(ctx, boxHoldingId);
    expect(prize.commodity.id).toBe(String(prizes[1]));
  });
});
