import 'server-only';
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { boxDraws, channels, commodities, holdings, orderRefunds, orders, payments, sales, users } from '../db/schema';
import { queueText, sendText, type OutboxSender } from '../auth/sms-outbox';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { randomDigits } from '../security/crypto';
import { isLocale } from '../i18n/locale';
import { translator } from '../i18n/translator';
import { formatFen } from '../format/money';
import { ORDER_STATUS, orderState, type OrderState, type OrderStatus } from '../order/status';
import { PaymentProviderError } from './provider';
import { PAYMENT_STATUS, providerList, providerOf, type Providers } from './service';

/**
 * Refunds of paid orders by an operator (issue 32, "Orders and buyers"; docs/orders.md "Refunds"): whole or some of the
 * order's copies, with a reason, into `order_refunds`. The copies refunded are taken back from the buyer
 * (`holdings.refunded_at`: gone from the collection like a destroyed one); a copy spent in an exchange or no longer
 * held by the buyer cannot be, and is refused by name; an opened blind box is refunded by taking back the prize drawn
 * from it. The money goes back through the payment's own provider under the refund's own number; a provider that fails
 * leaves the refund `owed`, and the reconciliation job (./reconcile.ts `retryOwedRefunds`) gives it back later.
 */

/** Why a copy of an order cannot be refunded. */
export type RefundWhy = 'refunded' | 'destroyed' | 'givenAway' | 'prizeGone';

/** One copy of an order as the refund panel shows it. */
export type RefundCopy = {
  holdingId: number;
  number: number;
  refundable: boolean;
  why: RefundWhy | null;
  /** For an opened blind box: the prize drawn from it, which is what is taken back. */
  prize: { holdingId: number; number: number; name: string } | null;
};

/** A refund as the console and the buyer see it. */
export type RefundRecord = {
  refundNo: string;
  quantity: number;
  amount: number;
  reason: string;
  status: 'owed' | 'done';
  createdAt: Date;
  doneAt: Date | null;
  /** Edition numbers of the order's copies it took back. */
  numbers: number[];
  byOperator: boolean;
};

export type RefundPreview = {
  orderNo: string;
  state: OrderState;
  commodityName: string;
  price: number;
  /** What was paid, and what was refunded so far (both fen). */
  paid: number;
  refunded: number;
  copies: RefundCopy[];
  refunds: RefundRecord[];
};

/** The audit hook of a refund (lib/operator/audit.ts `auditCall`): called in the refund's transaction. */
export type RefundAudit = (tx: Db, change: { channelId: number; before: unknown; after: unknown }) => Promise<void>;

export type RefundInput = {
  channelId: number;
  orderNo: string;
  /** Ids of the order's copies to refund (its minted holdings; a blind box's box holding), or 'all' that can be. */
  holdingIds: number[] | 'all';
  reason: string;
  /** The console's key for "this click": a repeat with it answers the same refund (issue 32: a double-click is one). */
  idempotencyKey: string;
  /** Who asked; null for the system's own (a cancelled sale). */
  operatorId: number | null;
  now: Date;
};

type OrderRow = typeof orders.$inferSelect;
type RefundRow = typeof orderRefunds.$inferSelect;

/** The order of this channel by its number, locked for the refund when `lock`; 404 when it is another channel's. */
async function orderOf(db: Db, channelId: number, orderNo: string, lock: boolean): Promise<OrderRow> {
  const query = db
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), eq(orders.channelId, channelId)))
    .limit(1);
  const [order] = lock ? await query.for('update') : await query;
  if (!order) throw new AppError(404, msg('refundOrderNotFound', { orderNo }));
  return order;
}

/** The order's copies, each with whether it can be refunded and why not. */
async function copiesOf(db: Db, order: OrderRow): Promise<RefundCopy[]> {
  const minted = await db.select().from(holdings).where(eq(holdings.orderId, order.id)).orderBy(asc(holdings.number));
  const opened = minted.filter((h) => h.openedAt !== null).map((h) => h.id);
  const prizes = opened.length
    ? await db
        .select({ boxId: boxDraws.boxHoldingId, prize: holdings, name: commodities.name })
        .from(boxDraws)
        .innerJoin(holdings, eq(holdings.id, boxDraws.prizeHoldingId))
        .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
        .where(inArray(boxDraws.boxHoldingId, opened))
    : [];
  const held = (h: typeof holdings.$inferSelect) => h.userId === order.userId && h.destroyedAt === null && h.refundedAt === null;
  return minted.map((h) => {
    const drawn = prizes.find((p) => p.boxId === h.id);
    let why: RefundWhy | null = null;
    if (h.refundedAt) why = 'refunded';
    else if (h.destroyedAt) why = 'destroyed';
    else if (h.userId !== order.userId) why = 'givenAway';
    else if (h.openedAt && (!drawn || !held(drawn.prize))) why = 'prizeGone';
    return {
      holdingId: h.id,
      number: h.number,
      refundable: why === null,
      why,
      prize: drawn ? { holdingId: drawn.prize.id, number: drawn.prize.number, name: drawn.name } : null,
    };
  });
}

async function refundsOf(db: Db, orderId: number): Promise<RefundRecord[]> {
  const rows = await db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.id));
  if (rows.length === 0) return [];
  const taken = await db
    .select({ refundId: holdings.refundId, number: holdings.number })
    .from(holdings)
    .where(
      and(
        eq(holdings.orderId, orderId),
        inArray(
          holdings.refundId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(holdings.number));
  return rows.map((r) =>
    recordOf(
      r,
      taken.filter((t) => t.refundId === r.id).map((t) => t.number),
    ),
  );
}

function recordOf(row: RefundRow, numbers: number[]): RefundRecord {
  return {
    refundNo: row.refundNo,
    quantity: row.quantity,
    amount: row.amount,
    reason: row.reason,
    status: row.status === 'done' ? 'done' : 'owed',
    createdAt: row.createdAt,
    doneAt: row.doneAt,
    numbers,
    byOperator: row.operatorId !== null,
  };
}

/** The paid payment of an order (the one its money goes back through), or null. */
async function paidPaymentOf(db: Db, orderId: number) {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, PAYMENT_STATUS.paid)))
    .orderBy(desc(payments.id))
    .limit(1);
  return payment ?? null;
}

async function refundedSoFar(db: Db, orderId: number): Promise<number> {
  const [row] = await db
    .select({ sum: sql<number>`coalesce(sum(${orderRefunds.amount}), 0)::int` })
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId));
  return Number(row?.sum ?? 0);
}

/** What the refund panel shows: the order, its copies (which can be refunded and why not) and its refunds. */
export async function refundPreview(db: Db, channelId: number, orderNo: string): Promise<RefundPreview> {
  const order = await orderOf(db, channelId, orderNo, false);
  const [commodity] = await db
    .select({ name: commodities.name })
    .from(sales)
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(eq(sales.id, order.saleId))
    .limit(1);
  const payment = await paidPaymentOf(db, order.id);
  return {
    orderNo,
    state: orderState({ statusTrade: order.statusTrade as OrderStatus, cancelReason: order.cancelReason }),
    commodityName: commodity?.name ?? '',
    price: order.price,
    paid: order.statusTrade === ORDER_STATUS.paid ? (payment?.amount ?? 0) : 0,
    refunded: await refundedSoFar(db, order.id),
    copies: order.statusTrade === ORDER_STATUS.paid ? await copiesOf(db, order) : [],
    refunds: await refundsOf(db, order.id),
  };
}

/**
 * Refunds copies of a paid order (issue 32). Under the order's row lock, so two refunds of one order at once are made
 * one after the other: the second finds the copies refunded (refused), or, with the same idempotency key, answers the
 * first refund (`replayed`). Refused, with nothing changed: an order of another channel (404), one not paid (named),
 * no copies chosen, a copy not of the order, a copy that cannot be taken back (named with why), more money than was
 * paid in total. The refund row, the copies taken back, the audit entry and the buyer's text are one transaction; the
 * provider is asked after commit, and a failure there leaves the refund `owed` for the reconciliation job.
 */
export async function refundOrder(
  db: Db,
  input: RefundInput,
  options: { providers: Providers; audit?: RefundAudit; texts?: OutboxSender },
): Promise<{ refund: RefundRecord; replayed: boolean }> {
  const made = await db.transaction(async (tx) => {
    const order = await orderOf(tx, input.channelId, input.orderNo, true);
    const [again] = await tx
      .select()
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, order.id), eq(orderRefunds.idempotencyKey, input.idempotencyKey)))
      .limit(1);
    if (again) return { row: again, replayed: true, textId: null };
    if (order.statusTrade !== ORDER_STATUS.paid) {
      const state = orderState({ statusTrade: order.statusTrade as OrderStatus, cancelReason: order.cancelReason });
      throw new AppError(409, msg('refundOrderNotPaid', { state }));
    }
    const copies = await copiesOf(tx, order);
    // The whole order: every copy that can be taken back; none can → refused naming the first copy's why.
    const chosen = input.holdingIds === 'all' ? copies.filter((c) => c.refundable).map((c) => c.holdingId) : [...new Set(input.holdingIds)];
    if (input.holdingIds === 'all' && chosen.length === 0 && copies[0]) {
      throw new AppError(409, msg('refundCopyNotRefundable', { number: copies[0].number, why: copies[0].why ?? 'givenAway' }));
    }
    if (chosen.length === 0) throw new AppError(400, msg('refundNoCopies'));
    for (const id of chosen) {
      const copy = copies.find((c) => c.holdingId === id);
      if (!copy) throw new AppError(400, msg('refundCopyNotOfOrder', { holdingId: String(id) }));
      if (!copy.refundable) throw new AppError(409, msg('refundCopyNotRefundable', { number: copy.number, why: copy.why! }));
    }
    const payment = await paidPaymentOf(tx, order.id);
    if (!payment) throw new AppError(409, msg('refundNoPayment'));
    const refunded = await refundedSoFar(tx, order.id);
    const amount = order.price * chosen.length;
    if (refunded + amount > payment.amount) {
      throw new AppError(
        409,
        msg('refundOverPaid', { amount: formatFen(amount), paid: formatFen(payment.amount), refunded: formatFen(refunded) }),
      );
    }
    const [row] = await tx
      .insert(orderRefunds)
      .values({
        refundNo: `F${input.now.getTime()}${randomDigits(6)}`,
        orderId: order.id,
        channelId: order.channelId,
        paymentId: payment.id,
        quantity: chosen.length,
        amount,
        reason: input.reason,
        operatorId: input.operatorId,
        status: 'owed',
        idempotencyKey: input.idempotencyKey,
        createdAt: input.now,
      })
      .returning();
    // The copies, and the prizes drawn from opened boxes among them, leave the buyer's collection. Conditional, so a
    // copy spent in an exchange meanwhile (exchanges do not take the order's lock) rolls the refund back.
    const prizeIds = copies.filter((c) => chosen.includes(c.holdingId) && c.prize).map((c) => c.prize!.holdingId);
    const takenIds = [...chosen, ...prizeIds];
    const openedIds = copies.filter((c) => chosen.includes(c.holdingId) && c.prize).map((c) => c.holdingId);
    const taken = await tx
      .update(holdings)
      .set({ refundedAt: input.now, refundId: row!.id })
      .where(
        and(
          inArray(holdings.id, takenIds),
          eq(holdings.userId, order.userId),
          sql`${holdings.destroyedAt} is null`,
          sql`${holdings.refundedAt} is null`,
          // A box opened since the copies were read would leave its new prize with the buyer: refused instead.
          or(isNull(holdings.openedAt), inArray(holdings.id, [...openedIds, ...prizeIds, 0])),
        ),
      )
      .returning({ id: holdings.id });
    if (taken.length !== takenIds.length) {
      const copy = copies.find((c) => chosen.includes(c.holdingId))!;
      throw new AppError(409, msg('refundCopyNotRefundable', { number: copy.number, why: 'givenAway' }));
    }
    const numbers = copies.filter((c) => chosen.includes(c.holdingId)).map((c) => c.number);
    const textId = await textBuyer(tx, order, amount, chosen.length, input.now);
    await options.audit?.(tx, {
      channelId: order.channelId,
      // A new refund: nothing before it (the order's refunds so far are in `after`).
      before: undefined,
      after: {
        orderNo: order.orderNo,
        refundNo: row!.refundNo,
        quantity: chosen.length,
        amount,
        numbers,
        reason: input.reason,
        paid: payment.amount,
        refundedBefore: refunded,
      },
    });
    return { row: row!, replayed: false, textId };
  });
  if (!made.replayed) await settleRefund(db, options.providers, made.row, input.now);
  // The buyer's text, after commit (issue 32): a carrier's failure leaves it in the outbox for the jobs' next pass, and
  // never fails the refund, which is made. Without a sender (a cancelled sale's job) the same pass sends it.
  if (!made.replayed && made.textId !== null && options.texts) {
    try {
      await sendText(db, options.texts, made.textId, input.now);
    } catch (error) {
      console.error(`[sms outbox] refund ${made.row.refundNo}: its text waits for the jobs' next pass`, error);
    }
  }
  const [row] = await db.select().from(orderRefunds).where(eq(orderRefunds.id, made.row.id));
  const numbers = await db
    .select({ number: holdings.number })
    .from(holdings)
    .where(and(eq(holdings.refundId, row!.id), eq(holdings.orderId, row!.orderId)))
    .orderBy(asc(holdings.number));
  return {
    refund: recordOf(
      row!,
      numbers.map((n) => n.number),
    ),
    replayed: made.replayed,
  };
}

/**
 * Gives an owed refund's money back through its payment's provider, under the refund's number (a repeat is the same
 * refund at the provider), then marks it done. A provider error leaves it owed: logged, and retried by the
 * reconciliation job. True when it is done.
 */
export async function settleRefund(db: Db, providers: Providers, refund: RefundRow, now: Date): Promise<boolean> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, refund.paymentId)).limit(1);
  const provider = payment ? providerOf(providers, payment.provider) : null;
  if (!payment || !provider) {
    console.error(`[alert] refund ${refund.refundNo}: the provider of its payment is not run here; it stays owed`);
    return false;
  }
  try {
    await provider.refund(payment.paymentNo, refund.amount, { refundNo: refund.refundNo, total: payment.amount, reason: refund.reason });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(`[pay] refund ${refund.refundNo} of ${payment.paymentNo} not made yet (${error.message}); the reconciliation retries it`);
    return false;
  }
  await db
    .update(orderRefunds)
    .set({ status: 'done', doneAt: now })
    .where(and(eq(orderRefunds.id, refund.id), eq(orderRefunds.status, 'owed')));
  return true;
}

/**
 * The reconciliation's retry of refunds left owed (a provider error, or a crash between commit and the provider's
 * answer), oldest first, at most `limit` per pass. Counts of those done and those still failing.
 */
export async function retryOwedRefunds(db: Db, providers: Providers, now: Date, limit: number): Promise<{ done: number; failed: number }> {
  // Only refunds whose payment's provider the deployment runs: one it no longer runs waits for it to be back.
  const names = providerList(providers).map((p) => p.name);
  if (names.length === 0) return { done: 0, failed: 0 };
  const owed = (
    await db
      .select({ refund: orderRefunds })
      .from(orderRefunds)
      .innerJoin(payments, eq(payments.id, orderRefunds.paymentId))
      .where(and(eq(orderRefunds.status, 'owed'), inArray(payments.provider, names)))
      .orderBy(asc(orderRefunds.id))
      .limit(limit)
  ).map((r) => r.refund);
  const result = { done: 0, failed: 0 };
  for (const refund of owed) {
    try {
      if (await settleRefund(db, providers, refund, now)) result.done++;
      else result.failed++;
    } catch (error) {
      result.failed++;
      console.error(`[jobs] reconcile: refund ${refund.refundNo} failed; retrying on a later pass`, error);
    }
  }
  return result;
}

/**
 * The buyer's text about the refund (issue 32), queued in the SMS outbox in the refund's transaction (so it exists
 * exactly when the refund does) and sent after commit (lib/auth/sms-outbox.ts). A carrier sends its approved refund
 * template with two parameters: `order`, the order number's last 6 characters, and `amount`, the refund in yuan
 * (199.00); the row's text is the same message in the channel's language, what the demo outbox shows. The outbox's id.
 */
async function textBuyer(tx: Db, order: OrderRow, amount: number, count: number, now: Date): Promise<number | null> {
  const [row] = await tx
    .select({ phone: users.phone, locale: channels.locale })
    .from(users)
    .innerJoin(channels, eq(channels.id, order.channelId))
    .where(eq(users.id, order.userId))
    .limit(1);
  if (!row) return null;
  const t = translator(isLocale(row.locale) ? row.locale : 'zh-CN');
  const text = t('refunds.text', { orderNo: order.orderNo, amount: formatFen(amount), count });
  return queueText(tx, {
    channelId: order.channelId,
    phone: row.phone,
    kind: 'refund',
    text,
    params: [
      ['order', order.orderNo.slice(-6)],
      ['amount', (amount / 100).toFixed(2)],
    ],
    now,
  });
}
