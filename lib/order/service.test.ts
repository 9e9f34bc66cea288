import { and, eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers, stockLeft } from '@/test/buying';
import { holdings, orders, saleQuotas, sales } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { renderMessage } from '@/lib/procedure/messages';
import { cancelOrder, createOrder, expireOverdueOrders, getOrder, listOrders, readBuyTerms } from './service';
import { ORDER_STATUS } from './status';
import type { UserScope } from '@/lib/procedure/scope';

// Orders (DESIGN §7): stock and per-user limits hold under concurrency, idempotent create, expiry gives stock back.

const t0 = new Date('2026-11-22T08:00:00Z');
const FIVE_MIN = 5 * 60_000;
let keySeq = 0;
const key = () => `test-key-${++keySeq}`;

const db = seededTestDb(t0);

const ctxOf = (channelId: number, userId: number, now = t0): UserScope => ({ db, now, channelId, userId });

async function settle<T>(promises: Promise<T>[]): Promise<{ ok: T[]; errors: AppError[] }> {
  const results = await Promise.allSettled(promises);
  const ok: T[] = [];
  const errors: AppError[] = [];
  for (const r of results) {
    if (r.status === 'fulfilled') ok.push(r.value);
    else if (r.reason instanceof AppError) errors.push(r.reason);
    else throw r.reason;
  }
  return { ok, errors };
}

describe('buying under concurrency', () => {
  it('never oversells: 60 buyers at once on 20 copies get exactly 20, the rest a sold-out 409', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'race-stock', amount: 20, limitPerUser: 1, now: t0 });
    const buyers = await makeUsers(db, 60, '3801');
    const { ok, errors } = await settle(
      buyers.map((u) => createOrder(ctxOf(channelId, u), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN)),
    );
    expect(ok).toHaveLength(20);
    expect(errors).toHaveLength(40);
    expect(errors.every((e) => e.code === 409 && e.data?.reason === 'soldOut')).toBe(true);
    expect(await stockLeft(db, saleId)).toBe(0);
    const rows = await db.select().from(orders).where(eq(orders.saleId, saleId));
    expect(rows.reduce((s, o) => s + o.quantity, 0)).toBe(20);
    expect(new Set(rows.map((o) => o.userId)).size).toBe(20);
  });

  it('never exceeds the per-user limit: one buyer tapping 10 times at once with limit 3 gets 3 copies', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'race-limit', amount: 100, limitPerUser: 3, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3802');
    const { ok, errors } = await settle(
      Array.from({ length: 10 }, () => createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN)),
    );
    expect(ok).toHaveLength(3);
    expect(errors.every((e) => e.code === 409 && e.data?.reason === 'limit')).toBe(true);
    expect(await stockLeft(db, saleId)).toBe(97);
    // A quantity over the limit is refused with the field named.
    await expect(createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 4, idempotencyKey: key() }, FIVE_MIN)).rejects.toMatchObject({
      code: 400,
      message: 'You can buy at most 3 copies of this sale.',
      data: { field: 'quantity' },
    });
  });

  it('gives one order for one idempotency key, even when the same tap arrives twice at once', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'race-key', amount: 10, limitPerUser: 5, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3803');
    const k = key();
    const [a, b] = await Promise.all([
      createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 2, idempotencyKey: k }, FIVE_MIN),
      createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 2, idempotencyKey: k }, FIVE_MIN),
    ]);
    expect(a.orderNo).toBe(b.orderNo);
    const again = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 2, idempotencyKey: k }, FIVE_MIN);
    expect(again.orderNo).toBe(a.orderNo);
    expect(await db.select().from(orders).where(eq(orders.saleId, saleId))).toHaveLength(1);
    expect(await stockLeft(db, saleId)).toBe(8);

    // With a limit of 1 the second copy of the tap loses on the limit, and still answers with the same order.
    const single = await makeSale(db, { code: 'race-key-1', amount: 10, limitPerUser: 1, now: t0 });
    const k1 = key();
    const [c, d] = await Promise.all(
      [0, 1].map(() => createOrder(ctxOf(single.channelId, buyer!), { saleId: single.saleId, quantity: 1, idempotencyKey: k1 }, FIVE_MIN)),
    );
    expect(c!.orderNo).toBe(d!.orderNo);
    expect(await stockLeft(db, single.saleId)).toBe(9);
  });
});

describe('sale windows and channels', () => {
  it('refuses a sale not yet open with when it opens, and an ended one', async () => {
    const [buyer] = await makeUsers(db, 1, '3804');
    const page = await listOrders(ctxOf(1, buyer!), { pageCount: 1, pageSize: 10 });
    expect(page.total).toBe(0);
    // The seeded AURORA sales: "Moon Rabbit" opens in 3 days, "Jade Dragon" has ended.
    const rows = await db.query.sales.findMany({ columns: { id: true, code: true, channelId: true } });
    const moon = rows.find((s) => s.code === 'moon-rabbit')!;
    const jade = rows.find((s) => s.code === 'jade-dragon')!;
    await expect(
      createOrder(ctxOf(moon.channelId, buyer!), { saleId: moon.id, quantity: 1, idempotencyKey: key() }, FIVE_MIN),
    ).rejects.toMatchObject({ code: 409, data: { reason: 'notOpen' } });
    await expect(
      createOrder(ctxOf(jade.channelId, buyer!), { saleId: jade.id, quantity: 1, idempotencyKey: key() }, FIVE_MIN),
    ).rejects.toMatchObject({ code: 409, data: { reason: 'ended' } });
  });

  it("does not sell another channel's sale, nor show another buyer's order", async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'tenant', amount: 5, limitPerUser: 1, now: t0 });
    const lumen = await makeSale(db, { channelKey: 'LUMEN', code: 'tenant-lumen', amount: 5, limitPerUser: 1, now: t0 });
    const [alice, bob] = await makeUsers(db, 2, '3805');
    await expect(
      createOrder(ctxOf(lumen.channelId, alice!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN),
    ).rejects.toMatchObject({ code: 404 });
    const order = await createOrder(ctxOf(channelId, alice!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    await expect(getOrder(ctxOf(channelId, bob!), order.orderNo)).rejects.toMatchObject({ code: 404 });
    await expect(getOrder(ctxOf(lumen.channelId, alice!), order.orderNo)).rejects.toMatchObject({ code: 404 });
    await expect(cancelOrder(ctxOf(channelId, bob!), order.orderNo)).rejects.toMatchObject({ code: 404 });
  });
});

describe('expiry and cancel', () => {
  it('expires an unpaid order at its deadline, not a millisecond before, and gives stock and quota back', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'expiry', amount: 3, limitPerUser: 1, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3806');
    const order = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect(order.expireTime).toBe(new Date(t0.getTime() + FIVE_MIN).toISOString());
    expect(await stockLeft(db, saleId)).toBe(2);

    const justBefore = new Date(t0.getTime() + FIVE_MIN - 1);
    await expireOverdueOrders(db, justBefore);
    expect((await getOrder(ctxOf(channelId, buyer!, justBefore), order.orderNo)).statusTrade).toBe(ORDER_STATUS.toPay);

    const deadline = new Date(t0.getTime() + FIVE_MIN);
    expect(await expireOverdueOrders(db, deadline)).toBeGreaterThanOrEqual(1);
    const expired = await getOrder(ctxOf(channelId, buyer!, deadline), order.orderNo);
    expect(expired).toMatchObject({ statusTrade: ORDER_STATUS.cancelled, cancelReason: 'expired' });
    expect(await stockLeft(db, saleId)).toBe(3);
    // The quota came back too: the buyer (limit 1) can buy again.
    const again = await createOrder(ctxOf(channelId, buyer!, deadline), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect(again.statusTrade).toBe(ORDER_STATUS.toPay);
  });

  it('expires lazily when the buyer looks, without waiting for the sweep', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'lazy', amount: 2, limitPerUser: 1, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3807');
    const order = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    const later = new Date(t0.getTime() + FIVE_MIN + 1000);
    expect((await getOrder(ctxOf(channelId, buyer!, later), order.orderNo)).statusTrade).toBe(ORDER_STATUS.cancelled);
    expect(await stockLeft(db, saleId)).toBe(2);
  });

  it('frees overdue orders in the way of a buy before the sweep passes: the buyer own (limit) and others (sold out)', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'in-the-way', amount: 1, limitPerUser: 1, now: t0 });
    const [first, second] = await makeUsers(db, 2, '3810');
    const stale = await createOrder(ctxOf(channelId, first!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    await expect(createOrder(ctxOf(channelId, second!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN)).rejects.toMatchObject({
      data: { reason: 'soldOut' },
    });
    const later = new Date(t0.getTime() + FIVE_MIN);
    // The only copy is held by an overdue order: the next buyer gets it, and the overdue order is expired.
    const taken = await createOrder(ctxOf(channelId, second!, later), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect(taken.statusTrade).toBe(ORDER_STATUS.toPay);
    expect((await getOrder(ctxOf(channelId, first!, later), stale.orderNo)).cancelReason).toBe('expired');
    expect(await stockLeft(db, saleId)).toBe(0);

    // Same for the per-user limit: the second buyer's own overdue order gives the quota back at the next buy.
    const { saleId: other } = await makeSale(db, { code: 'own-in-the-way', amount: 5, limitPerUser: 1, now: t0 });
    const own = await createOrder(ctxOf(channelId, second!), { saleId: other, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    await expect(
      createOrder(ctxOf(channelId, second!), { saleId: other, quantity: 1, idempotencyKey: key() }, FIVE_MIN),
    ).rejects.toMatchObject({
      data: { reason: 'limit' },
    });
    const next = await createOrder(ctxOf(channelId, second!, later), { saleId: other, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect(next.orderNo).not.toBe(own.orderNo);
    expect(await stockLeft(db, other)).toBe(4);
  });

  it('lets the buyer cancel an unpaid order once; the stock returns exactly once', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'cancel', amount: 4, limitPerUser: 2, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3808');
    const order = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 2, idempotencyKey: key() }, FIVE_MIN);
    const { ok, errors } = await settle([
      cancelOrder(ctxOf(channelId, buyer!), order.orderNo),
      cancelOrder(ctxOf(channelId, buyer!), order.orderNo),
    ]);
    expect(ok.length + errors.length).toBe(2);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(await stockLeft(db, saleId)).toBe(4);
    const [quota] = await db
      .select()
      .from(saleQuotas)
      .where(and(eq(saleQuotas.saleId, saleId), eq(saleQuotas.userId, buyer!)));
    expect(quota!.reserved).toBe(0);
    expect((await getOrder(ctxOf(channelId, buyer!), order.orderNo)).cancelReason).toBe('buyer');
  });

  it('refuses to cancel an order that expired in words that say it expired, not that it was cancelled (issue 30)', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'cancel-expired', amount: 4, limitPerUser: 2, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3891');
    const order = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    const later = new Date(t0.getTime() + FIVE_MIN);
    const refusal = await cancelOrder(ctxOf(channelId, buyer!, later), order.orderNo).catch((error: unknown) => error as AppError);
    expect(refusal).toBeInstanceOf(AppError);
    // The reason a client branches on stays `cancelled`; the words a buyer reads say it expired.
    expect((refusal as AppError).data).toMatchObject({ reason: 'cancelled' });
    expect(renderMessage((refusal as AppError).text!, 'en')).toBe('This order has expired: it was not paid in time.');
    expect(renderMessage((refusal as AppError).text!, 'zh-CN')).toBe('该订单已超时未支付，已过期');

    const mine = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    await cancelOrder(ctxOf(channelId, buyer!), mine.orderNo);
    const again = await cancelOrder(ctxOf(channelId, buyer!), mine.orderNo).catch((error: unknown) => error as AppError);
    expect(renderMessage((again as AppError).text!, 'en')).toBe('This order is already cancelled.');
  });

  it('lists the buyer orders newest first, paged, with a status filter', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'list', amount: 10, limitPerUser: 5, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3809');
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(
        await createOrder(
          ctxOf(channelId, buyer!, new Date(t0.getTime() + i * 1000)),
          { saleId, quantity: 1, idempotencyKey: key() },
          FIVE_MIN,
        ),
      );
    await cancelOrder(ctxOf(channelId, buyer!, new Date(t0.getTime() + 5000)), made[0]!.orderNo);
    const now = new Date(t0.getTime() + 6000);
    const page = await listOrders(ctxOf(channelId, buyer!, now), { pageCount: 1, pageSize: 2 });
    expect(page).toMatchObject({ total: 3, pages: 2, current: 1, size: 2 });
    expect(page.records.map((o) => o.orderNo)).toEqual([made[2]!.orderNo, made[1]!.orderNo]);
    const cancelled = await listOrders(ctxOf(channelId, buyer!, now), { pageCount: 1, pageSize: 10, statusTrade: ORDER_STATUS.cancelled });
    expect(cancelled.records.map((o) => o.orderNo)).toEqual([made[0]!.orderNo]);
    // Unpaid and cancelled orders mint nothing.
    expect(await db.select().from(holdings).where(eq(holdings.userId, buyer!))).toHaveLength(0);
  });
});

describe('the sale changing as a buyer taps (issue 32, drop-day controls and frozen terms)', () => {
  // Every process reads a sale's terms from its cache (readBuyTerms); an operator's edit, pause or cancel made through
  // another process reaches this one a moment later. The buy's own statement has the last word.
  const sale = (id: number) =>
    db
      .select()
      .from(sales)
      .where(eq(sales.id, id))
      .then((rows) => rows[0]!);

  it('a price changed after this process read the terms refuses the buy with "changed", keeps nothing, and the next tap buys at the new price', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'terms-price', price: 1000, amount: 5, limitPerUser: 2, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3897');
    await readBuyTerms(db, channelId, saleId);
    // Another process's operator (no notice reaches this cache): the price becomes 12.00.
    await db.update(sales).set({ price: 1200 }).where(eq(sales.id, saleId));

    const refusal = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN).catch(
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe(409);
    expect((refusal as AppError).data?.reason).toBe('changed');
    expect(renderMessage((refusal as AppError).text!, 'en')).toBe(
      'This sale has just changed. Please look at its price and limit again before buying.',
    );
    expect(renderMessage((refusal as AppError).text!, 'zh-CN')).toBe('该发售刚刚有变动，请重新查看价格和限购后再购买');
    expect(await stockLeft(db, saleId)).toBe(5);
    expect(await db.select().from(orders).where(eq(orders.saleId, saleId))).toEqual([]);
    expect(await db.select().from(saleQuotas).where(eq(saleQuotas.saleId, saleId))).toEqual([]);

    const order = await createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect(order.amount).toBe(1200);
    expect(await stockLeft(db, saleId)).toBe(4);
  });

  it('a pause, a cancel or a new limit made by another process a moment ago answers as the sale is now', async () => {
    const [buyer] = await makeUsers(db, 1, '3892');
    const changedUnderCache = async (code: string, change: Partial<typeof sales.$inferInsert>, quantity = 1) => {
      const { saleId, channelId } = await makeSale(db, { code, price: 1000, amount: 5, limitPerUser: 3, now: t0 });
      await readBuyTerms(db, channelId, saleId);
      await db.update(sales).set(change).where(eq(sales.id, saleId));
      const refusal = (await createOrder(ctxOf(channelId, buyer!), { saleId, quantity, idempotencyKey: key() }, FIVE_MIN).catch(
        (e: unknown) => e,
      )) as AppError;
      expect((await sale(saleId)).amountAvailable).toBe(5);
      return { code: refusal.code, en: renderMessage(refusal.text!, 'en') };
    };

    expect(await changedUnderCache('terms-pause', { pausedAt: t0 })).toEqual({
      code: 409,
      en: 'Buying is paused on this sale for now. Please try again later.',
    });
    expect(await changedUnderCache('terms-cancel', { cancelledAt: t0 })).toEqual({
      code: 409,
      en: 'This sale was cancelled. Paid orders are refunded.',
    });
    // This process still reads a limit of 3: two copies are refused on the limit the sale has now.
    expect(await changedUnderCache('terms-limit', { limitPerUser: 1 }, 2)).toMatchObject({ code: 400 });
    expect(await changedUnderCache('terms-later', { saleStartTime: new Date(t0.getTime() + 60_000) })).toMatchObject({ code: 409 });
  });

  it('an edit that commits while a buy waits on the sale is not followed by an order on the old terms', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'terms-race', price: 1000, amount: 5, limitPerUser: 1, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3893');
    await readBuyTerms(db, channelId, saleId);
    let buying: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      // The console's edit holds the sale's row (lib/sale/admin.ts reads it FOR UPDATE) while a buyer taps.
      await tx.select().from(sales).where(eq(sales.id, saleId)).for('update');
      buying = createOrder(ctxOf(channelId, buyer!), { saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN).catch((e: unknown) => e);
      await tx.update(sales).set({ price: 900 }).where(eq(sales.id, saleId));
    });
    const answer = (await buying) as AppError;
    expect(answer.data?.reason).toBe('changed');
    expect(await db.select().from(orders).where(eq(orders.saleId, saleId))).toEqual([]);
    expect(await stockLeft(db, saleId)).toBe(5);
  });
});
