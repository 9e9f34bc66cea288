import { and, eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { blindBoxPrizes, holdings, orderRefunds, orders, payments, sales, sandboxRefunds, smsOutbox, users } from '@/lib/db/schema';
import { createOrder, getOrder } from '@/lib/order/service';
import { listCollection, openBox } from '@/lib/collection/service';
import type { UserScope } from '@/lib/procedure/scope';
import { PaymentProviderError, type PaymentProvider } from './provider';
import { sandboxProvider } from './sandbox';
import { applyNotification, startPayment } from './service';
import { reconcilePayments } from './reconcile';
import { refundOrder, refundPreview, type RefundInput } from './refund';
import { cancelProgress, cancelSale, refundCancelledSales } from './sale-cancel';

// Refunds of paid orders and cancelled sales (issue 32, "Orders and buyers", "Drop-day controls"; docs/orders.md
// "Refunds"). Runs on PGlite and, with DATABASE_URL, on PostgreSQL.

const t0 = new Date('2026-12-02T08:00:00Z');
const SECRET = 'test-payment-secret-0123456789abcdef';
const FIVE_MIN = 5 * 60_000;
const db = seededTestDb(t0);
let seq = 0;

let errors: jest.SpyInstance;
beforeEach(() => {
  errors = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => errors.mockRestore());

const sandbox = () => sandboxProvider(db, SECRET);

/** A buyer's paid order of `quantity` copies at 9,900 fen each, paid at the sandbox. */
async function paidOrder(options: { quantity?: number; blindBox?: boolean; sale?: Awaited<ReturnType<typeof makeSale>> } = {}) {
  const n = ++seq;
  const sale =
    options.sale ??
    (await makeSale(db, { code: `refund-${n}`, amount: 10, limitPerUser: 5, price: 9900, now: t0, isBlindBox: options.blindBox }));
  const [buyer] = await makeUsers(db, 1, String(6100 + n));
  const ctx: UserScope = { db, now: t0, channelId: sale.channelId, userId: buyer! };
  const order = await createOrder(ctx, { saleId: sale.saleId, quantity: options.quantity ?? 1, idempotencyKey: `rf-${n}` }, FIVE_MIN);
  const payment = await startPayment({ ...ctx, channelKey: 'AURORA', provider: sandbox() }, order.orderNo);
  const settled = await sandbox().settle({ paymentNo: payment.paymentNo, amount: payment.amount, outcome: 'paid', now: t0 });
  const tradeNo = (JSON.parse(settled.body) as { tradeNo: string }).tradeNo;
  await applyNotification(
    db,
    sandbox(),
    { paymentNo: payment.paymentNo, providerTradeNo: tradeNo, amount: payment.amount, paid: true },
    t0,
  );
  const view = await getOrder(ctx, order.orderNo);
  return { sale, ctx, order: view, payment, copies: view.editions.map((e) => Number(e.holdingId)) };
}

function input(o: { ctx: UserScope; order: { orderNo: string } }, holdingIds: number[], key: string): RefundInput {
  return {
    channelId: o.ctx.channelId,
    orderNo: o.order.orderNo,
    holdingIds,
    reason: 'price typo',
    idempotencyKey: key,
    operatorId: 1,
    now: t0,
  };
}

/** What a refusal leaves: the order's refunds, its copies' marks and the sandbox's refunds, to compare before and after. */
async function state(orderNo: string) {
  const [order] = await db.select().from(orders).where(eq(orders.orderNo, orderNo));
  return {
    refunds: await db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order!.id)),
    copies: await db.select({ id: holdings.id, refundedAt: holdings.refundedAt }).from(holdings).where(eq(holdings.orderId, order!.id)),
    sandbox: (await db.select().from(sandboxRefunds)).length,
  };
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; message: string; data: { field?: string } | null };
  }
  throw new Error('expected a refusal');
}

describe('refunding a paid order', () => {
  it('refunds the whole order once through the sandbox: copies leave the collection, the buyer sees it and gets a text; a double-click is one refund', async () => {
    const o = await paidOrder({ quantity: 2 });
    expect((await listCollection(o.ctx, { pageCount: 1, pageSize: 10 })).total).toBe(2);
    const first = await refundOrder(db, input(o, o.copies, 'click-1'), { providers: sandbox() });
    expect(first.replayed).toBe(false);
    expect(first.refund).toMatchObject({ quantity: 2, amount: 19_800, status: 'done', reason: 'price typo' });
    const again = await refundOrder(db, input(o, o.copies, 'click-1'), { providers: sandbox() });
    expect(again).toMatchObject({ replayed: true, refund: { refundNo: first.refund.refundNo } });

    const atSandbox = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentNo, o.payment.paymentNo));
    expect(atSandbox).toEqual([expect.objectContaining({ refundNo: first.refund.refundNo, amount: 19_800 })]);
    expect((await listCollection(o.ctx, { pageCount: 1, pageSize: 10 })).total).toBe(0);
    const view = await getOrder(o.ctx, o.order.orderNo);
    expect(view.refunds).toEqual([
      { amount: 19_800, quantity: 2, numbers: view.editions.map((e) => e.number), time: t0.toISOString(), status: 'done' },
    ]);
    const [buyer] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, o.ctx.userId));
    const texts = await db.select().from(smsOutbox).where(eq(smsOutbox.phone, buyer!.phone));
    expect(texts).toHaveLength(1);
    expect(texts[0]!.text).toContain(o.order.orderNo);
  });

  it('refunds some copies, then others, each with its own refund number; never a copy twice', async () => {
    const o = await paidOrder({ quantity: 2 });
    const one = await refundOrder(db, input(o, [o.copies[0]!], 'a'), { providers: sandbox() });
    const two = await refundOrder(db, input(o, [o.copies[1]!], 'b'), { providers: sandbox() });
    expect(one.refund.refundNo).not.toBe(two.refund.refundNo);
    expect([one.refund.amount, two.refund.amount]).toEqual([9900, 9900]);
    const atSandbox = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentNo, o.payment.paymentNo));
    expect(atSandbox.map((r) => r.refundNo).sort()).toEqual([one.refund.refundNo, two.refund.refundNo].sort());

    const before = await state(o.order.orderNo);
    const error = await refusal(refundOrder(db, input(o, [o.copies[0]!], 'c'), { providers: sandbox() }));
    expect(error).toMatchObject({ code: 409, data: { field: 'holdingIds' } });
    expect(error.message).toMatch(/already refunded/);
    expect(await state(o.order.orderNo)).toEqual(before);
  });

  it('refuses an unpaid order, naming it, and changes nothing', async () => {
    const n = ++seq;
    const sale = await makeSale(db, { code: `refund-unpaid-${n}`, amount: 5, limitPerUser: 2, price: 500, now: t0 });
    const [buyer] = await makeUsers(db, 1, String(6600 + n));
    const ctx: UserScope = { db, now: t0, channelId: sale.channelId, userId: buyer! };
    const order = await createOrder(ctx, { saleId: sale.saleId, quantity: 1, idempotencyKey: `u-${n}` }, FIVE_MIN);
    const before = await state(order.orderNo);
    const error = await refusal(refundOrder(db, input({ ctx, order }, [1], 'k'), { providers: sandbox() }));
    expect(error).toMatchObject({ code: 409, data: { field: 'orderNo' } });
    expect(error.message).toMatch(/not paid yet/);
    expect(await state(order.orderNo)).toEqual(before);
  });

  it("answers 404 for another channel's order", async () => {
    const o = await paidOrder();
    const error = await refusal(
      refundOrder(db, { ...input(o, o.copies, 'x'), channelId: o.ctx.channelId + 1000 }, { providers: sandbox() }),
    );
    expect(error.code).toBe(404);
    expect((await state(o.order.orderNo)).refunds).toEqual([]);
  });

  it('shows which copies can be refunded (one spent in an exchange, one no longer held) and refunds only those; the others are refused by name', async () => {
    const o = await paidOrder({ quantity: 3 });
    const [spent, away, kept] = o.copies;
    await db.update(holdings).set({ destroyedAt: t0 }).where(eq(holdings.id, spent!));
    const [other] = await makeUsers(db, 1, String(6900 + seq));
    await db.update(holdings).set({ userId: other! }).where(eq(holdings.id, away!));
    const preview = await refundPreview(db, o.ctx.channelId, o.order.orderNo);
    expect(preview.copies.map((c) => [c.holdingId, c.refundable, c.why])).toEqual([
      [spent, false, 'destroyed'],
      [away, false, 'givenAway'],
      [kept, true, null],
    ]);
    for (const id of [spent!, away!]) {
      const before = await state(o.order.orderNo);
      const error = await refusal(refundOrder(db, input(o, [id, kept!], `bad-${id}`), { providers: sandbox() }));
      expect(error).toMatchObject({ code: 409, data: { field: 'holdingIds' } });
      expect(error.message).toMatch(id === spent ? /spent in an exchange/ : /no longer holds/);
      expect(await state(o.order.orderNo)).toEqual(before);
    }
    const done = await refundOrder(db, input(o, [kept!], 'good'), { providers: sandbox() });
    expect(done.refund).toMatchObject({ quantity: 1, amount: 9900 });
  });

  it("takes an opened blind box's prize back in its place", async () => {
    const box = await makeSale(db, { code: `refund-box-${++seq}`, amount: 5, limitPerUser: 2, price: 9900, now: t0, isBlindBox: true });
    const prize = await makeSale(db, { code: `refund-prize-${seq}`, amount: 5, limitPerUser: 1, now: t0 });
    await db.insert(blindBoxPrizes).values({ boxCommodityId: box.commodityId, prizeCommodityId: prize.commodityId, weight: 1 });
    const o = await paidOrder({ sale: box });
    const opened = await openBox(o.ctx, o.copies[0]!, () => 0);
    expect((await listCollection(o.ctx, { pageCount: 1, pageSize: 10 })).total).toBe(1);
    const preview = await refundPreview(db, o.ctx.channelId, o.order.orderNo);
    expect(preview.copies[0]).toMatchObject({ refundable: true, prize: { holdingId: Number(opened.prize.id) } });
    await refundOrder(db, input(o, o.copies, 'box'), { providers: sandbox() });
    expect((await listCollection(o.ctx, { pageCount: 1, pageSize: 10 })).total).toBe(0);
  });

  it('never gives back more than was paid in total', async () => {
    const o = await paidOrder({ quantity: 2 });
    const [order] = await db.select().from(orders).where(eq(orders.orderNo, o.order.orderNo));
    // A refund made outside this order's copies (by hand, before the console) already gave back 15,000 fen.
    const [byHand] = await db
      .insert(orderRefunds)
      .values({
        refundNo: `HAND-${seq}`,
        orderId: order!.id,
        channelId: order!.channelId,
        paymentId: await paymentIdOf(order!.id),
        quantity: 1,
        amount: 15_000,
        reason: 'by hand',
        status: 'done',
        idempotencyKey: 'by-hand',
        createdAt: t0,
      })
      .returning();
    expect(byHand).toBeDefined();
    const before = await state(o.order.orderNo);
    const error = await refusal(refundOrder(db, input(o, [o.copies[0]!], 'over'), { providers: sandbox() }));
    expect(error).toMatchObject({ code: 409 });
    expect(error.message).toMatch(/more than the ¥198.00 paid \(¥150.00 refunded already\)/);
    expect(await state(o.order.orderNo)).toEqual(before);
  });

  it('leaves a refund owed when the provider fails, and the reconciliation gives it back', async () => {
    const o = await paidOrder();
    const failing: PaymentProvider = {
      ...sandbox(),
      async refund() {
        throw new PaymentProviderError('sandbox', 'SYSTEM_ERROR', 'try later', true);
      },
    };
    const made = await refundOrder(db, input(o, o.copies, 'fail'), { providers: failing });
    expect(made.refund.status).toBe('owed');
    expect((await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentNo, o.payment.paymentNo))).length).toBe(0);
    // The copies are taken back at once; only the money waits.
    expect((await listCollection(o.ctx, { pageCount: 1, pageSize: 10 })).total).toBe(0);
    await reconcilePayments(db, sandbox(), new Date(t0.getTime() + 60_000));
    const [row] = await db.select().from(orderRefunds).where(eq(orderRefunds.refundNo, made.refund.refundNo));
    expect(row).toMatchObject({ status: 'done' });
    expect((await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentNo, o.payment.paymentNo))).length).toBe(1);
  });

  it('makes one refund of two concurrent ones, with the same key or with two', async () => {
    const o = await paidOrder({ quantity: 2 });
    const same = await Promise.allSettled([
      refundOrder(db, input(o, o.copies, 'dbl'), { providers: sandbox() }),
      refundOrder(db, input(o, o.copies, 'dbl'), { providers: sandbox() }),
    ]);
    expect(same.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const o2 = await paidOrder({ quantity: 2 });
    const two = await Promise.allSettled([
      refundOrder(db, input(o2, o2.copies, 'one'), { providers: sandbox() }),
      refundOrder(db, input(o2, o2.copies, 'two'), { providers: sandbox() }),
    ]);
    expect(two.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const x of [o, o2]) {
      const { refunds } = await state(x.order.orderNo);
      expect(refunds).toHaveLength(1);
      expect((await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.paymentNo, x.payment.paymentNo))).length).toBe(1);
    }
  });
});

async function paymentIdOf(orderId: number): Promise<number> {
  const [p] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 1)));
  return p!.id;
}

describe('cancelling a sale', () => {
  it('refuses orders, cancels the unpaid, refunds every paid order whole over passes that may stop midway', async () => {
    const sale = await makeSale(db, { code: `cancel-${++seq}`, amount: 20, limitPerUser: 5, price: 1000, now: t0 });
    const paid = [await paidOrder({ sale, quantity: 2 }), await paidOrder({ sale }), await paidOrder({ sale })];
    const [late] = await makeUsers(db, 2, String(7700 + seq));
    const unpaid = await createOrder(
      { db, now: t0, channelId: sale.channelId, userId: late! },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: `c-${seq}` },
      FIVE_MIN,
    );

    await cancelSale(db, { channelId: sale.channelId, saleId: sale.saleId, now: t0 });
    const error = await refusal(
      createOrder(
        { db, now: t0, channelId: sale.channelId, userId: late! },
        { saleId: sale.saleId, quantity: 1, idempotencyKey: `c2-${seq}` },
        FIVE_MIN,
      ),
    );
    expect(error.message).toMatch(/cancelled/);
    expect(await cancelProgress(db, sale.channelId, sale.saleId)).toMatchObject({ paidOrders: 3, refunded: 0, finished: false });

    // One order per pass, as if the process died after each: the next pass resumes with the next order.
    await refundCancelledSales(db, sandbox(), t0, { limit: 1 });
    expect(await cancelProgress(db, sale.channelId, sale.saleId)).toMatchObject({ refunded: 1, unpaidLeft: 0 });
    await refundCancelledSales(db, sandbox(), t0, { limit: 1 });
    await refundCancelledSales(db, sandbox(), t0, { limit: 1 });
    await refundCancelledSales(db, sandbox(), t0, { limit: 1 });
    expect(await cancelProgress(db, sale.channelId, sale.saleId)).toMatchObject({
      paidOrders: 3,
      refunded: 3,
      failures: [],
      finished: true,
    });
    for (const o of paid) {
      expect((await getOrder(o.ctx, o.order.orderNo)).refunds).toEqual([
        expect.objectContaining({ quantity: o.copies.length, status: 'done' }),
      ]);
    }
    const [cancelled] = await db.select().from(orders).where(eq(orders.orderNo, unpaid.orderNo));
    expect(cancelled).toMatchObject({ statusTrade: 2, cancelReason: 'saleCancelled' });
    const [row] = await db.select().from(sales).where(eq(sales.id, sale.saleId));
    expect(row!.cancelledAt).toEqual(t0);
  });
});
