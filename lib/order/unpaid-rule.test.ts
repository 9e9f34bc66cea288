import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { channels, orders } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { renderMessage } from '@/lib/procedure/messages';
import type { UserScope } from '@/lib/procedure/scope';
import { cancelOrder, createOrder, expireOverdueOrders } from './service';
import { ORDER_STATUS } from './status';
import { pauseFrom } from './unpaid-rule';

// Unpaid-order squatting (issue 33, "Risk controls at order time"): orders left unpaid pause the buyer's ordering.

const t0 = new Date('2026-11-22T08:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const PAY_MS = 5 * MIN;
let keySeq = 0;
const key = () => `unpaid-key-${++keySeq}`;

const db = seededTestDb(t0);
const ctxOf = (channelId: number, userId: number, now: Date): UserScope => ({ db, now, channelId, userId });

/** Buys one copy at `at` and lets it run out unpaid: answers the time it expired (the sweep at `at` + 10 min). */
async function leaveUnpaid(channelId: number, saleId: number, userId: number, at: Date): Promise<Date> {
  await createOrder(ctxOf(channelId, userId, at), { saleId, quantity: 1, idempotencyKey: key() }, PAY_MS);
  const expiredAt = new Date(at.getTime() + 10 * MIN);
  expect(await expireOverdueOrders(db, expiredAt, { userId })).toBe(1);
  return expiredAt;
}

async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('the unpaid-order rule at order time (defaults: 3 within 24 h pause 24 h)', () => {
  it('refuses a fourth order after three left unpaid, until the third one + 24 h, in words with the zone; then allows it', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'unpaid-three', amount: 100, limitPerUser: 10, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3901');
    const first = await leaveUnpaid(channelId, saleId, buyer!, t0);
    // The buyer's own cancel counts as an expiry does.
    const made = await createOrder(
      ctxOf(channelId, buyer!, new Date(t0.getTime() + 2 * HOUR)),
      { saleId, quantity: 1, idempotencyKey: key() },
      PAY_MS,
    );
    const second = new Date(t0.getTime() + 2 * HOUR + MIN);
    await cancelOrder(ctxOf(channelId, buyer!, second), made.orderNo);
    // Two are not the limit yet.
    const between = new Date(t0.getTime() + 3 * HOUR);
    await leaveUnpaid(channelId, saleId, buyer!, between);
    expect(first.getTime()).toBeLessThan(second.getTime());
    // That one was the third (expired at 11:10 UTC): the fourth is refused until 24 h after it.
    const third = new Date(between.getTime() + 10 * MIN);
    const until = new Date(third.getTime() + 24 * HOUR);
    const fourth = { saleId, quantity: 1, idempotencyKey: key() };
    const refused = await refusalOf(createOrder(ctxOf(channelId, buyer!, new Date(third.getTime() + HOUR)), fourth, PAY_MS));
    expect(refused.code).toBe(1012);
    expect(refused.data).toEqual({ reason: 'orderingPaused', until: until.toISOString() });
    expect(renderMessage(refused.text!, 'en', 'Asia/Shanghai')).toBe(
      'You left 3 orders unpaid within 24 hours, so ordering is paused. You can order again from November 23, 2026 at 19:10 China Standard Time.',
    );
    expect(renderMessage(refused.text!, 'zh-CN', 'Asia/Shanghai')).toBe(
      '您在24小时内有3笔订单未支付，已暂停下单。您可在2026年11月23日 中国标准时间 19:10后再次下单。',
    );
    // No order was made by the refused tap; a minute before the end it is still refused, at the end it is allowed.
    expect(await db.select().from(orders).where(eq(orders.idempotencyKey, fourth.idempotencyKey))).toHaveLength(0);
    await expect(createOrder(ctxOf(channelId, buyer!, new Date(until.getTime() - MIN)), fourth, PAY_MS)).rejects.toMatchObject({
      code: 1012,
    });
    const after = await createOrder(ctxOf(channelId, buyer!, until), fourth, PAY_MS);
    expect(after.statusTrade).toBe(ORDER_STATUS.toPay);
  });

  it('counts only orders left unpaid: paid ones (refunded or not), ones paid late and ones of a cancelled sale do not', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'unpaid-other', amount: 100, limitPerUser: 10, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3902');
    const made: { orderNo: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const at = new Date(t0.getTime() + i * HOUR);
      made.push(await createOrder(ctxOf(channelId, buyer!, at), { saleId, quantity: 1, idempotencyKey: key() }, PAY_MS));
    }
    const byNo = (n: number) => eq(orders.orderNo, made[n]!.orderNo);
    const late = new Date(t0.getTime() + 5 * HOUR);
    // Paid (a refund keeps the order paid: order_refunds holds the refund), paid twice over, paid after expiry
    // (closed, refunded), the sale cancelled by the operator; and two left unpaid.
    await db.update(orders).set({ statusTrade: ORDER_STATUS.paid, payTime: late }).where(byNo(0));
    await db.update(orders).set({ statusTrade: ORDER_STATUS.paid, payTime: late }).where(byNo(1));
    await db
      .update(orders)
      .set({ statusTrade: ORDER_STATUS.closed, cancelReason: 'paidLate', payTime: late, cancelTime: late })
      .where(byNo(2));
    await db.update(orders).set({ statusTrade: ORDER_STATUS.cancelled, cancelReason: 'saleCancelled', cancelTime: late }).where(byNo(3));
    await db.update(orders).set({ statusTrade: ORDER_STATUS.cancelled, cancelReason: 'expired', cancelTime: late }).where(byNo(4));
    await leaveUnpaid(channelId, saleId, buyer!, late);
    const next = await createOrder(
      ctxOf(channelId, buyer!, new Date(late.getTime() + HOUR)),
      { saleId, quantity: 1, idempotencyKey: key() },
      PAY_MS,
    );
    expect(next.statusTrade).toBe(ORDER_STATUS.toPay);
  });

  it('never refuses on a channel whose limit is 0, and counts each channel on its own', async () => {
    const { saleId, channelId } = await makeSale(db, { channelKey: 'LUMEN', code: 'unpaid-off', amount: 100, limitPerUser: 10, now: t0 });
    await db
      .update(channels)
      // LUMEN is the demo's real-name store (issue 33); here it stands for a channel that turned the unpaid rule off.
      .set({ riskPolicy: { unpaid: { limit: 0 } }, identityPolicy: {} })
      .where(eq(channels.id, channelId));
    const aurora = await makeSale(db, { code: 'unpaid-elsewhere', amount: 100, limitPerUser: 10, now: t0 });
    const [buyer] = await makeUsers(db, 1, '3903');
    for (let i = 0; i < 4; i++) await leaveUnpaid(channelId, saleId, buyer!, new Date(t0.getTime() + i * HOUR));
    const at = new Date(t0.getTime() + 5 * HOUR);
    expect((await createOrder(ctxOf(channelId, buyer!, at), { saleId, quantity: 1, idempotencyKey: key() }, PAY_MS)).statusTrade).toBe(0);
    // The four on LUMEN do not pause the buyer on AURORA (default rule).
    const elsewhere = await createOrder(
      ctxOf(aurora.channelId, buyer!, at),
      { saleId: aurora.saleId, quantity: 1, idempotencyKey: key() },
      PAY_MS,
    );
    expect(elsewhere.statusTrade).toBe(0);
  });

  it('follows the channel’s own numbers: 2 within 1 h pause 3 h', async () => {
    const { saleId, channelId } = await makeSale(db, { channelKey: 'GIFT', code: 'unpaid-own', amount: 100, limitPerUser: 10, now: t0 });
    await db
      .update(channels)
      .set({ riskPolicy: { unpaid: { limit: 2, withinHours: 1, blockHours: 3 } } })
      .where(eq(channels.id, channelId));
    const [buyer] = await makeUsers(db, 1, '3904');
    // Two unpaid 2 h apart: not within 1 h, no pause.
    await leaveUnpaid(channelId, saleId, buyer!, t0);
    const second = await leaveUnpaid(channelId, saleId, buyer!, new Date(t0.getTime() + 2 * HOUR));
    const third = await leaveUnpaid(channelId, saleId, buyer!, new Date(second.getTime() + 20 * MIN));
    const refused = await refusalOf(
      createOrder(ctxOf(channelId, buyer!, new Date(third.getTime() + MIN)), { saleId, quantity: 1, idempotencyKey: key() }, PAY_MS),
    );
    expect(refused.data).toEqual({ reason: 'orderingPaused', until: new Date(third.getTime() + 3 * HOUR).toISOString() });
    expect(renderMessage(refused.text!, 'en', 'UTC')).toMatch(/^You left 2 orders unpaid within 1 hour, so ordering is paused\./);
  });
});

describe('pauseFrom (the rule on its own)', () => {
  const rule = { limit: 3, withinHours: 24, blockHours: 24 };
  const at = (h: number) => new Date(t0.getTime() + h * HOUR);
  it('starts at the newest cancel that reaches the limit within the window', () => {
    expect(pauseFrom(rule, [at(10), at(5), at(1)], at(11))).toEqual({ until: at(34), count: 3, withinHours: 24 });
    // Spread wider than the window: no pause.
    expect(pauseFrom(rule, [at(30), at(10), at(5)], at(31))).toBeNull();
    // Four: the newest three trigger, ending 24 h after the newest.
    expect(pauseFrom(rule, [at(12), at(10), at(5), at(1)], at(13))?.until).toEqual(at(36));
    // Over once `now` reaches the end.
    expect(pauseFrom(rule, [at(10), at(5), at(1)], at(34))).toBeNull();
    expect(pauseFrom({ ...rule, limit: 0 }, [at(10), at(5), at(1)], at(11))).toBeNull();
  });
});
