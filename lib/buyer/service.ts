import 'server-only';
import { identityOf } from '../identity/records';
import { and, asc, count, desc, eq, exists, isNull, max, min, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, buyerIdentities, commodities, holdings, orderRefunds, orders, payments, users } from '../db/schema';
import { accountNumberOf, buyerOfAccountNumber, ACCOUNT_NUMBER } from '../auth/account-numbers';
import { liveBlockOf } from '../auth/blocks';
import { agreementAcceptancesOf, type AgreementAcceptance } from '../channel/agreement-acceptances';
import { maskPhone } from '../auth/mask';
import { isMobilePhone, normalizePhone } from '../auth/phone';
import { ORDER_NO, orderState, type OrderState, type OrderStatus } from '../order/status';
import { PAYMENT_STATUS } from '../payment/service';

/**
 * Buyers and orders as the console sees them (issue 32, "Orders and buyers"): find an order by its number or a buyer
 * by their full phone or their account number on the channel, a buyer's page and an order's timeline. Always within
 * one channel: a buyer's orders and holdings on other channels are not shown, and their deployment-wide id never is.
 * Who may see the full phone is the caller's rule (`fullPhone`); the audit of each view is the procedure's.
 */

export type FoundKind = 'order' | 'buyer';
export type Found = { kind: 'order'; orderNo: string } | { kind: 'buyer'; accountNumber: string } | null;

/** What the search box was given: an order number, a phone typed in full, an account number; else nothing. */
export function searchKind(query: string): 'order' | 'phone' | 'account' | null {
  const q = query.replace(/[\s-]/g, '');
  if (ORDER_NO.test(q)) return 'order';
  if (ACCOUNT_NUMBER.test(q)) return 'account';
  if (isMobilePhone(q)) return 'phone';
  return null;
}

/**
 * The order or the buyer the search box names on the channel, or null. A phone finds only a buyer who has been on the
 * channel (logged in or ordered there): a phone of another channel's buyer says nothing about them here.
 */
export async function findOnChannel(db: Db, channelId: number, query: string, now: Date): Promise<Found> {
  const q = query.replace(/[\s-]/g, '');
  const kind = searchKind(q);
  if (kind === 'order') {
    const [row] = await db
      .select({ orderNo: orders.orderNo })
      .from(orders)
      .where(and(eq(orders.orderNo, q), eq(orders.channelId, channelId)))
      .limit(1);
    return row ? { kind: 'order', orderNo: row.orderNo } : null;
  }
  let userId: number | null = null;
  if (kind === 'account') userId = await buyerOfAccountNumber(db, channelId, q, { includeClosed: true });
  if (kind === 'phone') {
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.phone, normalizePhone(q)))
      .limit(1);
    if (user && (await wasOnChannel(db, channelId, user.id))) userId = user.id;
  }
  if (userId === null) return null;
  return { kind: 'buyer', accountNumber: await accountNumberOf(db, channelId, userId, now) };
}

/** Whether the buyer has logged in or ordered on the channel. */
async function wasOnChannel(db: Db, channelId: number, userId: number): Promise<boolean> {
  const [session] = await db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(and(eq(authSessions.userId, userId), eq(authSessions.channelId, channelId)))
    .limit(1);
  if (session) return true;
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.channelId, channelId)))
    .limit(1);
  return Boolean(order);
}

export type BuyerOrderLine = { orderNo: string; state: OrderState; amount: number; quantity: number; createdAt: Date };

export type BuyerView = {
  userId: number;
  accountNumber: string;
  /** Masked (138****1234) unless the caller may see it in full. */
  phone: string;
  phoneMasked: boolean;
  /** First and last login on this channel (null: never logged in here). */
  firstLoginAt: Date | null;
  lastLoginAt: Date | null;
  /** Collectibles held on this channel now. */
  holdings: number;
  /** The newest orders on this channel (at most BUYER_ORDER_LINES). */
  orders: BuyerOrderLine[];
  block: { reason: string; blockedAt: Date; everyChannel: boolean } | null;
  /** The buyer's real-name verification (issue 33), masked (张*, 1101**********1234); null: not verified. */
  identity: { maskedName: string; maskedIdNumber: string; verifiedAt: Date } | null;
  /** The agreement versions the buyer accepted on this channel, and when, oldest first (issue 33). */
  agreements: AgreementAcceptance[];
};

export const BUYER_ORDER_LINES = 50;

/** The buyer behind an account number on the channel, or null (no such number here). */
export async function buyerByAccountNumber(
  db: Db,
  channelId: number,
  accountNumber: string,
  options: { fullPhone: boolean },
): Promise<BuyerView | null> {
  const userId = await buyerOfAccountNumber(db, channelId, accountNumber, { includeClosed: true });
  if (userId === null) return null;
  const [user] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return null;
  const [logins] = await db
    .select({ first: min(authSessions.createdAt), last: max(authSessions.createdAt) })
    .from(authSessions)
    .where(and(eq(authSessions.userId, userId), eq(authSessions.channelId, channelId)));
  // What the buyer holds here now, as their Mine counts it: not a copy spent in an exchange, not one a refund took back,
  // not a blind box already opened (its prize is the holding). Issue 32's journey: after a refund the console said the
  // buyer still held the box and its prize.
  const [held] = await db
    .select({ n: count() })
    .from(holdings)
    .where(
      and(
        eq(holdings.userId, userId),
        eq(holdings.channelId, channelId),
        isNull(holdings.destroyedAt),
        isNull(holdings.refundedAt),
        isNull(holdings.openedAt),
      ),
    );
  const lines = await db
    .select({
      orderNo: orders.orderNo,
      statusTrade: orders.statusTrade,
      cancelReason: orders.cancelReason,
      amount: orders.amount,
      quantity: orders.quantity,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.channelId, channelId)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(BUYER_ORDER_LINES);
  const block = await liveBlockOf(db, channelId, userId);
  const identity = await identityOf(db, userId);
  return {
    userId,
    accountNumber,
    phone: options.fullPhone ? user.phone : maskPhone(user.phone),
    phoneMasked: !options.fullPhone,
    firstLoginAt: toDate(logins?.first ?? null),
    lastLoginAt: toDate(logins?.last ?? null),
    holdings: Number(held?.n ?? 0),
    orders: lines.map((o) => ({
      orderNo: o.orderNo,
      state: orderState({ statusTrade: o.statusTrade as OrderStatus, cancelReason: o.cancelReason }),
      amount: o.amount,
      quantity: o.quantity,
      createdAt: o.createdAt,
    })),
    block: block ? { reason: block.reason, blockedAt: block.blockedAt, everyChannel: block.channelId === null } : null,
    identity: identity
      ? { maskedName: identity.maskedName, maskedIdNumber: identity.maskedIdNumber, verifiedAt: identity.verifiedAt }
      : null,
    agreements: await agreementAcceptancesOf(db, userId, channelId),
  };
}

/** min()/max() of a timestamp come back as text on some drivers. */
function toDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

export type TimelineEvent =
  | { kind: 'created'; at: Date; quantity: number; amount: number }
  | { kind: 'paid'; at: Date; provider: string; transactionId: string | null; paymentNo: string; amount: number }
  | { kind: 'minted'; at: Date; commodity: string; edition: number }
  | { kind: 'cancelled' | 'expired' | 'closed'; at: Date; reason: string | null }
  | { kind: 'refund'; at: Date; amount: number; quantity: number; reason: string; status: string; doneAt: Date | null };

export type OrderPage = {
  orderNo: string;
  state: OrderState;
  userId: number;
  accountNumber: string;
  phone: string;
  phoneMasked: boolean;
  quantity: number;
  price: number;
  amount: number;
  timeline: TimelineEvent[];
};

/** An order of the channel with its timeline, oldest first; null when the channel has no such order. */
export async function orderPage(
  db: Db,
  channelId: number,
  orderNo: string,
  options: { fullPhone: boolean; now: Date },
): Promise<OrderPage | null> {
  if (!ORDER_NO.test(orderNo)) return null;
  const [order] = await db
    .select({ order: orders, phone: users.phone })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orders.orderNo, orderNo), eq(orders.channelId, channelId)))
    .limit(1);
  if (!order) return null;
  const o = order.order;
  const timeline: TimelineEvent[] = [{ kind: 'created', at: o.createdAt, quantity: o.quantity, amount: o.amount }];
  const paid = await db.select().from(payments).where(eq(payments.orderId, o.id)).orderBy(asc(payments.createdAt));
  for (const p of paid) {
    if (p.settledAt && p.status !== PAYMENT_STATUS.created && p.status !== PAYMENT_STATUS.failed) {
      timeline.push({
        kind: 'paid',
        at: p.settledAt,
        provider: p.provider,
        transactionId: p.providerTradeNo,
        paymentNo: p.paymentNo,
        amount: p.amount,
      });
    }
  }
  const minted = await db
    .select({ at: holdings.createdAt, commodity: commodities.name, edition: holdings.number })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(eq(holdings.orderId, o.id))
    .orderBy(asc(holdings.number));
  for (const m of minted) timeline.push({ kind: 'minted', ...m });
  const state = orderState({ statusTrade: o.statusTrade as OrderStatus, cancelReason: o.cancelReason });
  if (o.cancelTime && (state === 'cancelled' || state === 'expired' || state === 'closed')) {
    timeline.push({ kind: state, at: o.cancelTime, reason: o.cancelReason });
  }
  const refunds = await db.select().from(orderRefunds).where(eq(orderRefunds.orderId, o.id)).orderBy(asc(orderRefunds.createdAt));
  for (const r of refunds) {
    timeline.push({
      kind: 'refund',
      at: r.createdAt,
      amount: r.amount,
      quantity: r.quantity,
      reason: r.reason,
      status: r.status,
      doneAt: r.doneAt,
    });
  }
  timeline.sort((a, b) => a.at.getTime() - b.at.getTime());
  return {
    orderNo: o.orderNo,
    state,
    userId: o.userId,
    accountNumber: await accountNumberOf(db, channelId, o.userId, options.now),
    phone: options.fullPhone ? order.phone : maskPhone(order.phone),
    phoneMasked: !options.fullPhone,
    quantity: o.quantity,
    price: o.price,
    amount: o.amount,
    timeline,
  };
}

/**
 * How many of the channel's buyers (logged in or ordered here, as `wasOnChannel` has it) have verified their real name
 * (issue 33, the Reports tab): in all, and on `today` (YYYY-MM-DD) in the channel's time zone. Counts only: who they
 * are stays on the buyer page, masked.
 */
export async function verifiedBuyerCounts(
  db: Db,
  channelId: number,
  timeZone: string,
  today: string,
): Promise<{ total: number; today: number }> {
  const [row] = await db
    .select({
      total: count(),
      today: sql<number>`count(*) filter (where (${buyerIdentities.verifiedAt} at time zone ${timeZone})::date = ${today}::date)`.mapWith(
        Number,
      ),
    })
    .from(buyerIdentities)
    .where(
      or(
        exists(
          db
            .select({ one: sql`1` })
            .from(authSessions)
            .where(and(eq(authSessions.userId, buyerIdentities.userId), eq(authSessions.channelId, channelId))),
        ),
        exists(
          db
            .select({ one: sql`1` })
            .from(orders)
            .where(and(eq(orders.userId, buyerIdentities.userId), eq(orders.channelId, channelId))),
        ),
      ),
    );
  return { total: Number(row?.total ?? 0), today: Number(row?.today ?? 0) };
}
