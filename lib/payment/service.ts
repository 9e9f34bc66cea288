import 'server-only';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commodities, orders, payments, sales } from '../db/schema';
import { AppError } from '../procedure/errors';
import { randomDigits } from '../security/crypto';
import { isUniqueViolation } from '../db/errors';
import { mintHoldings } from '../collection/mint';
import { getOrder, ORDER_STATUS, releaseOrder, stockCommitted, type OrderView, type StockMove } from '../order/service';
import { NotificationError, PaymentProviderError, type PaymentProvider, type VerifiedNotification } from './provider';
import type { PayClient } from './clients';
import type { UserScope } from '../procedure/scope';
import { PAYMENT_STATUSES, type NotificationOutcome, type StartedPayment } from './schema';
import { msg } from '../procedure/messages';

/** `payments.status`. */
/**
 * `payments.status`. `refunding`: paid too late, the money owed back but the provider's refund not confirmed yet (set in
 * the same transaction that closes the order, so a crash before the refund call leaves it for the reconciliation job).
 */
export const PAYMENT_STATUS = { created: 0, paid: 1, failed: 2, refunded: 3, refunding: 4 } as const;

/** One provider, or several to pick from by a payment's own `provider` (lib/payment/providers.ts builds them). */
export type Providers = PaymentProvider | readonly PaymentProvider[];

export function providerList(providers: Providers): readonly PaymentProvider[] {
  return Array.isArray(providers) ? (providers as readonly PaymentProvider[]) : [providers as PaymentProvider];
}

/** The provider a payment went through, among `providers`; null when the deployment no longer runs it. */
export function providerOf(providers: Providers, name: string): PaymentProvider | null {
  return providerList(providers).find((p) => p.name === name) ?? null;
}

/** Who pays, for the provider: where from (WeChat JSAPI or H5, …), the address, WeChat's openid. */
export type Payer = { client: PayClient; ip: string; openid?: string | null };

/**
 * Inserts a payment under a fresh number: the millisecond and 8 random digits. Two payments that draw the same number
 * in the same millisecond would violate its unique index; the second draws again instead of failing as a 500.
 */
async function insertPayment(db: Db, input: { orderId: number; provider: string; amount: number; now: Date }): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const paymentNo = `P${input.now.getTime()}${randomDigits(8)}`;
    try {
      await db
        .insert(payments)
        .values({ paymentNo, orderId: input.orderId, provider: input.provider, amount: input.amount, createdAt: input.now });
      return paymentNo;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

export type { StartedPayment } from './schema';

/** Opens a payment for one of the buyer's unpaid orders and says where to pay. 409 when the order is no longer payable. */
export async function startPayment(
  ctx: UserScope & {
    channelKey: string;
    provider: PaymentProvider;
    /** The buyer's environment; a phone browser unless told. */
    payer?: Payer;
    /** The channel's public origin (https://host): the provider sends the buyer back to the result page there. */
    origin?: string;
  },
  orderNo: string,
): Promise<StartedPayment> {
  const order = await getOrder(ctx, orderNo);
  if (order.statusTrade !== ORDER_STATUS.toPay) {
    throw new AppError(409, msg('orderNotPayable', { paid: order.statusTrade === ORDER_STATUS.paid }), {
      reason: order.statusTrade === ORDER_STATUS.paid ? 'paid' : 'cancelled',
    });
  }
  const [row] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, orderNo)).limit(1);
  const paymentNo = await insertPayment(ctx.db, { orderId: row!.id, provider: ctx.provider.name, amount: order.amount, now: ctx.now });
  const payer = ctx.payer ?? { client: 'mobile', ip: ctx.ip ?? '127.0.0.1' };
  try {
    const started = await ctx.provider.start({
      paymentNo,
      amount: order.amount,
      subject: order.commodity.name,
      channelKey: ctx.channelKey,
      client: payer.client,
      clientIp: payer.ip,
      openid: payer.openid ?? null,
      returnUrl: `${ctx.origin ?? ''}/pay/success?orderNo=${orderNo}`,
      expiresAt: new Date(order.expireTime),
    });
    return { paymentNo, provider: ctx.provider.name, ...started, orderNo, amount: order.amount, expireTime: order.expireTime };
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // Never opened at the provider: closed at once, so neither the buyer's retry nor the reconciliation waits on it.
    await ctx.db
      .update(payments)
      .set({ status: PAYMENT_STATUS.failed, settledAt: ctx.now })
      .where(and(eq(payments.paymentNo, paymentNo), eq(payments.status, PAYMENT_STATUS.created)));
    console.error(`[pay] ${error.message}`);
    throw new AppError(
      error.busy ? 1001 : 409,
      error.busy
        ? msg('payProviderBusy', { provider: ctx.provider.name, code: error.providerCode })
        : msg('payProviderRefused', { provider: ctx.provider.name, code: error.providerCode, detail: error.message.slice(0, 120) }),
      { reason: 'provider', provider: ctx.provider.name, providerCode: error.providerCode },
    );
  }
}

/** What a notification did: paid (minted), failed, duplicate (already handled: nothing happens), refunded (paid too late). */
export type { NotificationOutcome } from './schema';

/**
 * Applies a verified notification exactly once (DESIGN §7), in one transaction:
 * 1. the payment must exist and the amount must be the payment's, else nothing changes (NotificationError);
 * 2. the payment moves in one conditional UPDATE: FAILED only out of `created`; SUCCESS out of `created` or `failed`
 *    (money the provider took is never dropped as a repeat: the buyer may pay on a second try at the provider's
 *    cashier, and the reconciliation job closes a payment as failed once the provider has long known nothing of it).
 *    Only the first delivery that may move it gets past; SUCCESS after SUCCESS and FAILED after SUCCESS are repeats;
 * 3. paid, and its order still payable → the order is paid and its holdings minted in the same transaction;
 *    paid, but the order expired, was cancelled or is paid already → the order is closed, the payment refunded,
 *    nothing is minted (docs/orders.md, "paid too late").
 * The reconciliation job (./reconcile.ts) applies the provider's answers to `query` through here too.
 */
export async function applyNotification(
  db: Db,
  provider: PaymentProvider,
  n: VerifiedNotification,
  now: Date,
): Promise<NotificationOutcome> {
  let released: StockMove | null = null;
  const outcome = await db.transaction(async (tx): Promise<NotificationOutcome> => {
    const [payment] = await tx.select().from(payments).where(eq(payments.paymentNo, n.paymentNo)).limit(1);
    if (!payment) throw new NotificationError('paymentNo: no such payment');
    if (payment.provider !== provider.name) throw new NotificationError(`paymentNo: is not a ${provider.name} payment`);
    if (n.amount !== payment.amount) throw new NotificationError(`amount: ${n.amount} does not match the payment's ${payment.amount}`);
    await tx
      .update(payments)
      .set({ notifications: sql`${payments.notifications} + 1` })
      .where(eq(payments.id, payment.id));
    const [moved] = await tx
      .update(payments)
      .set({ status: n.paid ? PAYMENT_STATUS.paid : PAYMENT_STATUS.failed, providerTradeNo: n.providerTradeNo, settledAt: now })
      .where(
        and(
          eq(payments.id, payment.id),
          n.paid ? inArray(payments.status, [PAYMENT_STATUS.created, PAYMENT_STATUS.failed]) : eq(payments.status, PAYMENT_STATUS.created),
        ),
      )
      .returning({ id: payments.id });
    if (!moved) return 'duplicate';
    if (!n.paid) return 'failed';

    const [paid] = await tx
      .update(orders)
      .set({ statusTrade: ORDER_STATUS.paid, payTime: now })
      .where(and(eq(orders.id, payment.orderId), eq(orders.statusTrade, ORDER_STATUS.toPay), gt(orders.expiresAt, now)))
      .returning();
    if (paid) {
      const [commodity] = await tx
        .select({ id: commodities.id, amountSku: commodities.amountSku })
        .from(sales)
        .innerJoin(commodities, eq(commodities.id, sales.commodityId))
        .where(eq(sales.id, paid.saleId))
        .limit(1);
      await mintHoldings(tx, {
        channelId: paid.channelId,
        userId: paid.userId,
        commodity: commodity!,
        quantity: paid.quantity,
        orderId: paid.id,
        now,
      });
      return 'paid';
    }
    // Paid too late: the stock went back (or goes back now), the order closes, the money goes back.
    released = await releaseOrder(tx, payment.orderId, 'expired', now);
    await tx
      .update(orders)
      .set({ statusTrade: ORDER_STATUS.closed, cancelReason: 'paidLate' })
      .where(and(eq(orders.id, payment.orderId), eq(orders.statusTrade, ORDER_STATUS.cancelled)));
    await tx.update(payments).set({ status: PAYMENT_STATUS.refunding }).where(eq(payments.id, payment.id));
    return 'refunded';
  });
  stockCommitted(db, released);
  if (outcome === 'refunded') await finishRefund(db, provider, n.paymentNo, n.amount);
  return outcome;
}

/**
 * Gives the money of a `refunding` payment back through the provider, then records it refunded. A failure (or a crash)
 * leaves it `refunding`, and the reconciliation job calls this again: providers take a refund of one payment once
 * (WeChat Pay and Alipay by its refund number, the sandbox by its books), so a repeat cannot pay twice.
 */
export async function finishRefund(db: Db, provider: PaymentProvider, paymentNo: string, amount: number): Promise<void> {
  await provider.refund(paymentNo, amount);
  await db
    .update(payments)
    .set({ status: PAYMENT_STATUS.refunded })
    .where(and(eq(payments.paymentNo, paymentNo), eq(payments.status, PAYMENT_STATUS.refunding)));
}

/** A provider's notification as it arrives over HTTP: verified, then applied. Bad ones are refused with the reason. */
export async function receiveNotification(
  db: Db,
  provider: PaymentProvider,
  rawBody: string,
  headers: Headers,
  now: Date,
): Promise<NotificationOutcome> {
  return applyNotification(db, provider, await provider.verify(rawBody, headers, now), now);
}

/**
 * The fallback when a notification is late (the pay-result pages poll it): asks the provider about the order's open
 * payments and applies what it says, then answers the order as it now stands.
 */
export async function queryPayment(ctx: UserScope & { providers: Providers }, orderNo: string): Promise<OrderView> {
  const order = await getOrder(ctx, orderNo);
  if (order.statusTrade === ORDER_STATUS.toPay) {
    const open = await ctx.db
      .select({ paymentNo: payments.paymentNo, provider: payments.provider })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(orders.orderNo, orderNo), eq(payments.status, PAYMENT_STATUS.created)))
      .orderBy(desc(payments.id))
      .limit(5);
    for (const payment of open) {
      // Each payment is asked about at its own provider; one the deployment no longer runs waits for it.
      const provider = providerOf(ctx.providers, payment.provider);
      if (!provider) continue;
      try {
        const answer = await provider.query(payment.paymentNo);
        if (answer) await applyNotification(ctx.db, provider, answer, ctx.now);
      } catch (error) {
        // The page shows the order as it stands; the reconciliation job asks again.
        if (!(error instanceof PaymentProviderError || error instanceof NotificationError)) throw error;
        console.error(`[pay] query of ${payment.paymentNo} failed`, error.message);
      }
    }
    return getOrder(ctx, orderNo);
  }
  return order;
}

/** The sandbox cashier's view of a payment: only its buyer sees it. */
export async function sandboxPaymentInfo(ctx: UserScope, paymentNo: string) {
  const [row] = await ctx.db
    .select({ payment: payments, orderNo: orders.orderNo })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.paymentNo, paymentNo), eq(orders.userId, ctx.userId), eq(orders.channelId, ctx.channelId)))
    .limit(1);
  if (!row) throw new AppError(404, msg('paymentNotFound'));
  const order = await getOrder(ctx, row.orderNo);
  const status = PAYMENT_STATUSES[row.payment.status] ?? 'created';
  return { paymentNo, amount: row.payment.amount, status, order };
}
