import { eq } from 'drizzle-orm';
import { seededTestDb, transactionsDuring } from '@/test/db';
import { makeSale, makeUsers, stockLeft } from '@/test/buying';
import { holdings, orders, payments } from '@/lib/db/schema';
import { createOrder, getOrder } from '@/lib/order/service';
import { ORDER_STATUS } from '@/lib/order/status';
import { chainUpPending } from '@/lib/chain/ledger-job';
import { chainTokenId, verifyLedger } from '@/lib/chain/ledger';
import { chainLedger } from '@/lib/db/schema';
import { NotificationError } from './provider';
import { sandboxProvider, SANDBOX_SIGNATURE_HEADER, signSandboxBody } from './sandbox';
import { applyNotification, queryPayment, receiveNotification, startPayment, PAYMENT_LIMITS, PAYMENT_STATUS } from './service';
import type { UserScope } from '@/lib/procedure/scope';

// Payment (DESIGN §7): signed notifications, verified, amount-checked, applied exactly once; minting and chain-up.

const t0 = new Date('2026-11-22T08:00:00Z');
const FIVE_MIN = 5 * 60_000;
const SECRET = 'test-payment-secret-0123456789abcdef';
let keySeq = 0;
const key = () => `pay-key-${++keySeq}`;

const db = seededTestDb(t0);

const provider = () => sandboxProvider(db, SECRET);
const at = (ms: number) => new Date(t0.getTime() + ms);

/** A buyer with an unpaid order of `quantity` on a fresh sale, and a payment opened for it. */
async function orderWithPayment(code: string, quantity = 1, amount = 10) {
  const sale = await makeSale(db, { code, amount, limitPerUser: 5, price: 19900, now: t0 });
  const [buyer] = await makeUsers(db, 1, String(3900 + keySeq));
  const ctx: UserScope = { db, now: t0, channelId: sale.channelId, userId: buyer! };
  const order = await createOrder(ctx, { saleId: sale.saleId, quantity, idempotencyKey: key() }, FIVE_MIN);
  const payment = await startPayment({ ...ctx, channelKey: 'AURORA', provider: provider() }, order.orderNo);
  return { sale, ctx, order, payment };
}

async function orderIdOf(orderNo: string) {
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, orderNo));
  return row?.id;
}

function notificationFor(paymentNo: string, amount: number, status: 'SUCCESS' | 'FAILED' = 'SUCCESS') {
  const body = JSON.stringify({ paymentNo, tradeNo: `T-${paymentNo}`, amount, status });
  return { body, headers: new Headers({ [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(SECRET, body) }) };
}

describe('payment notifications', () => {
  it('pays once and mints once when the same notification arrives 20 times at once', async () => {
    const { sale, ctx, order, payment } = await orderWithPayment('notify-20', 2);
    expect(payment.payUrl).toBe(`/sandbox/cashier/${payment.paymentNo}`);
    expect(payment.amount).toBe(2 * 19900);
    const { body, headers } = notificationFor(payment.paymentNo, payment.amount);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => receiveNotification(db, provider(), body, headers, at(1000))));
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    const paid = await getOrder({ ...ctx, now: at(2000) }, order.orderNo);
    expect(paid.statusTrade).toBe(ORDER_STATUS.paid);
    expect(paid.payTime).toBe(at(1000).toISOString());
    // Two numbered holdings, consecutive, of the edition size.
    expect(paid.editions.map((e) => e.number)).toEqual([1, 2]);
    expect(paid.editions.every((e) => e.amountNumber === 10)).toBe(true);
    expect(await db.select().from(holdings).where(eq(holdings.commodityId, sale.commodityId))).toHaveLength(2);
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(row).toMatchObject({ status: PAYMENT_STATUS.paid, notifications: 20 });
  });

  it('refuses a tampered signature, a tampered amount and an unknown payment, changing nothing', async () => {
    const { ctx, order, payment } = await orderWithPayment('tamper');
    const good = notificationFor(payment.paymentNo, payment.amount);
    const forgedBody = good.body.replace('"SUCCESS"', '"SUCCESS" ').replace(`"amount":${payment.amount}`, '"amount":1');
    await expect(receiveNotification(db, provider(), forgedBody, good.headers, at(1000))).rejects.toThrow(NotificationError);
    await expect(
      receiveNotification(db, provider(), good.body, new Headers({ [SANDBOX_SIGNATURE_HEADER]: '0'.repeat(64) }), at(1000)),
    ).rejects.toThrow(/signature/);
    await expect(receiveNotification(db, provider(), good.body, new Headers(), at(1000))).rejects.toThrow(/signature/);
    // Correctly signed (a provider bug or a leaked key) but the wrong amount: refused by the amount check.
    const cheap = notificationFor(payment.paymentNo, 1);
    await expect(receiveNotification(db, provider(), cheap.body, cheap.headers, at(1000))).rejects.toThrow(/amount: 1 does not match/);
    const unknown = notificationFor('P0000000000000000000000', payment.amount);
    await expect(receiveNotification(db, provider(), unknown.body, unknown.headers, at(1000))).rejects.toThrow(/no such payment/);
    expect((await getOrder(ctx, order.orderNo)).statusTrade).toBe(ORDER_STATUS.toPay);
  });

  it('keeps the order payable after a failed payment, and a retry pays it', async () => {
    const { ctx, order, payment } = await orderWithPayment('fail-retry');
    const failed = notificationFor(payment.paymentNo, payment.amount, 'FAILED');
    expect(await receiveNotification(db, provider(), failed.body, failed.headers, at(1000))).toBe('failed');
    expect((await getOrder(ctx, order.orderNo)).statusTrade).toBe(ORDER_STATUS.toPay);
    const retry = await startPayment({ ...ctx, now: at(2000), channelKey: 'AURORA', provider: provider() }, order.orderNo);
    expect(retry.paymentNo).not.toBe(payment.paymentNo);
    const ok = notificationFor(retry.paymentNo, retry.amount);
    expect(await receiveNotification(db, provider(), ok.body, ok.headers, at(3000))).toBe('paid');
    expect((await getOrder(ctx, order.orderNo)).editions).toHaveLength(1);
    // A paid order takes no new payment.
    await expect(startPayment({ ...ctx, channelKey: 'AURORA', provider: provider() }, order.orderNo)).rejects.toMatchObject({ code: 409 });
  });

  it('closes and refunds a payment that arrives after the order expired, minting nothing and selling nothing twice', async () => {
    const { sale, ctx, order, payment } = await orderWithPayment('late', 1, 1);
    expect(await stockLeft(db, sale.saleId)).toBe(0);
    const late = at(FIVE_MIN + 1000);
    // Someone else buys the copy the expired order gave back.
    const [other] = await makeUsers(db, 1, '3999');
    const otherOrder = await createOrder(
      { db, now: late, channelId: sale.channelId, userId: other! },
      { saleId: sale.saleId, quantity: 1, idempotencyKey: key() },
      FIVE_MIN,
    );
    expect(otherOrder.statusTrade).toBe(ORDER_STATUS.toPay);
    const { body, headers } = notificationFor(payment.paymentNo, payment.amount);
    expect(await receiveNotification(db, provider(), body, headers, late)).toBe('refunded');
    const closed = await getOrder({ ...ctx, now: late }, order.orderNo);
    expect(closed).toMatchObject({ statusTrade: ORDER_STATUS.closed, cancelReason: 'paidLate', editions: [] });
    expect(await stockLeft(db, sale.saleId)).toBe(0);
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(row!.status).toBe(PAYMENT_STATUS.refunded);
  });

  it('pays a failed payment that then succeeds, once, even when the SUCCESS arrives 20 times at once', async () => {
    const { ctx, order, payment } = await orderWithPayment('fail-then-pay', 2);
    const failed = notificationFor(payment.paymentNo, payment.amount, 'FAILED');
    expect(await receiveNotification(db, provider(), failed.body, failed.headers, at(1000))).toBe('failed');
    // The amount check still holds for the SUCCESS that follows.
    const cheap = notificationFor(payment.paymentNo, 1);
    await expect(receiveNotification(db, provider(), cheap.body, cheap.headers, at(1500))).rejects.toThrow(/amount: 1 does not match/);
    const { body, headers } = notificationFor(payment.paymentNo, payment.amount);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => receiveNotification(db, provider(), body, headers, at(2000))));
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    const paid = await getOrder({ ...ctx, now: at(3000) }, order.orderNo);
    expect(paid).toMatchObject({ statusTrade: ORDER_STATUS.paid, payTime: at(2000).toISOString() });
    expect(paid.editions).toHaveLength(2);
    // Once paid, a FAILED changes nothing, and another SUCCESS is a repeat.
    expect(await receiveNotification(db, provider(), failed.body, failed.headers, at(4000))).toBe('duplicate');
    expect(await receiveNotification(db, provider(), body, headers, at(4000))).toBe('duplicate');
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(row).toMatchObject({ status: PAYMENT_STATUS.paid, settledAt: at(2000), notifications: 23 });
    expect((await getOrder({ ...ctx, now: at(5000) }, order.orderNo)).editions).toHaveLength(2);
  });

  it('refunds, once, a failed payment that succeeds after its order expired', async () => {
    const { ctx, order, payment } = await orderWithPayment('fail-then-late');
    const failed = notificationFor(payment.paymentNo, payment.amount, 'FAILED');
    expect(await receiveNotification(db, provider(), failed.body, failed.headers, at(1000))).toBe('failed');
    const refunds: string[] = [];
    const counting = { ...provider(), refund: async (paymentNo: string) => void refunds.push(paymentNo) };
    const late = at(FIVE_MIN + 1000);
    const { body, headers } = notificationFor(payment.paymentNo, payment.amount);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => receiveNotification(db, counting, body, headers, late)));
    expect(outcomes.filter((o) => o === 'refunded')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    expect(refunds).toEqual([payment.paymentNo]);
    expect(await getOrder({ ...ctx, now: late }, order.orderNo)).toMatchObject({
      statusTrade: ORDER_STATUS.closed,
      cancelReason: 'paidLate',
      editions: [],
    });
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(row!.status).toBe(PAYMENT_STATUS.refunded);
  });

  it('refunds a failed payment that succeeds after a retry already paid the order', async () => {
    const { ctx, order, payment } = await orderWithPayment('fail-retry-then-pay');
    const failed = notificationFor(payment.paymentNo, payment.amount, 'FAILED');
    await receiveNotification(db, provider(), failed.body, failed.headers, at(1000));
    const retry = await startPayment({ ...ctx, now: at(2000), channelKey: 'AURORA', provider: provider() }, order.orderNo);
    const ok = notificationFor(retry.paymentNo, retry.amount);
    expect(await receiveNotification(db, provider(), ok.body, ok.headers, at(3000))).toBe('paid');
    // The first attempt is captured after all: the order is paid once, the second charge goes back.
    const refunds: string[] = [];
    const counting = { ...provider(), refund: async (paymentNo: string) => void refunds.push(paymentNo) };
    const first = notificationFor(payment.paymentNo, payment.amount);
    expect(await receiveNotification(db, counting, first.body, first.headers, at(4000))).toBe('refunded');
    expect(refunds).toEqual([payment.paymentNo]);
    expect(await getOrder({ ...ctx, now: at(5000) }, order.orderNo)).toMatchObject({ statusTrade: ORDER_STATUS.paid });
    expect((await getOrder({ ...ctx, now: at(5000) }, order.orderNo)).editions).toHaveLength(1);
  });

  it('closes the last open payment when another opens, so its cashier no longer takes it; a SUCCESS for it still pays (issue 29)', async () => {
    const { ctx, order, payment } = await orderWithPayment('close-last');
    // The same buyer, from a computer now: another way to pay, so a new payment, and the first one is closed.
    const desktop = { client: 'desktop' as const, ip: '203.0.113.7' };
    const second = await startPayment({ ...ctx, now: at(1000), channelKey: 'AURORA', provider: provider(), payer: desktop }, order.orderNo);
    expect(second.paymentNo).not.toBe(payment.paymentNo);
    const [first] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(first).toMatchObject({ status: PAYMENT_STATUS.failed, settledAt: at(1000) });
    // Its cashier page's Pay button: the sandbox's books say closed, so nothing is paid.
    const tapped = await provider().settle({ paymentNo: payment.paymentNo, amount: payment.amount, outcome: 'paid', now: at(2000) });
    expect(
      await receiveNotification(db, provider(), tapped.body, new Headers({ [SANDBOX_SIGNATURE_HEADER]: tapped.signature }), at(2000)),
    ).toBe('duplicate');
    expect((await getOrder({ ...ctx, now: at(2000) }, order.orderNo)).statusTrade).toBe(ORDER_STATUS.toPay);
    // Should a provider capture a closed payment after all (a race at its cashier), the money is not dropped: it pays.
    const captured = notificationFor(payment.paymentNo, payment.amount);
    expect(await receiveNotification(db, provider(), captured.body, captured.headers, at(3000))).toBe('paid');
    // Paid now: no payment opens for it any more.
    await expect(startPayment({ ...ctx, now: at(4000), channelKey: 'AURORA', provider: provider() }, order.orderNo)).rejects.toMatchObject({
      code: 409,
    });
  });

  it('hands the same open payment out again to the same buyer and browser, with nothing new opened', async () => {
    const { ctx, order, payment } = await orderWithPayment('again');
    const again = await startPayment({ ...ctx, now: at(60_000), channelKey: 'AURORA', provider: provider() }, order.orderNo);
    expect(again).toEqual(payment);
    const made = await db
      .select()
      .from(payments)
      .where(eq(payments.orderId, (await orderIdOf(order.orderNo))!));
    expect(made).toHaveLength(1);
  });

  it('falls back to asking the provider when the notification never came', async () => {
    const { ctx, order, payment } = await orderWithPayment('query');
    // The cashier recorded the payment, but its notification was lost.
    await provider().settle({ paymentNo: payment.paymentNo, amount: payment.amount, outcome: 'paid', now: at(1000) });
    const view = await queryPayment({ ...ctx, now: at(2000), providers: provider() }, order.orderNo);
    expect(view.statusTrade).toBe(ORDER_STATUS.paid);
    expect(view.editions).toHaveLength(1);
    // And the late notification is then a harmless repeat.
    const { body, headers } = notificationFor(payment.paymentNo, payment.amount);
    const n = await provider().verify(body, headers, at(3000));
    expect(await applyNotification(db, provider(), n, at(3000))).toBe('duplicate');
  });
});

describe('chain-up through the built-in ledger', () => {
  it('puts paid holdings on chain with a tx hash and token id, in an unbroken hash chain', async () => {
    const { ctx, order, payment } = await orderWithPayment('chain', 3);
    const { body, headers } = notificationFor(payment.paymentNo, payment.amount);
    await receiveNotification(db, provider(), body, headers, at(1000));
    const pending = await db.select().from(holdings).where(eq(holdings.chainStatus, 0));
    expect(pending.length).toBeGreaterThanOrEqual(3);
    const [a, b] = await Promise.all([chainUpPending(db, at(2000)), chainUpPending(db, at(2000))]);
    expect(a + b).toBe(pending.length);
    const mine = await getOrder(ctx, order.orderNo);
    const rows = await db
      .select()
      .from(holdings)
      .where(eq(holdings.orderId, Number((await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo)))[0]!.orderId)));
    expect(mine.editions).toHaveLength(3);
    for (const h of rows) {
      expect(h.chainStatus).toBe(1);
      expect(h.tradeHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(h.tokenId).toBe(chainTokenId(h.commodityId, h.number));
    }
    expect(await verifyLedger(db)).toBeNull();
    // Editing any entry breaks the chain, and the check says where.
    const [first] = await db.select().from(chainLedger).orderBy(chainLedger.height).limit(1);
    await db
      .update(chainLedger)
      .set({ payload: { ...first!.payload, owner: 'someone-else' } })
      .where(eq(chainLedger.height, first!.height));
    expect(await verifyLedger(db)).toBe(`height ${first!.height}: hash does not match its content`);
  });
});

describe("a drop's payments hold no transaction (drizzle/0047)", () => {
  it("opens an order's first payment and settles its SUCCESS in one statement each, with what the transaction wrote", async () => {
    const sale = await makeSale(db, { code: 'one-statement', amount: 10, limitPerUser: 5, price: 19900, now: t0 });
    const [first, second] = await makeUsers(db, 2, '3950');
    const scope = (userId: number): UserScope => ({ db, now: t0, channelId: sale.channelId, userId });
    const numbers: number[][] = [];
    for (const buyer of [first!, second!]) {
      const order = await createOrder(scope(buyer), { saleId: sale.saleId, quantity: 2, idempotencyKey: key() }, FIVE_MIN);
      const opened = await transactionsDuring(db, () =>
        startPayment({ ...scope(buyer), channelKey: 'AURORA', provider: provider() }, order.orderNo),
      );
      expect(opened.transactions).toBe(0);
      const [row] = await db.select().from(payments).where(eq(payments.paymentNo, opened.value.paymentNo));
      expect(row).toMatchObject({
        orderId: await orderIdOf(order.orderNo),
        provider: 'sandbox',
        amount: 2 * 19900,
        status: PAYMENT_STATUS.created,
        client: 'mobile',
        payerOpenid: null,
        createdAt: t0,
        nextQueryAt: at(60_000),
        start: { payUrl: `/sandbox/cashier/${opened.value.paymentNo}` },
      });

      const { body, headers } = notificationFor(opened.value.paymentNo, 2 * 19900);
      const settled = await transactionsDuring(db, () => receiveNotification(db, provider(), body, headers, at(1000)));
      expect(settled).toEqual({ value: 'paid', transactions: 0 });
      const paid = await getOrder({ ...scope(buyer), now: at(2000) }, order.orderNo);
      expect(paid).toMatchObject({ statusTrade: ORDER_STATUS.paid, payTime: at(1000).toISOString() });
      numbers.push(paid.editions.map((e) => e.number));
      const [after] = await db.select().from(payments).where(eq(payments.paymentNo, opened.value.paymentNo));
      expect(after).toMatchObject({
        status: PAYMENT_STATUS.paid,
        notifications: 1,
        providerTradeNo: `T-${opened.value.paymentNo}`,
        settledAt: at(1000),
      });
    }
    // The edition's numbers go on from the counter, as the transaction's minting takes them.
    expect(numbers).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('leaves everything else to the transaction: a second payment of an order, a repeat, a SUCCESS too late', async () => {
    const { ctx, order, payment } = await orderWithPayment('one-statement-else', 1);
    // A second payment (the first handed out again would open nothing): the transaction decides, as before.
    const second = await transactionsDuring(db, () =>
      startPayment({ ...ctx, now: at(PAYMENT_LIMITS.reuseMs + 1000), channelKey: 'AURORA', provider: provider() }, order.orderNo),
    );
    expect(second.transactions).toBeGreaterThan(0);
    expect(second.value.paymentNo).not.toBe(payment.paymentNo);
    // The first one, closed when the second opened, still pays when its SUCCESS comes (money taken is never dropped).
    const { body, headers } = notificationFor(payment.paymentNo, payment.amount);
    expect(await receiveNotification(db, provider(), body, headers, at(PAYMENT_LIMITS.reuseMs + 2000))).toBe('paid');
    const repeat = await transactionsDuring(db, () =>
      receiveNotification(db, provider(), body, headers, at(PAYMENT_LIMITS.reuseMs + 3000)),
    );
    expect(repeat).toEqual({ value: 'duplicate', transactions: 1 });

    const late = await orderWithPayment('one-statement-late', 1);
    const tooLate = notificationFor(late.payment.paymentNo, late.payment.amount);
    const refunded = await transactionsDuring(db, () =>
      receiveNotification(db, provider(), tooLate.body, tooLate.headers, at(FIVE_MIN + 1000)),
    );
    expect(refunded).toEqual({ value: 'refunded', transactions: 1 });
  });
});
