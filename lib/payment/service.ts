import 'server-only';
import { raiseAlert } from '../monitor/alerts';
import { and, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commodities, orders, payments, sales } from '../db/schema';
import { AppError } from '../procedure/errors';
import { randomDigits } from '../security/crypto';
import { isUniqueViolation } from '../db/errors';
import { executedRows } from '../db/rows';
import { mintHoldings } from '../collection/mint';
import { getOrder, movingStock, releaseOrder, type StockMove } from '../order/service';
import type { OrderView } from '../order/schema';
import { ORDER_STATUS, orderState } from '../order/status';
import { NotificationError, PaymentProviderError, type PaymentProvider, type PaymentStart, type VerifiedNotification } from './provider';
import { firstAskAt, horizonOf } from './schedule';
import type { PayClient } from './clients';
import type { UserScope } from '../procedure/scope';
import { PAYMENT_STATUSES, type NotificationOutcome, type StartedPayment } from './schema';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';

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
 * Limits on opening payments (issue 29): each payment opened is a call to the provider and a payment the
 * reconciliation may ask about, so one buyer tapping (or a script calling) pay/create cannot spend the merchant's API
 * quota nor crowd the reconciliation. docs/security.md "Payments" and docs/orders.md.
 */
export const PAYMENT_LIMITS = {
  /**
   * An open payment is answered again, with no call to the provider, while it is younger than this and the buyer asks
   * from the same kind of browser (and WeChat identity) for the same provider: WeChat Pay's H5 page (`h5_url`) is good
   * for 5 minutes, Alipay's signed pay URL carries its time, so 4 minutes leaves a margin.
   */
  reuseMs: 4 * 60_000,
  /**
   * A payment being opened (its provider call in flight: at most 10 s for WeChat Pay, 5 s for Alipay) is not opened a
   * second time by a concurrent call; a row left by a process that died mid-call stops counting after this.
   */
  startingMs: 15_000,
  /** Payments opened per order, whatever became of them: beyond it pay/create is refused (429). */
  perOrder: 8,
  /** pay/create calls per buyer per window, counted before anything else is done (429 beyond). */
  perBuyer: 20,
  perBuyerWindowMs: 10 * 60_000,
  /** The result page's pay/query asks the provider about a payment at most once per this. */
  queryIntervalMs: 5_000,
} as const;

/** A payment's number: the millisecond and 8 random digits, unique by constraint. */
function newPaymentNo(now: Date): string {
  return `P${now.getTime()}${randomDigits(8)}`;
}

/**
 * The first payment of one of the buyer's unpaid orders, in one statement (`open_first_payment`, drizzle/0047): under
 * the order's row lock, inserted only when the order is the buyer's on the channel and has no payment yet, as the
 * transaction of `startPayment` decides for that case. Null when anything else holds (no such order, a payment made
 * before, a number drawn twice): nothing was written, and `startPayment` decides in its transaction.
 */
async function openFirstPayment(
  db: Db,
  input: {
    orderNo: string;
    userId: number;
    channelId: number;
    provider: string;
    amount: number;
    now: Date;
    client: PayClient;
    payerOpenid: string | null;
  },
): Promise<{ id: number; paymentNo: string } | null> {
  const paymentNo = newPaymentNo(input.now);
  try {
    const [row] = executedRows<{ payment_id: number | null }>(
      await db.execute(sql`
      select payment_id from open_first_payment(${input.orderNo}::text, ${input.userId}::integer, ${input.channelId}::integer,
        ${paymentNo}::text, ${input.provider}::text, ${input.amount}::integer, ${input.client}::text, ${input.payerOpenid}::text,
        ${input.now.toISOString()}::timestamptz, ${firstAskAt(input.now).toISOString()}::timestamptz)`),
    );
    return row?.payment_id == null ? null : { id: Number(row.payment_id), paymentNo };
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * Inserts a payment under a fresh number: the millisecond and 8 random digits. Two payments that draw the same number
 * in the same millisecond would violate its unique index; the second draws again instead of failing as a 500 (each
 * try in a savepoint of `tx`, which a violation would otherwise abort).
 */
async function insertPayment(
  tx: Pick<Db, 'transaction'>,
  input: { orderId: number; provider: string; amount: number; now: Date; client: PayClient; payerOpenid: string | null },
): Promise<{ id: number; paymentNo: string }> {
  for (let attempt = 1; ; attempt++) {
    const paymentNo = newPaymentNo(input.now);
    try {
      const [row] = await tx.transaction((savepoint) =>
        savepoint
          .insert(payments)
          .values({
            paymentNo,
            orderId: input.orderId,
            provider: input.provider,
            amount: input.amount,
            createdAt: input.now,
            client: input.client,
            payerOpenid: input.payerOpenid,
            nextQueryAt: firstAskAt(input.now),
          })
          .returning({ id: payments.id }),
      );
      return { id: row!.id, paymentNo };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** The order as pay/create needs it: payable, else 409 (paid, or cancelled/expired). */
function assertPayable(order: OrderView): void {
  if (order.statusTrade !== ORDER_STATUS.toPay) {
    const state = order.statusTrade === ORDER_STATUS.paid ? REASON.paid : REASON.cancelled;
    // The words tell an expired order from a cancelled one (issue 30); the reason a client branches on stays.
    throw new AppError(409, msg('orderNotPayable', { state: orderState(order) }), { reason: state });
  }
}

/** An open payment as pay/create weighs it: answer it again, close it, or wait for it. */
type OpenPayment = {
  id: number;
  paymentNo: string;
  provider: string;
  status: number;
  client: string | null;
  payerOpenid: string | null;
  start: PaymentStart | null;
  createdAt: Date;
};

/**
 * Opens a payment for one of the buyer's unpaid orders and says where to pay (issue 29 bounds what that costs):
 * - the order's newest open payment, when it went through the same provider from the same kind of browser (and WeChat
 *   identity) less than PAYMENT_LIMITS.reuseMs ago, is answered again, with no call to the provider;
 * - otherwise a new payment is opened, after the order's last open payment is closed at its provider (so the buyer
 *   cannot pay twice, and only the newest is asked about; those before it were closed when it opened);
 * - at most PAYMENT_LIMITS.perOrder payments per order (429 beyond), and one being opened at a time (429 meanwhile).
 * 404 when the order is not the buyer's, 409 when it is no longer payable.
 */
export async function startPayment(
  ctx: UserScope & {
    channelKey: string;
    provider: PaymentProvider;
    /** Every provider the deployment runs, to close earlier payments made through another; the chosen one unless told. */
    providers?: Providers;
    /** The buyer's environment; a phone browser unless told. */
    payer?: Payer;
    /** The channel's public origin (https://host): the provider sends the buyer back to the result page there. */
    origin?: string;
  },
  orderNo: string,
): Promise<StartedPayment> {
  const order = await getOrder(ctx, orderNo);
  assertPayable(order);
  const payer = ctx.payer ?? { client: 'mobile', ip: ctx.ip ?? '127.0.0.1' };
  const openid = payer.openid ?? null;
  const answer = (paymentNo: string, start: PaymentStart): StartedPayment => ({
    paymentNo,
    provider: ctx.provider.name,
    ...start,
    orderNo,
    amount: order.amount,
    expireTime: order.expireTime,
  });

  // An order's first payment, a drop's every payment, in one statement: no transaction holds a connection for it.
  const first = await openFirstPayment(ctx.db, {
    orderNo,
    userId: ctx.userId,
    channelId: ctx.channelId,
    provider: ctx.provider.name,
    amount: order.amount,
    now: ctx.now,
    client: payer.client,
    payerOpenid: openid,
  });
  // Otherwise decided under the order's row lock, so concurrent calls for one order open one payment, not one each.
  const decided = first
    ? { kind: 'opened' as const, opened: first, earlier: [] as OpenPayment[] }
    : await ctx.db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: orders.id })
          .from(orders)
          .where(and(eq(orders.orderNo, orderNo), eq(orders.userId, ctx.userId), eq(orders.channelId, ctx.channelId)))
          .for('update');
        if (!locked) throw new AppError(404, msg('orderNotFound'));
        const made: OpenPayment[] = await tx
          .select({
            id: payments.id,
            paymentNo: payments.paymentNo,
            provider: payments.provider,
            status: payments.status,
            client: payments.client,
            payerOpenid: payments.payerOpenid,
            start: payments.start,
            createdAt: payments.createdAt,
          })
          .from(payments)
          .where(eq(payments.orderId, locked.id))
          .orderBy(desc(payments.id));
        const open = made.filter((p) => p.status === PAYMENT_STATUS.created);
        const age = (p: OpenPayment) => ctx.now.getTime() - p.createdAt.getTime();
        if (open.some((p) => p.start === null && age(p) < PAYMENT_LIMITS.startingMs)) {
          throw new AppError(429, msg('payStarting'), { reason: REASON.starting });
        }
        // Only the newest open payment is answered again: it is the one the reconciliation asks about.
        const again = open
          .slice(0, 1)
          .find(
            (p) =>
              p.start !== null &&
              p.provider === ctx.provider.name &&
              p.client === payer.client &&
              p.payerOpenid === openid &&
              age(p) >= 0 &&
              age(p) < PAYMENT_LIMITS.reuseMs,
          );
        if (again) return { kind: 'again' as const, again };
        if (made.length >= PAYMENT_LIMITS.perOrder) {
          console.warn(`[pay] order ${orderNo} has had ${made.length} payments; pay/create refused`);
          throw new AppError(429, msg('payTooManyAttempts', { limit: PAYMENT_LIMITS.perOrder }), { reason: REASON.attempts });
        }
        const opened = await insertPayment(tx, {
          orderId: locked.id,
          provider: ctx.provider.name,
          amount: order.amount,
          now: ctx.now,
          client: payer.client,
          payerOpenid: openid,
        });
        // The last payment is closed; those before it were closed (or found unclosable) when it opened.
        return { kind: 'opened' as const, opened, earlier: open.slice(0, 1) };
      });
  if (decided.kind === 'again') {
    const kept = decided.again.start!;
    return answer(decided.again.paymentNo, ctx.provider.reopen?.(kept) ?? kept);
  }

  const { opened, earlier } = decided;
  const expiresAt = new Date(order.expireTime);
  let unsure = false;
  for (const payment of earlier) {
    unsure = (await closeEarlier(ctx.db, ctx.providers ?? ctx.provider, payment, expiresAt, ctx.now)) || unsure;
  }
  // An earlier payment that could not be closed may turn out paid (its notification lost): then the order is paid now,
  // and the new payment is never opened.
  if (unsure) {
    const now = await getOrder(ctx, orderNo);
    if (now.statusTrade !== ORDER_STATUS.toPay) {
      await failUnopened(ctx.db, opened.id, ctx.now);
      assertPayable(now);
    }
  }

  try {
    const started = await ctx.provider.start({
      paymentNo: opened.paymentNo,
      amount: order.amount,
      subject: order.commodity.name,
      channelKey: ctx.channelKey,
      client: payer.client,
      clientIp: payer.ip,
      openid,
      returnUrl: `${ctx.origin ?? ''}/pay/success?orderNo=${orderNo}`,
      expiresAt,
    });
    // Kept to answer the payment again (the reuse window above); only what the buyer is handed anyway.
    await ctx.db
      .update(payments)
      .set({ start: { payUrl: started.payUrl, ...(started.jsapi ? { jsapi: started.jsapi } : {}) } })
      .where(eq(payments.id, opened.id));
    return answer(opened.paymentNo, started);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // Never opened at the provider: closed at once, so neither the buyer's retry nor the reconciliation waits on it.
    await failUnopened(ctx.db, opened.id, ctx.now);
    console.error(`[pay] ${error.message}`);
    await raiseAlert(
      ctx.db,
      {
        kind: 'providerRefused',
        channelId: null,
        subject: `${ctx.provider.name} ${error.providerCode}`,
        detail: `payment provider refused opening a payment: ${error.message.slice(0, 200)}`,
      },
      ctx.now,
    ); // issue 32
    throw new AppError(
      error.busy ? 1001 : 409,
      error.busy
        ? msg('payProviderBusy', { provider: ctx.provider.name, code: error.providerCode })
        : msg('payProviderRefused', { provider: ctx.provider.name, code: error.providerCode, detail: error.message.slice(0, 120) }),
      { reason: REASON.provider, provider: ctx.provider.name, providerCode: error.providerCode },
    );
  }
}

/** A payment that never opened at its provider: failed at once, asked about by nobody. */
async function failUnopened(db: Db, paymentId: number, now: Date): Promise<void> {
  await db
    .update(payments)
    .set({ status: PAYMENT_STATUS.failed, settledAt: now, nextQueryAt: null })
    .where(and(eq(payments.id, paymentId), eq(payments.status, PAYMENT_STATUS.created)));
}

/**
 * Closes an earlier open payment of an order at its provider, as a newer one opens (issue 29). Closed → settled as
 * failed (a SUCCESS notification for it would still pay or refund it: money is never dropped). Otherwise it stays open
 * and is asked about once, at the horizon: the provider has not opened it yet (Alipay), has no `close`, is not run by
 * the deployment any more, or refused to close it; in that last case it may have been paid with its notification
 * lost, so the provider is asked about it now, once, and the answer applied. True when the order may have moved.
 */
async function closeEarlier(db: Db, providers: Providers, payment: OpenPayment, expiresAt: Date, now: Date): Promise<boolean> {
  const provider = providerOf(providers, payment.provider);
  let closed: 'closed' | 'unopened' | 'refused' | null = null;
  if (provider?.close) {
    try {
      closed = await provider.close(payment.paymentNo);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      console.warn(`[pay] could not close ${payment.paymentNo} at ${payment.provider}: ${error.message}`);
      closed = 'refused';
    }
  }
  if (closed === 'closed') {
    await failUnopened(db, payment.id, now);
    return false;
  }
  // Asked about once more, at the horizon, where the reconciliation gives it up if the provider still knows nothing.
  await db
    .update(payments)
    .set({ nextQueryAt: horizonOf(expiresAt) })
    .where(and(eq(payments.id, payment.id), eq(payments.status, PAYMENT_STATUS.created)));
  if (closed !== 'refused' || !provider) return false;
  try {
    await db.update(payments).set({ queriedAt: now }).where(eq(payments.id, payment.id));
    const answer = await provider.query(payment.paymentNo);
    if (answer) await applyNotification(db, provider, answer, now);
  } catch (error) {
    if (!(error instanceof PaymentProviderError || error instanceof NotificationError)) throw error;
    console.error(`[pay] query of ${payment.paymentNo} failed`, error.message);
  }
  return true;
}

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
  // A drop's every payment: paid while its order waits, settled in one statement (drizzle/0047), no transaction held.
  if (n.paid && (await settlePaid(db, provider, n, now))) return 'paid';
  let released: StockMove | null = null;
  // A payment that came too late gives its copy back: published to every process with the commit (docs/caching.md).
  const outcome = await movingStock(db, async (tx) => ({ value: await settle(tx), move: released }));
  if (outcome === 'refunded') await finishRefund(db, provider, n.paymentNo, n.amount);
  return outcome;

  async function settle(tx: Db): Promise<NotificationOutcome> {
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
    // The refund is made right after commit; should that fail, the reconciliation retries it from a minute on.
    await tx
      .update(payments)
      .set({ status: PAYMENT_STATUS.refunding, nextQueryAt: firstAskAt(now) })
      .where(eq(payments.id, payment.id));
    return 'refunded';
  }
}

/**
 * Step 3's common case in one statement (`settle_paid`, drizzle/0047): a "paid" for a payment still open whose order
 * is still to pay and in time. The payment is paid and counted, the order paid and its holdings minted, as the
 * transaction of `applyNotification` does. False when anything else holds (no such payment, another provider or
 * amount, a repeat, an order paid too late): nothing was written, and the transaction decides.
 */
async function settlePaid(db: Db, provider: PaymentProvider, n: VerifiedNotification, now: Date): Promise<boolean> {
  const [row] = executedRows<{ outcome: string | null }>(
    await db.execute(sql`
    select outcome from settle_paid(${n.paymentNo}::text, ${provider.name}::text, ${n.amount}::integer,
      ${n.providerTradeNo}::text, ${now.toISOString()}::timestamptz)`),
  );
  return row?.outcome === 'paid';
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
 * The fallback when a notification is late (the pay-result pages poll it): asks the provider about the order's newest
 * open payment (earlier ones were closed as it opened) and applies what it says, then answers the order as it now
 * stands. The provider is asked about a payment at most once per PAYMENT_LIMITS.queryIntervalMs, whoever polls: the
 * ask is claimed by a conditional UPDATE, so concurrent polls (or reloads) make one call, not one each (issue 29).
 */
export async function queryPayment(ctx: UserScope & { providers: Providers }, orderNo: string): Promise<OrderView> {
  const order = await getOrder(ctx, orderNo);
  if (order.statusTrade !== ORDER_STATUS.toPay) return order;
  const [newest] = await ctx.db
    .select({ id: payments.id, paymentNo: payments.paymentNo, provider: payments.provider })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(orders.orderNo, orderNo), eq(orders.userId, ctx.userId), eq(payments.status, PAYMENT_STATUS.created)))
    .orderBy(desc(payments.id))
    .limit(1);
  // A payment of a provider the deployment no longer runs waits for it.
  const provider = newest ? providerOf(ctx.providers, newest.provider) : null;
  if (!newest || !provider) return order;
  const askedBefore = new Date(ctx.now.getTime() - PAYMENT_LIMITS.queryIntervalMs);
  const [claimed] = await ctx.db
    .update(payments)
    .set({ queriedAt: ctx.now })
    .where(
      and(
        eq(payments.id, newest.id),
        eq(payments.status, PAYMENT_STATUS.created),
        or(isNull(payments.queriedAt), lte(payments.queriedAt, askedBefore)),
      ),
    )
    .returning({ id: payments.id });
  if (!claimed) return order;
  try {
    const answer = await provider.query(newest.paymentNo);
    if (answer) await applyNotification(ctx.db, provider, answer, ctx.now);
  } catch (error) {
    // The page shows the order as it stands; the reconciliation job asks again.
    if (!(error instanceof PaymentProviderError || error instanceof NotificationError)) throw error;
    console.error(`[pay] query of ${newest.paymentNo} failed`, error.message);
  }
  return getOrder(ctx, orderNo);
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
