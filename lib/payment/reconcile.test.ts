import { eq, inArray } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers, stockLeft } from '@/test/buying';
import { holdings, orders, payments, sandboxTransactions } from '@/lib/db/schema';
import { cancelOrder, createOrder, getOrder } from '@/lib/order/service';
import { ORDER_STATUS } from '@/lib/order/status';
import { runJobsOnce } from '@/lib/jobs/runner';
import type { PaymentProvider } from './provider';
import { sandboxProvider, SANDBOX_SIGNATURE_HEADER, signSandboxBody } from './sandbox';
import { PAYMENT_STATUS, receiveNotification, startPayment } from './service';
import { reconcilePayments } from './reconcile';
import type { UserScope } from '@/lib/procedure/scope';

// The reconciliation job (DESIGN §7, docs/orders.md "Reconciliation"): a payment the provider captured while its
// notification was lost (a crash, kill -9, a network cut) is found by asking the provider, and applied exactly once.

const t0 = new Date('2026-12-01T08:00:00Z');
const FIVE_MIN = 5 * 60_000;
/** The constants under test, restated so the tests fail loudly when they move without the docs. */
const GRACE = 60_000;
const ABANDON_MARGIN = 10 * 60_000;
const SECRET = 'test-payment-secret-0123456789abcdef';
let seq = 0;

const db = seededTestDb(t0);

let errors: jest.SpyInstance;
beforeEach(() => {
  errors = jest.spyOn(console, 'error').mockImplementation(() => {});
});
// Every test starts with no open payment left by another, so each pass sees only the test's own.
afterEach(async () => {
  errors.mockRestore();
  await db.update(payments).set({ status: PAYMENT_STATUS.failed }).where(eq(payments.status, PAYMENT_STATUS.created));
});

/** The sandbox provider, with a record of what the job asked it and which refunds it was told to make. */
function recordingProvider(options: { failQueryOf?: string; beforeAnswer?: () => Promise<void> | void; failRefunds?: number } = {}) {
  const sandbox = sandboxProvider(db, SECRET);
  const queried: string[] = [];
  const refunded: string[] = [];
  const provider: PaymentProvider = {
    ...sandbox,
    async query(paymentNo) {
      queried.push(paymentNo);
      await options.beforeAnswer?.();
      if (paymentNo === options.failQueryOf) throw new Error('provider: 503 Service Unavailable');
      return sandbox.query(paymentNo);
    },
    async refund(paymentNo, amount) {
      refunded.push(paymentNo);
      if (options.failRefunds && options.failRefunds-- > 0) throw new Error('provider: refund timed out');
      return sandbox.refund(paymentNo, amount);
    },
  };
  return { provider, sandbox, queried, refunded };
}

/** A buyer with an unpaid order (five minutes to pay, from `now`) and a payment opened for it at `now`. */
async function orderWithPayment(now: Date, options: { quantity?: number; amount?: number } = {}) {
  const code = `reconcile-${++seq}`;
  const sale = await makeSale(db, { code, amount: options.amount ?? 10, limitPerUser: 5, price: 9900, now });
  const [buyer] = await makeUsers(db, 1, String(5100 + seq));
  const ctx: UserScope = { db, now, channelId: sale.channelId, userId: buyer! };
  const order = await createOrder(ctx, { saleId: sale.saleId, quantity: options.quantity ?? 1, idempotencyKey: `rk-${seq}` }, FIVE_MIN);
  const payment = await startPayment({ ...ctx, channelKey: 'AURORA', provider: sandboxProvider(db, SECRET) }, order.orderNo);
  return { sale, ctx, order, payment };
}

/** The crash: the buyer paid, the provider captured and recorded it, and its notification never reached us. */
async function capturedButLost(payment: { paymentNo: string; amount: number }, at: Date) {
  await sandboxProvider(db, SECRET).settle({ paymentNo: payment.paymentNo, amount: payment.amount, outcome: 'paid', now: at });
}

async function paymentRow(paymentNo: string) {
  const [row] = await db.select().from(payments).where(eq(payments.paymentNo, paymentNo));
  return row!;
}

async function sandboxStatus(paymentNo: string) {
  const [row] = await db
    .select({ status: sandboxTransactions.status })
    .from(sandboxTransactions)
    .where(eq(sandboxTransactions.paymentNo, paymentNo));
  return row?.status;
}

async function holdingsOf(orderNo: string) {
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, orderNo));
  return db.select().from(holdings).where(eq(holdings.orderId, order!.id));
}

const after = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('payment reconciliation job', () => {
  it('pays and mints a captured payment whose notification was lost, once the grace period has passed', async () => {
    const t = after(t0, 0);
    const { ctx, order, payment } = await orderWithPayment(t, { quantity: 2 });
    await capturedButLost(payment, after(t, 20_000));
    const { provider, queried } = recordingProvider();

    // Within the grace period the notification may still be on its way: the provider is not asked yet.
    await runJobsOnce(db, after(t, GRACE - 1000), { providers: provider });
    expect(queried).not.toContain(payment.paymentNo);
    expect((await paymentRow(payment.paymentNo)).status).toBe(PAYMENT_STATUS.created);

    await runJobsOnce(db, after(t, GRACE + 1000), { providers: provider });
    expect(queried).toContain(payment.paymentNo);
    const paid = await getOrder({ ...ctx, now: after(t, GRACE + 2000) }, order.orderNo);
    expect(paid.statusTrade).toBe(ORDER_STATUS.paid);
    expect(paid.editions).toHaveLength(2);
    expect(await paymentRow(payment.paymentNo)).toMatchObject({ status: PAYMENT_STATUS.paid, settledAt: after(t, GRACE + 1000) });
    // The same pass put the new holdings on chain.
    expect((await holdingsOf(order.orderNo)).every((h) => h.chainStatus === 1)).toBe(true);

    // A later pass, or the notification finally arriving, changes nothing.
    await runJobsOnce(db, after(t, GRACE + 3000), { providers: provider });
    expect(queried.filter((no) => no === payment.paymentNo)).toHaveLength(1);
    const body = JSON.stringify({ paymentNo: payment.paymentNo, tradeNo: 'T-late', amount: payment.amount, status: 'SUCCESS' });
    const headers = new Headers({ [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(SECRET, body) });
    expect(await receiveNotification(db, provider, body, headers, after(t, GRACE + 4000))).toBe('duplicate');
    expect(await holdingsOf(order.orderNo)).toHaveLength(2);
  });

  it('closes the order and refunds through the provider when the order expired before the job found the payment', async () => {
    const t = after(t0, 3_600_000);
    const { sale, ctx, order, payment } = await orderWithPayment(t, { amount: 1 });
    await capturedButLost(payment, after(t, 60_000));
    const { provider, refunded } = recordingProvider();

    // The workers were down until after the order's time; the first pass expires it, then asks the provider.
    const late = after(t, FIVE_MIN + 30_000);
    await runJobsOnce(db, late, { providers: provider });
    const closed = await getOrder({ ...ctx, now: late }, order.orderNo);
    expect(closed).toMatchObject({ statusTrade: ORDER_STATUS.closed, cancelReason: 'paidLate', editions: [] });
    expect(await holdingsOf(order.orderNo)).toHaveLength(0);
    expect((await paymentRow(payment.paymentNo)).status).toBe(PAYMENT_STATUS.refunded);
    expect(refunded).toEqual([payment.paymentNo]);
    expect(await sandboxStatus(payment.paymentNo)).toBe('REFUNDED');
    // The copy went back to the sale once, by the expiry, and was not sold to this buyer after all.
    expect(await stockLeft(db, sale.saleId)).toBe(1);

    await runJobsOnce(db, after(late, 10_000), { providers: provider });
    expect(refunded).toEqual([payment.paymentNo]);
  });

  it('retries a refund the provider did not confirm (a crash or an error after the order closed), and gives the money back once', async () => {
    const t = after(t0, 7_200_000);
    const { payment } = await orderWithPayment(t, { amount: 1 });
    await capturedButLost(payment, after(t, 60_000));
    const { provider, refunded } = recordingProvider({ failRefunds: 1 });

    // The order expired; the pass finds the capture, closes the order, and the provider's refund call fails.
    const late = after(t, FIVE_MIN + 30_000);
    const first = await runJobsOnce(db, late, { providers: provider });
    expect(first.reconciled.errors).toBe(1);
    expect((await paymentRow(payment.paymentNo)).status).toBe(PAYMENT_STATUS.refunding);
    expect(await sandboxStatus(payment.paymentNo)).toBe('SUCCESS');

    // Within the grace period it is left alone; after it, the refund goes through, once.
    await runJobsOnce(db, after(late, 10_000), { providers: provider });
    expect(refunded).toEqual([payment.paymentNo]);
    const retried = await runJobsOnce(db, after(late, 61_000), { providers: provider });
    expect(retried.reconciled.refundsRetried).toBe(1);
    expect((await paymentRow(payment.paymentNo)).status).toBe(PAYMENT_STATUS.refunded);
    expect(await sandboxStatus(payment.paymentNo)).toBe('REFUNDED');
    await runJobsOnce(db, after(late, 200_000), { providers: provider });
    expect(refunded).toEqual([payment.paymentNo, payment.paymentNo]);
  });

  it('refunds a captured payment of an order the buyer cancelled', async () => {
    const t = after(t0, 2 * 3_600_000);
    const { ctx, order, payment } = await orderWithPayment(t);
    await cancelOrder({ ...ctx, now: after(t, 10_000) }, order.orderNo);
    await capturedButLost(payment, after(t, 20_000));
    const { provider, refunded } = recordingProvider();
    await runJobsOnce(db, after(t, GRACE + 1000), { providers: provider });
    expect(await getOrder({ ...ctx, now: after(t, GRACE + 2000) }, order.orderNo)).toMatchObject({
      statusTrade: ORDER_STATUS.closed,
      cancelReason: 'paidLate',
      editions: [],
    });
    expect(refunded).toEqual([payment.paymentNo]);
    expect(await sandboxStatus(payment.paymentNo)).toBe('REFUNDED');
  });

  it('marks a payment failed when the provider says it failed, and the order stays payable', async () => {
    const t = after(t0, 3 * 3_600_000);
    const { ctx, order, payment } = await orderWithPayment(t);
    await sandboxProvider(db, SECRET).settle({
      paymentNo: payment.paymentNo,
      amount: payment.amount,
      outcome: 'failed',
      now: after(t, 5000),
    });
    const { provider, refunded } = recordingProvider();
    await runJobsOnce(db, after(t, GRACE + 1000), { providers: provider });
    expect((await paymentRow(payment.paymentNo)).status).toBe(PAYMENT_STATUS.failed);
    expect((await getOrder({ ...ctx, now: after(t, GRACE + 2000) }, order.orderNo)).statusTrade).toBe(ORDER_STATUS.toPay);
    expect(refunded).toEqual([]);
  });

  it('closes a payment the provider never heard of once past the horizon, and stops asking about it', async () => {
    const t = after(t0, 4 * 3_600_000);
    const { ctx, order, payment } = await orderWithPayment(t);
    const { provider, queried } = recordingProvider();
    const asked = () => queried.filter((no) => no === payment.paymentNo).length;

    await runJobsOnce(db, after(t, GRACE + 1000), { providers: provider });
    expect(asked()).toBe(1);
    // Past the order's time the provider is still asked (a capture at the deadline may still come), up to the horizon.
    const horizon = new Date(new Date(order.expireTime).getTime() + ABANDON_MARGIN);
    await runJobsOnce(db, after(horizon, -1000), { providers: provider });
    expect(asked()).toBe(2);
    expect((await paymentRow(payment.paymentNo)).status).toBe(PAYMENT_STATUS.created);

    await runJobsOnce(db, horizon, { providers: provider });
    expect(asked()).toBe(3);
    expect(await paymentRow(payment.paymentNo)).toMatchObject({ status: PAYMENT_STATUS.failed, settledAt: horizon, providerTradeNo: null });
    expect(await getOrder({ ...ctx, now: horizon }, order.orderNo)).toMatchObject({
      statusTrade: ORDER_STATUS.cancelled,
      cancelReason: 'expired',
    });

    await runJobsOnce(db, after(horizon, 60_000), { providers: provider });
    await runJobsOnce(db, after(horizon, 3_600_000), { providers: provider });
    expect(asked()).toBe(3);

    // Should the provider capture it after all and say so, the money is not dropped: the order is long gone, so it is refunded.
    const { body } = await sandboxProvider(db, SECRET).settle({
      paymentNo: payment.paymentNo,
      amount: payment.amount,
      outcome: 'paid',
      now: after(horizon, 3_700_000),
    });
    const headers = new Headers({ [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(SECRET, body) });
    expect(await receiveNotification(db, provider, body, headers, after(horizon, 3_700_000))).toBe('refunded');
    expect(await sandboxStatus(payment.paymentNo)).toBe('REFUNDED');
    expect(await holdingsOf(order.orderNo)).toHaveLength(0);
  });

  it('goes on with the other payments when asking about one fails, and asks about it again when its next ask is due', async () => {
    const t = after(t0, 5 * 3_600_000);
    const first = await orderWithPayment(t);
    const second = await orderWithPayment(after(t, 1000));
    await capturedButLost(first.payment, after(t, 10_000));
    await capturedButLost(second.payment, after(t, 10_000));

    const flaky = recordingProvider({ failQueryOf: first.payment.paymentNo });
    await runJobsOnce(db, after(t, GRACE + 2000), { providers: flaky.provider });
    expect(flaky.queried).toEqual(expect.arrayContaining([first.payment.paymentNo, second.payment.paymentNo]));
    expect((await paymentRow(first.payment.paymentNo)).status).toBe(PAYMENT_STATUS.created);
    expect((await paymentRow(second.payment.paymentNo)).status).toBe(PAYMENT_STATUS.paid);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining(first.payment.paymentNo), expect.any(Error));

    const again = recordingProvider();
    await runJobsOnce(db, after(t, GRACE + 4000), { providers: again.provider });
    expect(again.queried).toEqual([]);
    await runJobsOnce(db, after(t, GRACE + 2000 + 15_000), { providers: again.provider });
    expect((await paymentRow(first.payment.paymentNo)).status).toBe(PAYMENT_STATUS.paid);
    expect(await holdingsOf(first.order.orderNo)).toHaveLength(1);
  });

  it('asks less and less often about a payment while its provider keeps failing, and settles it once the provider answers', async () => {
    const t = after(t0, 5 * 3_600_000);
    const { payment, order } = await orderWithPayment(t);
    await capturedButLost(payment, after(t, 10_000));
    const down = recordingProvider({ failQueryOf: payment.paymentNo });
    const pass = (ms: number, provider = down.provider) => reconcilePayments(db, provider, after(t, GRACE + ms));

    expect(await pass(0)).toMatchObject({ asked: 1, errors: 1 });
    expect(await pass(2_000)).toMatchObject({ asked: 0, errors: 0 }); // waits 15 s
    expect(await pass(15_000)).toMatchObject({ asked: 1, errors: 1 });
    expect(await pass(40_000)).toMatchObject({ asked: 0 }); // then 30 s
    expect(await pass(45_000)).toMatchObject({ asked: 1, errors: 1 });
    expect(await pass(100_000)).toMatchObject({ asked: 0 }); // then 60 s, the longest wait while the order can be paid
    expect(down.queried.filter((p) => p === payment.paymentNo)).toHaveLength(3);

    // The provider is back: the next ask that is due settles the payment, once.
    const up = recordingProvider();
    expect(await pass(105_000, up.provider)).toMatchObject({ asked: 1, paid: 1, errors: 0 });
    expect((await paymentRow(payment.paymentNo)).status).toBe(PAYMENT_STATUS.paid);
    expect(await holdingsOf(order.orderNo)).toHaveLength(1);
    expect(await pass(700_000, up.provider)).toMatchObject({ asked: 0 });
  });

  it('keeps its schedule in the database: a restarted worker, or another one, does not ask sooner', async () => {
    const t = after(t0, 5.5 * 3_600_000);
    const { payment } = await orderWithPayment(t);
    const { provider, queried } = recordingProvider();
    const asked = () => queried.filter((no) => no === payment.paymentNo).length;
    // Each pass is a new call with nothing carried over, as a new process would make it.
    await reconcilePayments(db, provider, after(t, GRACE));
    await reconcilePayments(db, provider, after(t, GRACE + 2_000));
    await reconcilePayments(db, provider, after(t, GRACE + 14_000));
    expect(asked()).toBe(1);
    expect(await paymentRow(payment.paymentNo)).toMatchObject({ queries: 1, nextQueryAt: after(t, GRACE + 15_000) });
    await reconcilePayments(db, provider, after(t, GRACE + 15_000));
    expect(asked()).toBe(2);
  });

  it('handles a bounded batch per pass, in the order the payments fell due, and reaches the rest on the following passes', async () => {
    const t = after(t0, 6 * 3_600_000);
    const opened = [];
    for (let i = 0; i < 5; i++) {
      const o = await orderWithPayment(after(t, i * 1000));
      await capturedButLost(o.payment, after(t, 10_000));
      opened.push(o.payment.paymentNo);
    }
    const { provider, queried } = recordingProvider();
    const now = after(t, GRACE + 10_000);
    const one = await reconcilePayments(db, provider, now, { limit: 2 });
    expect(queried).toEqual(opened.slice(0, 2));
    expect(one).toMatchObject({ asked: 2, paid: 2 });
    await reconcilePayments(db, provider, now, { limit: 2 });
    await reconcilePayments(db, provider, now, { limit: 2 });
    expect(queried).toEqual(opened);
    const rows = await db.select({ status: payments.status }).from(payments).where(inArray(payments.paymentNo, opened));
    expect(rows.every((r) => r.status === PAYMENT_STATUS.paid)).toBe(true);
  });

  it("finds a buyer's lost payment in the first pass it is due, however many payments another buyer left open", async () => {
    const t = after(t0, 6.5 * 3_600_000);
    // Another buyer's order with 120 open payments, all due before ours (as before issue 29, or rows a close left open).
    const noisy = await orderWithPayment(after(t, -10_000));
    const [noisyRow] = await db.select().from(payments).where(eq(payments.paymentNo, noisy.payment.paymentNo));
    await db.insert(payments).values(
      Array.from({ length: 120 }, (_, i) => ({
        paymentNo: `P${String(t.getTime() - 10_000)}${String(90_000_000 + i)}`,
        orderId: noisyRow!.orderId,
        provider: 'sandbox',
        amount: noisyRow!.amount,
        createdAt: after(t, -10_000),
        nextQueryAt: after(t, GRACE - 10_000 + i),
      })),
    );
    const victim = await orderWithPayment(t);
    await capturedButLost(victim.payment, after(t, 20_000));
    const { provider, queried } = recordingProvider();

    const pass = await reconcilePayments(db, provider, after(t, GRACE + 500));
    expect((await getOrder({ ...victim.ctx, now: after(t, GRACE + 1000) }, victim.order.orderNo)).statusTrade).toBe(ORDER_STATUS.paid);
    // One ask for the other buyer's order (its newest payment), one for ours; the rest wait for their horizon, unasked.
    expect(queried).toHaveLength(2);
    expect(pass).toMatchObject({ asked: 2, paid: 1, deferred: 120 });
    console.log(`[figures] 121 open payments on one order and 1 lost one elsewhere: ${queried.length} provider asks in the first pass`);
  });

  it('applies once and refunds once when two passes run at the same time', async () => {
    const t = after(t0, 7 * 3_600_000);
    // One captured in time (to be paid and minted), one whose order has expired by the time the passes run (to be refunded).
    const inTime = await orderWithPayment(after(t, 60_000), { quantity: 3 });
    const tooLate = await orderWithPayment(t);
    await capturedButLost(inTime.payment, after(t, 90_000));
    await capturedButLost(tooLate.payment, after(t, 90_000));
    // Each pass's first question waits for the other's, so both have read both payments as open before either applies.
    let bothAsking!: () => void;
    const gate = new Promise<void>((resolve) => (bothAsking = resolve));
    const { provider, refunded, queried } = recordingProvider({ beforeAnswer: () => (queried.length >= 2 ? bothAsking() : gate) });

    const now = after(t, FIVE_MIN + 10_000);
    const [a, b] = await Promise.all([runJobsOnce(db, now, { providers: provider }), runJobsOnce(db, now, { providers: provider })]);
    expect(refunded).toEqual([tooLate.payment.paymentNo]);
    expect(await holdingsOf(inTime.order.orderNo)).toHaveLength(3);
    expect(await holdingsOf(tooLate.order.orderNo)).toHaveLength(0);
    expect((await paymentRow(inTime.payment.paymentNo)).status).toBe(PAYMENT_STATUS.paid);
    expect((await paymentRow(tooLate.payment.paymentNo)).status).toBe(PAYMENT_STATUS.refunded);
    expect(await sandboxStatus(tooLate.payment.paymentNo)).toBe('REFUNDED');
    expect((await getOrder({ ...tooLate.ctx, now }, tooLate.order.orderNo)).statusTrade).toBe(ORDER_STATUS.closed);
    // Each payment was asked about by one pass: the ask is claimed on the payment's row (issue 29), so the provider is
    // not asked twice; applying stays exactly once whoever asks.
    expect(a.reconciled.asked + b.reconciled.asked).toBe(2);
    expect(a.reconciled.paid + b.reconciled.paid).toBe(1);
    expect(a.reconciled.refunded + b.reconciled.refunded).toBe(1);
  });
});
