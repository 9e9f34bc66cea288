import 'server-only';
import { requireIdentityIn } from '../identity/gate';
import { and, asc, count, desc, eq, getTableColumns, inArray, lte, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { commodities, holdings, orderRefunds, orders, saleAllocations, salePriority, saleQuotas, sales } from '../db/schema';
import { AppError } from '../procedure/errors';
import { randomDigits } from '../security/crypto';
import { databaseError, isUniqueViolation } from '../db/errors';
import { SALE_STATUS, saleWindowStatus } from '../sale/status';
import { preparedOn } from '../db/prepared';
import { idempotencyKeyReused } from '../procedure/schemas';
import { madeOrWinner } from '../procedure/idempotent';
import type { UserScope } from '../procedure/scope';
import { toPage, type Page } from '../procedure/paging';
import type { OrderView } from './schema';
import { ORDER_STATUS, orderState, type OrderStatus } from './status';
import { cachedRead, invalidate, stockMoved, stockTags, tags, writeInvalidating } from '../cache/store';
import { forgetSoldOut, MAX_KEPT_BUYERS, noteSoldOut, soldOutVerdict } from './sold-out';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';
import { orderRiskRefusal } from './unpaid-rule';
import { lotteryRankOf, lotteryRoundsOf, lotteryStanding, type LotteryBuyTerms } from '../sale/lottery';
import { admissionRefusal as queueAdmissionRefusal } from '../sale/queue';
import { buyerEarlyOpening, type PriorityBuyTerms } from '../sale/priority';

/**
 * Orders (DESIGN §7; states and transitions in docs/orders.md). Creating one reserves stock and the buyer's
 * per-sale quota in one transaction; an unpaid order expires and gives both back, lazily when it is next read and by
 * the background sweep (lib/jobs/runner.ts).
 */

type OrderRow = typeof orders.$inferSelect;
type CommodityRow = typeof commodities.$inferSelect;
type SaleRow = typeof sales.$inferSelect;

function toView(order: OrderRow, commodity: CommodityRow, editions: OrderView['editions'], refunds: OrderView['refunds'] = []): OrderView {
  return {
    orderNo: order.orderNo,
    saleId: String(order.saleId),
    quantity: order.quantity,
    price: order.price,
    amount: order.amount,
    pricePay: order.amount,
    statusTrade: order.statusTrade as OrderStatus,
    cancelReason: order.cancelReason,
    createTime: order.createdAt.toISOString(),
    expireTime: order.expiresAt.toISOString(),
    payTime: order.payTime?.toISOString() ?? null,
    cancelTime: order.cancelTime?.toISOString() ?? null,
    commodity: { id: String(commodity.id), name: commodity.name, cover: commodity.cover, isBlindBox: commodity.isBlindBox },
    editions,
    refunds,
  };
}

/** The refunds of these orders (issue 32), by order id, each with the edition numbers it took back. */
async function refundsByOrder(db: Db, orderIds: number[]): Promise<Map<number, OrderView['refunds']>> {
  const byOrder = new Map<number, OrderView['refunds']>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db.select().from(orderRefunds).where(inArray(orderRefunds.orderId, orderIds)).orderBy(asc(orderRefunds.id));
  if (rows.length === 0) return byOrder;
  const taken = await db
    .select({ refundId: holdings.refundId, number: holdings.number })
    .from(holdings)
    .where(
      and(
        inArray(holdings.orderId, orderIds),
        inArray(
          holdings.refundId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(holdings.number));
  for (const r of rows) {
    byOrder.set(r.orderId, [
      ...(byOrder.get(r.orderId) ?? []),
      {
        amount: r.amount,
        quantity: r.quantity,
        numbers: taken.filter((t) => t.refundId === r.id).map((t) => t.number),
        time: r.createdAt.toISOString(),
        status: r.status === 'done' ? 'done' : 'owed',
      },
    ]);
  }
  return byOrder;
}

/** Order numbers: the UTC time to the second and 8 random digits, unique by constraint. */
function newOrderNo(now: Date): string {
  return `${now.toISOString().replace(/\D/g, '').slice(0, 14)}${randomDigits(8)}`;
}

/** A sale whose copies left a transaction moved (cached reads are told once it committed). */
export type StockMove = { channelId: number; saleId: number };

/**
 * Tells the cached reads of `db` that a committed write outside a transaction (the buy's one-statement claim) moved a
 * sale's stock: dropped here at once, and in the other processes by the notice sent after this turn (docs/caching.md).
 */
export function stockCommitted(db: Db, move: StockMove | null): void {
  if (!move) return;
  forgetSoldOut(db, move.saleId);
  stockMoved(db, move);
}

/**
 * Runs `write`, a transaction that may move a sale's stock (it answers the move, or null), so that the move's tags are
 * published with its commit to every process (docs/caching.md), then forgets the sale's sold-out note here (other
 * processes hear the returned copy from the database: ./sold-out.ts).
 */
export async function movingStock<T>(db: Db, write: (tx: Db) => Promise<{ move: StockMove | null; value: T }>): Promise<T> {
  const { move, value } = await writeInvalidating(db, async (tx, changed) => {
    const done = await write(tx);
    if (done.move) changed(stockTags(done.move));
    return done;
  });
  if (move) forgetSoldOut(db, move.saleId);
  return value;
}

/** Why an unpaid order was cancelled: its buyer, its time ran out, or its sale was cancelled (issue 32). */
export type ReleaseReason = 'buyer' | 'expired' | 'saleCancelled';

/** `releaseOrder` in a transaction of its own, its move published with the commit. */
export function releaseCommitted(db: Db, orderId: number, reason: ReleaseReason, now: Date): Promise<StockMove | null> {
  return movingStock(db, async (tx) => {
    const move = await releaseOrder(tx, orderId, reason, now);
    return { move, value: move };
  });
}

/**
 * Gives an unpaid order's stock and quota back and marks it cancelled. Idempotent: only an order still to pay moves,
 * so the sweep, a lazy read and the buyer's cancel can race safely. Returns the stock it moved (null when this call
 * moved nothing), for the caller's transaction to publish (`movingStock`).
 */
export async function releaseOrder(tx: Db, orderId: number, reason: ReleaseReason, now: Date): Promise<StockMove | null> {
  const [moved] = await tx
    .update(orders)
    .set({ statusTrade: ORDER_STATUS.cancelled, cancelReason: reason, cancelTime: now })
    .where(and(eq(orders.id, orderId), eq(orders.statusTrade, ORDER_STATUS.toPay)))
    .returning({ saleId: orders.saleId, userId: orders.userId, quantity: orders.quantity });
  if (!moved) return null;
  const [stock] = await tx
    .update(sales)
    .set({ amountAvailable: sql`${sales.amountAvailable} + ${moved.quantity}` })
    .where(eq(sales.id, moved.saleId))
    .returning({ channelId: sales.channelId });
  await tx
    .update(saleQuotas)
    .set({ reserved: sql`${saleQuotas.reserved} - ${moved.quantity}` })
    .where(and(eq(saleQuotas.saleId, moved.saleId), eq(saleQuotas.userId, moved.userId)));
  return { channelId: stock!.channelId, saleId: moved.saleId };
}

/** Expires overdue unpaid orders (all of them, one user's or one sale's); returns how many. The sweep and lazy reads call it. */
export async function expireOverdueOrders(
  db: Db,
  now: Date,
  options: { userId?: number; saleId?: number; limit?: number } = {},
): Promise<number> {
  const overdue = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.statusTrade, ORDER_STATUS.toPay),
        lte(orders.expiresAt, now),
        options.userId === undefined ? undefined : eq(orders.userId, options.userId),
        options.saleId === undefined ? undefined : eq(orders.saleId, options.saleId),
      ),
    )
    .limit(options.limit ?? 500);
  let expired = 0;
  for (const { id } of overdue) {
    if (await releaseCommitted(db, id, 'expired', now)) expired++;
  }
  return expired;
}

/** `admission`: a waiting room's admission token (issue 35), required for a sale in mode 'queue'. */
export type CreateOrderInput = { saleId: number; quantity: number; idempotencyKey: string; admission?: string };

/** What a buy reads of a sale: everything but its copies left, which only the claim itself may judge. */
type SaleTerms = Omit<SaleRow, 'amountAvailable'>;
/**
 * `lottery`: the sale's lottery (issue 35) when it goes by lottery, null when first come. `queue`: the sale goes
 * through a waiting room (issue 35), whose admission order/create requires. `priority`: the sale's priority purchase
 * (issue 35, lib/sale/priority.ts) when it has one: eligible buyers buy from its early opening.
 */
export type BuyTerms = {
  sale: SaleTerms;
  commodity: CommodityRow;
  lottery: LotteryBuyTerms | null;
  queue: boolean;
  priority: PriorityBuyTerms | null;
} | null;
/** The sale's columns a buy reads: all but its copies left. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- taken out of the rest, which is what is used
const { amountAvailable, ...saleTermColumns } = getTableColumns(sales);

/**
 * The sale's terms and commodity for a buy (or null when the store has no such sale), from the process's tagged cache
 * (lib/cache/store.ts): the same for every buyer, and changed only by the catalogue (the seed drops every cached read),
 * so a drop reads them once per CACHE_TTL_MS instead of once per tap. The copies left are left out on purpose: a cached
 * count could refuse a buyer while a copy is back, so only `claim_copies` reads it.
 *
 * The sale's allocation comes in the same statement (issue 35): a lottery's draw and its purchase rounds,
 * so a first-come sale's buy pays nothing for lotteries and a lottery sale's reads only the buyer's rank. The lottery's
 * setup and draw drop these terms by the same tag (lib/sale/lottery.ts). So does its priority purchase's minutes early
 * and decision (lib/sale/priority.ts), whose changes drop them by the same tag.
 */
export function readBuyTerms(db: Db, channelId: number, saleId: number): Promise<BuyTerms> {
  return cachedRead(db, `buy-terms:${channelId}:${saleId}`, [tags.saleTerms(saleId)], async () => {
    const [row] = await preparedOn(db, 'sale_to_buy', (handle) =>
      handle
        .select({
          sale: saleTermColumns,
          commodity: commodities,
          allocation: {
            mode: saleAllocations.mode,
            copies: saleAllocations.copies,
            drawAt: saleAllocations.drawAt,
            drawnAt: saleAllocations.drawnAt,
            rounds: saleAllocations.rounds,
          },
          priority: { minutesEarly: salePriority.minutesEarly, decidedAt: salePriority.decidedAt },
        })
        .from(sales)
        .innerJoin(commodities, eq(commodities.id, sales.commodityId))
        .leftJoin(saleAllocations, eq(saleAllocations.saleId, sales.id))
        .leftJoin(salePriority, eq(salePriority.saleId, sales.id))
        .where(and(eq(sales.id, sql.placeholder('saleId')), eq(sales.channelId, sql.placeholder('channelId'))))
        .limit(1)
        .prepare('sale_to_buy'),
    ).execute({ saleId, channelId });
    if (!row) return null;
    const a = row.allocation;
    // The table's check constraint makes a lottery's settings present.
    const lottery = a?.mode === 'lottery' ? { drawAt: a.drawAt!, drawnAt: a.drawnAt, rounds: lotteryRoundsOf(a.rounds) } : null;
    const priority =
      row.priority?.minutesEarly != null ? { minutesEarly: row.priority.minutesEarly, decidedAt: row.priority.decidedAt } : null;
    return { sale: row.sale, commodity: row.commodity, lottery, queue: a?.mode === 'queue', priority };
  });
}

/**
 * Why a lottery sale (issue 35) refuses this buyer now (not registered for its draw, not drawn yet, waitlisted, their
 * purchase window over), or null: for a winner within their window, and for a first-come sale, which reads nothing.
 */
export async function admissionRefusal(ctx: UserScope, terms: NonNullable<BuyTerms>, admission?: string): Promise<AppError | null> {
  // issue 35: a waiting room's sale takes its signed admission, checked without a statement.
  if (terms.queue) return queueAdmissionRefusal(admission, { saleId: terms.sale.id, userId: ctx.userId, now: ctx.now });
  if (!terms.lottery) return null;
  return lotteryStanding(terms.lottery, await lotteryRankOf(ctx.db, terms.sale.id, ctx.userId), ctx.now).refusal;
}

/**
 * Why these terms refuse this buy before any copy is claimed (spec §6: 404, not open, ended, over the limit), or null.
 * `earlyOpening`: the buyer's own opening when priority purchase (issue 35) lets them in before the sale's; everyone
 * else is told the sale's opening.
 */
export function termsRefusal(
  terms: BuyTerms,
  input: Pick<CreateOrderInput, 'quantity'>,
  now: Date,
  earlyOpening: Date | null = null,
): AppError | null {
  if (!terms) return new AppError(404, msg('saleNotFound'));
  const { sale } = terms;
  // Cancelled on drop day (issue 32, "Drop-day controls"): no more orders, whatever its window says.
  if (sale.cancelledAt) return new AppError(409, msg('saleCancelled'), { reason: REASON.ended });
  // The sale's window without its copies left: an ended sale answers "ended" whether or not copies were left
  // (docs/orders.md).
  const window = saleWindowStatus(earlyOpening ? { ...sale, saleStartTime: earlyOpening } : sale, now);
  if (window === SALE_STATUS.COMING_SOON)
    return new AppError(409, msg('saleNotOpen', { at: sale.saleStartTime }), {
      reason: REASON.notOpen,
      saleStartTime: sale.saleStartTime.toISOString(),
    });
  // issue 32: an archived sale is over for buyers, whatever its window says.
  if (window === SALE_STATUS.ENDED || sale.archivedAt) return new AppError(409, msg('saleEnded'), { reason: REASON.ended });
  // issue 32, "Drop-day controls": an operator paused buying (a price typo); new orders wait until it resumes.
  if (sale.pausedAt) return new AppError(409, msg('salePaused'));
  if (input.quantity > sale.limitPerUser) return new AppError(400, msg('saleOverLimit', { limit: sale.limitPerUser }));
  return null;
}

/**
 * Buys: reserves `quantity` copies of a sale for the buyer (DESIGN §7). One statement (`claim_copies`,
 * drizzle/0009_claim_copies.sql): the buyer's key (a retried tap answers with the order it made), the quota upsert
 * (refused by the database beyond the sale's per-user limit), the order, the conditional stock decrement (refused when
 * fewer copies are left). The same idempotency key returns the same order, even when two taps race.
 *
 * A drop is mostly buyers arriving after the sell-out, so that answer is the cheap one: from memory once the sale is
 * noted sold out (lib/order/sold-out.ts), else one statement that reads the key and the copies left and stops. Overdue
 * unpaid orders still hold stock and quota until the sweep passes; when a buy is refused for either, the ones in the
 * way are expired at once and the buy is tried once more.
 */
export async function createOrder(ctx: UserScope, input: CreateOrderInput, payTimeoutMs: number): Promise<OrderView> {
  const find = () => findByKey(ctx, input);
  const ask = { channelId: ctx.channelId, saleId: input.saleId, quantity: input.quantity };
  // Sold out as far as this process knows (lib/order/sold-out.ts): no copy left and none held by an overdue order.
  const memory = soldOutVerdict(ctx.db, { ...ask, userId: ctx.userId }, ctx.now.getTime());
  // This buyer made no order of the sale: not a retry, so not even their key is read.
  if (memory === 'soldOut') throw shortOfStock(0);
  // A holder's tap may be a retry: their key is read, and a new key is sold out, with no trip to the sale.
  if (memory === 'soldOutUnlessRetry') {
    const again = await find();
    if (again) return again;
    throw shortOfStock(0);
  }
  const terms = await readBuyTerms(ctx.db, ctx.channelId, input.saleId);
  // issue 35, priority purchase: an eligible buyer's own opening, read (one indexed read) only within the early window.
  const early = await earlyOpeningOf(ctx, terms);
  const refusal = termsRefusal(terms, input, ctx.now, early);
  if (refusal) {
    // A retried tap still answers with the order it made, though the sale has ended since.
    const again = await find();
    if (again) return again;
    throw refusal;
  }
  const { sale, commodity } = terms!;
  // issue 35: a lottery sale admits only its winners, each within their purchase window (one indexed read of the
  // buyer's rank; none for a first-come sale). A retried tap still answers with the order it made in its window.
  const notAdmitted = await admissionRefusal(ctx, terms!, input.admission);
  if (notAdmitted) {
    const again = await find();
    if (again) return again;
    throw notAdmitted;
  }
  // issue 33: the channel's real-name and age rules, before any copy is claimed. As for the terms above, a retried tap
  // still answers with the order it made before the rules changed.
  const refused = await requireIdentityIn(ctx, 'buy', commodity.isBlindBox).then(
    () => null,
    (error: unknown) => error,
  );
  if (refused) {
    const again = await find();
    if (again) return again;
    throw refused;
  }
  // Risk at order time (issue 33; lib/order/unpaid-rule.ts), one statement after the cheap refusals above: a blocked
  // buyer, identity, phone or address range, and a buyer paused for orders left unpaid.
  const risk = await orderRiskRefusal(ctx.db, { channelId: ctx.channelId, userId: ctx.userId, ip: ctx.ip, now: ctx.now });
  if (risk && 'blocked' in risk) throw risk.blocked;
  if (risk) {
    // A retried tap that made its order before the pause still answers with it.
    const again = await find();
    if (again) return again;
    throw risk.paused;
  }
  return madeOrWinner({
    find,
    make: () => claim(ctx, input, payTimeoutMs, sale, commodity, early),
    // The same tap sent twice at once: the copy that lost on the limit answers with the winner's order.
    lostRace: (error) => isUniqueViolation(error) || (error instanceof AppError && error.data?.reason === REASON.limit),
    otherwise: async (error) => {
      const reason = error instanceof AppError ? error.data?.reason : undefined;
      const freed =
        reason === REASON.limit
          ? await expireOverdueOrders(ctx.db, ctx.now, { userId: ctx.userId, saleId: input.saleId, limit: 20 })
          : reason === REASON.soldOut || reason === REASON.notEnough
            ? await expireSaleOverdueOnce(ctx.db, ctx.now, input.saleId)
            : 0;
      if (freed > 0) return madeOrWinner({ find, make: () => claim(ctx, input, payTimeoutMs, sale, commodity, early) });
      if (reason === REASON.soldOut) await noteSaleSoldOutOnce(ctx.db, sale, ctx.now);
      throw error;
    },
  });
}

/** The buyer's early opening of a sale with priority purchase (lib/sale/priority.ts), or null: no read otherwise. */
function earlyOpeningOf(ctx: UserScope, terms: BuyTerms): Promise<Date | null> | null {
  if (!terms?.priority) return null;
  return buyerEarlyOpening(
    ctx.db,
    { saleId: terms.sale.id, saleStartTime: terms.sale.saleStartTime, priority: terms.priority },
    ctx.userId,
    ctx.now,
  );
}

/**
 * Notes `sale` sold out until its next unpaid order expires (that copy comes back then), its end, or the recheck, with
 * the users holding an order of it (read after the sale was found sold out, so none is missed).
 */
async function noteSaleSoldOut(db: Db, sale: SaleTerms, now: Date): Promise<void> {
  const [next] = await db
    .select({ at: min(orders.expiresAt) })
    .from(orders)
    .where(and(eq(orders.saleId, sale.id), eq(orders.statusTrade, ORDER_STATUS.toPay)));
  const buyers = await db
    .selectDistinct({ userId: orders.userId })
    .from(orders)
    .where(eq(orders.saleId, sale.id))
    .limit(MAX_KEPT_BUYERS + 1);
  const ends = [next?.at, sale.saleEndTime].filter((at): at is Date => at instanceof Date).map((at) => at.getTime());
  const kept = buyers.length > MAX_KEPT_BUYERS ? null : buyers.map((b) => b.userId);
  noteSoldOut(db, { channelId: sale.channelId, saleId: sale.id, limitPerUser: sale.limitPerUser }, now.getTime(), ends, kept);
}

/**
 * One pass of `run` per database handle and key at a time: callers asking while it runs share its answer. After a
 * sell-out every late buyer asks at once to free the sale's overdue orders and to note it sold out; within this process
 * they share one pass of each instead of queueing on the same rows.
 */
const passesInProgress = new WeakMap<Db, Map<string, Promise<unknown>>>();
function sharedPass<T>(db: Db, key: string, run: () => Promise<T>): Promise<T> {
  let passes = passesInProgress.get(db);
  if (!passes) passesInProgress.set(db, (passes = new Map()));
  let pass = passes.get(key) as Promise<T> | undefined;
  if (!pass) {
    const inProgress = passes;
    pass = run().finally(() => inProgress.delete(key));
    inProgress.set(key, pass);
  }
  return pass;
}

const noteSaleSoldOutOnce = (db: Db, sale: SaleTerms, now: Date) => sharedPass(db, `note:${sale.id}`, () => noteSaleSoldOut(db, sale, now));
const expireSaleOverdueOnce = (db: Db, now: Date, saleId: number) =>
  sharedPass(db, `expire:${saleId}`, () => expireOverdueOrders(db, now, { saleId, limit: 200 }));

function shortOfStock(left: number): AppError {
  return new AppError(409, left > 0 ? msg('saleOnlyLeft', { left }) : msg('saleSoldOut'), {
    reason: left > 0 ? REASON.notEnough : REASON.soldOut,
  });
}

/**
 * The claim, in one round trip: `claim_copies` (drizzle/0009_claim_copies.sql) answers the order this key already made,
 * or makes one (quota, order, stock as one statement, so the sale's row lock is held inside the database only). A
 * refusal rolls all of it back and is answered here; a unique violation (the key's index, a twin tap racing this one;
 * or the order number) passes through, and an order number drawn twice is drawn again.
 */
async function claim(
  ctx: UserScope,
  input: CreateOrderInput,
  payTimeoutMs: number,
  sale: SaleTerms,
  commodity: CommodityRow,
  earlyOpening: Date | null,
  attempt = 1,
): Promise<OrderView> {
  const order: OrderRow = {
    id: 0,
    orderNo: newOrderNo(ctx.now),
    channelId: ctx.channelId,
    userId: ctx.userId,
    saleId: sale.id,
    quantity: input.quantity,
    price: sale.price,
    amount: sale.price * input.quantity,
    statusTrade: ORDER_STATUS.toPay,
    idempotencyKey: input.idempotencyKey,
    createdAt: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + payTimeoutMs),
    payTime: null,
    cancelTime: null,
    cancelReason: null,
    deviceKey: null, // recorded by the procedure once the order is made (issue 36, docs/sharing.md)
  };
  let claimed: Claimed;
  try {
    claimed = await claimCopies(ctx.db, order, sale.limitPerUser, earlyOpening);
  } catch (error) {
    if (error instanceof TermsChanged) throw await changedTermsRefusal(ctx, input, sale.id);
    // Two orders drew the same number in the same second (8 random digits): everything rolled back, so draw again
    // rather than answer a 500. (A violation of the key's index is a twin tap: the caller answers with its order.)
    if (isUniqueViolation(error) && attempt < 3 && !(await keyMadeAnOrder(ctx, input))) {
      return claim(ctx, input, payTimeoutMs, sale, commodity, earlyOpening, attempt + 1);
    }
    throw error;
  }
  if (!claimed.made) {
    if (claimed.channelId !== ctx.channelId || claimed.saleId !== input.saleId || claimed.quantity !== input.quantity) {
      throw idempotencyKeyReused();
    }
    const view = await loadView(ctx, eq(orders.id, claimed.orderId));
    if (!view) throw idempotencyKeyReused();
    return view;
  }
  order.id = claimed.orderId;
  stockCommitted(ctx.db, { channelId: ctx.channelId, saleId: sale.id });
  // A new order has minted nothing yet.
  return toView(order, commodity, []);
}

/**
 * The answer to a buy refused by `claim_copies` because the sale changed under this process's cached terms: the
 * cached terms are dropped (here and, through the notice, in the processes that still hold them), and the buyer gets
 * what the sale's terms as they are now say: paused, ended, cancelled, over the new limit, or else that the sale has
 * just changed (a new price: they look again before paying a different amount). Nothing of the buy was kept.
 */
async function changedTermsRefusal(ctx: UserScope, input: CreateOrderInput, saleId: number): Promise<AppError> {
  invalidate(ctx.db, [tags.saleTerms(saleId)]);
  const fresh = await readBuyTerms(ctx.db, ctx.channelId, saleId);
  return (
    termsRefusal(fresh, input, ctx.now, await earlyOpeningOf(ctx, fresh)) ??
    new AppError(409, msg('saleTermsChanged'), { reason: REASON.changed })
  );
}

/** Whether this buyer's key has made an order of this buy (a key used for another one answers keyReused in the retry). */
const keyMadeAnOrder = async (ctx: UserScope, input: CreateOrderInput) => (await findByKey(ctx, input).catch(() => null)) !== null;

type Claimed = { orderId: number; made: boolean; channelId: number; saleId: number; quantity: number };

/**
 * `claim_copies` found the sale no longer on the terms this process read from its cache (drizzle/0027): another
 * process's operator changed the price or limit, moved the window, paused, cancelled or archived it a moment ago.
 */
class TermsChanged extends Error {}

/**
 * One call of `claim_copies`, its refusals (SQLSTATE SFLIM, SFOUT) answered as the API's. `earlyOpening`: an eligible
 * buyer's opening under priority purchase (drizzle/0037_priority.sql checks it against the decision), null otherwise.
 */
async function claimCopies(db: Db, order: OrderRow, limitPerUser: number, earlyOpening: Date | null): Promise<Claimed> {
  try {
    const [row] = await preparedOn(db, 'claim_copies', (handle) =>
      handle
        .select({
          orderId: sql<number>`order_id`.mapWith(Number),
          made: sql<boolean>`made`,
          channelId: sql<number>`order_channel_id`.mapWith(Number),
          saleId: sql<number>`order_sale_id`.mapWith(Number),
          quantity: sql<number>`order_quantity`.mapWith(Number),
        })
        .from(
          sql`claim_copies(${sql.placeholder('saleId')}::integer, ${sql.placeholder('userId')}::integer,
            ${sql.placeholder('channelId')}::integer, ${sql.placeholder('quantity')}::integer,
            ${sql.placeholder('limitPerUser')}::integer, ${sql.placeholder('orderNo')}::text,
            ${sql.placeholder('price')}::integer, ${sql.placeholder('key')}::text,
            ${sql.placeholder('createdAt')}::timestamptz, ${sql.placeholder('expiresAt')}::timestamptz,
            ${sql.placeholder('opensAt')}::timestamptz)`,
        )
        .prepare('claim_copies'),
    ).execute({
      saleId: order.saleId,
      userId: order.userId,
      channelId: order.channelId,
      quantity: order.quantity,
      limitPerUser,
      orderNo: order.orderNo,
      price: order.price,
      key: order.idempotencyKey,
      // A placeholder's value reaches the driver as given, without the column's encoding: the time as ISO text.
      createdAt: order.createdAt.toISOString(),
      expiresAt: order.expiresAt.toISOString(),
      opensAt: earlyOpening?.toISOString() ?? null,
    });
    return row!;
  } catch (error) {
    if (databaseError(error, 'SFLIM')) {
      throw new AppError(409, msg('saleLimitHeld', { limit: limitPerUser }), {
        reason: REASON.limit,
      });
    }
    const short = databaseError(error, 'SFOUT');
    if (short) throw shortOfStock(Number(short.detail ?? 0) || 0);
    if (databaseError(error, 'SFCHG')) throw new TermsChanged();
    throw error;
  }
}

/**
 * issue 36 (docs/sharing.md): records the buying device's keyed hash on a new order (a retried tap keeps the first), so a
 * buy is credited to the sharer whose link the device followed even when the tracker never reported the pay page.
 */
export async function recordOrderDevice(db: Db, orderNo: string, key: string): Promise<void> {
  await db
    .update(orders)
    .set({ deviceKey: key })
    .where(and(eq(orders.orderNo, orderNo), sql`${orders.deviceKey} is null`));
}

/**
 * The buyer's order made with this key for this buy, or null; a 409 when the key already served another buy (an order
 * on another channel, of another sale or of another quantity: the key is unique per user, so it cannot make a second
 * order anywhere). One index lookup when the key is new.
 */
/**
 * The order this tap (its idempotency key) already made, or null; 409 keyReused when the key made another. Exported for
 * the captcha at the buy tap (issue 33): a tap retried after its order was made is answered with it, not asked again.
 */
export async function findByKey(ctx: UserScope, input: CreateOrderInput): Promise<OrderView | null> {
  const [made] = await preparedOn(ctx.db, 'order_by_key', (db) =>
    db
      .select({ id: orders.id, channelId: orders.channelId, saleId: orders.saleId, quantity: orders.quantity })
      .from(orders)
      .where(and(eq(orders.userId, sql.placeholder('userId')), eq(orders.idempotencyKey, sql.placeholder('key'))))
      .limit(1)
      .prepare('order_by_key'),
  ).execute({ userId: ctx.userId, key: input.idempotencyKey });
  if (!made) return null;
  if (made.channelId !== ctx.channelId || made.saleId !== input.saleId || made.quantity !== input.quantity) throw idempotencyKeyReused();
  return loadView(ctx, eq(orders.id, made.id));
}

/** One order of this buyer on this channel, matched by `where`, with its commodity and minted editions. */
async function loadView(ctx: UserScope, where: ReturnType<typeof eq>): Promise<OrderView | null> {
  const [row] = await ctx.db
    .select({ order: orders, commodity: commodities })
    .from(orders)
    .innerJoin(sales, eq(sales.id, orders.saleId))
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(and(where, eq(orders.userId, ctx.userId), eq(orders.channelId, ctx.channelId)))
    .limit(1);
  if (!row) return null;
  const minted = await ctx.db
    .select({ id: holdings.id, number: holdings.number })
    .from(holdings)
    .where(eq(holdings.orderId, row.order.id))
    .orderBy(holdings.number);
  const refunds = await refundsByOrder(ctx.db, [row.order.id]);
  return toView(
    row.order,
    row.commodity,
    minted.map((h) => ({ holdingId: String(h.id), number: h.number, amountNumber: row.commodity.amountSku })),
    refunds.get(row.order.id),
  );
}

/** One of the buyer's orders; an overdue unpaid one is expired first, so what the buyer sees is true. 404 otherwise. */
export async function getOrder(ctx: UserScope, orderNo: string): Promise<OrderView> {
  const view = await loadView(ctx, eq(orders.orderNo, orderNo));
  if (!view) throw new AppError(404, msg('orderNotFound'));
  if (view.statusTrade === ORDER_STATUS.toPay && new Date(view.expireTime) <= ctx.now) {
    await expireOverdueOrders(ctx.db, ctx.now, { userId: ctx.userId, limit: 20 });
    return (await loadView(ctx, eq(orders.orderNo, orderNo)))!;
  }
  return view;
}

/** The buyer's orders on this channel, newest first, paged; optionally one status. */
export async function listOrders(
  ctx: UserScope,
  input: { pageCount: number; pageSize: number; statusTrade?: OrderStatus },
): Promise<Page<OrderView>> {
  await expireOverdueOrders(ctx.db, ctx.now, { userId: ctx.userId, limit: 50 });
  const where = and(
    eq(orders.userId, ctx.userId),
    eq(orders.channelId, ctx.channelId),
    input.statusTrade === undefined ? undefined : eq(orders.statusTrade, input.statusTrade),
  );
  const [totalRow] = await ctx.db.select({ value: count() }).from(orders).where(where);
  const total = totalRow?.value ?? 0;
  const rows = await ctx.db
    .select({ order: orders, commodity: commodities })
    .from(orders)
    .innerJoin(sales, eq(sales.id, orders.saleId))
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(input.pageSize)
    .offset((input.pageCount - 1) * input.pageSize);
  const ids = rows.map((r) => r.order.id);
  const minted = ids.length
    ? await ctx.db
        .select({ id: holdings.id, orderId: holdings.orderId, number: holdings.number })
        .from(holdings)
        .where(sql`${holdings.orderId} in ${ids}`)
        .orderBy(holdings.number)
    : [];
  const refunds = await refundsByOrder(ctx.db, ids);
  return toPage(
    rows.map((r) =>
      toView(
        r.order,
        r.commodity,
        minted
          .filter((h) => h.orderId === r.order.id)
          .map((h) => ({ holdingId: String(h.id), number: h.number, amountNumber: r.commodity.amountSku })),
        refunds.get(r.order.id),
      ),
    ),
    total,
    input,
  );
}

/** The buyer cancels an unpaid order: its stock returns to the sale. 409 once it is paid or already cancelled. */
export async function cancelOrder(ctx: UserScope, orderNo: string): Promise<OrderView> {
  const view = await getOrder(ctx, orderNo);
  if (view.statusTrade !== ORDER_STATUS.toPay) {
    const state = view.statusTrade === ORDER_STATUS.paid ? REASON.paid : REASON.cancelled;
    // The words tell an expired order from a cancelled one (issue 30); the reason a client branches on stays.
    throw new AppError(409, msg('orderNotCancellable', { state: orderState(view) }), { reason: state });
  }
  const [row] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, orderNo)).limit(1);
  await releaseCommitted(ctx.db, row!.id, 'buyer', ctx.now);
  return getOrder(ctx, orderNo);
}
