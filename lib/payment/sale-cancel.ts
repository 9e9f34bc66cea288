import 'server-only';
import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { holdings, orderRefunds, orders, sales } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { invalidate, stockTags, tags } from '../cache/store';
import { releaseCommitted } from '../order/service';
import { ORDER_STATUS } from '../order/status';
import { refundOrder, refundPreview, type RefundAudit } from './refund';
import type { Providers } from './service';

/**
 * Cancelling a sale on drop day (issue 32, "Drop-day controls"): the sale stops taking orders at once
 * (`sales.cancelled_at`, read by the buy's terms), shows as cancelled on the store, its unpaid orders are cancelled
 * and every paid order is refunded whole, in the background, one order at a time, by the jobs
 * (lib/jobs/sale-cancel.ts `refundCancelledSales`). Nothing of that work is held in memory: what is left is read from
 * the database each pass (paid orders of the sale still holding copies that are not in the failures), and each order's
 * refund has one idempotency key, so a crash midway resumes where it stopped and never refunds twice.
 */

/** The idempotency key of a cancelled sale's refund of one order: one per order, whatever the pass. */
export const SALE_CANCEL_KEY = 'sale-cancel';

/** The reason recorded on those refunds (the buyer's provider shows it with the money). */
export const SALE_CANCEL_REASON = 'Sale cancelled / 发售已取消';

/** Marks the sale cancelled (owners and managers, through lib/operator/refund-procedures.ts). 404 another channel's. */
export async function cancelSale(
  db: Db,
  input: { channelId: number; saleId: number; now: Date },
  audit?: RefundAudit,
): Promise<{ cancelledAt: Date }> {
  const cancelledAt = await db.transaction(async (tx) => {
    const [sale] = await tx
      .select()
      .from(sales)
      .where(and(eq(sales.id, input.saleId), eq(sales.channelId, input.channelId)))
      .for('update');
    if (!sale) throw new AppError(404, msg('saleNotFound'));
    if (sale.cancelledAt) throw new AppError(409, msg('saleAlreadyCancelled'));
    await tx.update(sales).set({ cancelledAt: input.now, cancelFailures: {} }).where(eq(sales.id, sale.id));
    await audit?.(tx, {
      channelId: sale.channelId,
      before: { saleId: sale.id, code: sale.code, cancelledAt: null },
      after: { saleId: sale.id, code: sale.code, cancelledAt: input.now.toISOString() },
    });
    return input.now;
  });
  // The buy's cached terms and the store's sale pages change at once, in every process (docs/caching.md).
  invalidate(db, [tags.saleTerms(input.saleId), ...stockTags({ channelId: input.channelId, saleId: input.saleId })]);
  return { cancelledAt };
}

/** A cancellation's progress as the console shows it: paid orders refunded out of all, and the failures named. */
export type CancelProgress = {
  /** The sale's code, to name it. */
  code: string;
  cancelled: boolean;
  cancelledAt: Date | null;
  /** Paid orders of the sale, and those whose copies are all taken back (refunded). */
  paidOrders: number;
  refunded: number;
  /** Refunds made whose money the provider has not confirmed yet (the reconciliation retries them). */
  owed: number;
  /** Unpaid orders still open (cancelled by the next pass). */
  unpaidLeft: number;
  failures: { orderNo: string; why: string }[];
  finished: boolean;
};

export async function cancelProgress(db: Db, channelId: number, saleId: number): Promise<CancelProgress> {
  const [sale] = await db
    .select()
    .from(sales)
    .where(and(eq(sales.id, saleId), eq(sales.channelId, channelId)))
    .limit(1);
  if (!sale) throw new AppError(404, msg('saleNotFound'));
  const paid = and(eq(orders.saleId, saleId), eq(orders.statusTrade, ORDER_STATUS.paid));
  const [all] = await db.select({ n: count() }).from(orders).where(paid);
  const [holding] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(paid, sql`exists (select 1 from ${holdings} where ${holdings.orderId} = ${orders.id} and ${holdings.refundedAt} is null)`));
  const [owed] = await db
    .select({ n: count() })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(and(eq(orders.saleId, saleId), eq(orderRefunds.status, 'owed')));
  const [unpaid] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.saleId, saleId), eq(orders.statusTrade, ORDER_STATUS.toPay)));
  const failures = Object.entries(sale.cancelFailures ?? {}).map(([orderNo, why]) => ({ orderNo, why }));
  const refunded = (all?.n ?? 0) - (holding?.n ?? 0);
  const cancelled = sale.cancelledAt !== null;
  return {
    code: sale.code,
    cancelled,
    cancelledAt: sale.cancelledAt,
    paidOrders: all?.n ?? 0,
    refunded,
    owed: owed?.n ?? 0,
    unpaidLeft: unpaid?.n ?? 0,
    failures,
    finished: cancelled && (unpaid?.n ?? 0) === 0 && refunded + failures.length >= (all?.n ?? 0) && (owed?.n ?? 0) === 0,
  };
}

/** What one pass of the cancellations did. */
export type CancelPassReport = { unpaidCancelled: number; refunded: number; failed: number };

/**
 * One pass over cancelled sales: cancels their unpaid orders (the copies go back, though the sale sells no more), then
 * refunds at most `limit` paid orders whole, one at a time, each under its order's one key. An order with a copy that
 * cannot be taken back (spent in an exchange, no longer held) has its other copies refunded and is named in the
 * sale's failures, with why, for an operator to settle by hand; it is not tried again.
 */
export async function refundCancelledSales(
  db: Db,
  providers: Providers,
  now: Date,
  options: { limit?: number } = {},
): Promise<CancelPassReport> {
  const limit = options.limit ?? 10;
  const report: CancelPassReport = { unpaidCancelled: 0, refunded: 0, failed: 0 };
  const unpaid = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(sales, eq(sales.id, orders.saleId))
    .where(and(isNotNull(sales.cancelledAt), eq(orders.statusTrade, ORDER_STATUS.toPay)))
    .limit(200);
  for (const { id } of unpaid) {
    if (await releaseCommitted(db, id, 'saleCancelled', now)) report.unpaidCancelled++;
  }
  const due = await db
    .select({ orderNo: orders.orderNo, channelId: orders.channelId, saleId: orders.saleId })
    .from(orders)
    .innerJoin(sales, eq(sales.id, orders.saleId))
    .where(
      and(
        isNotNull(sales.cancelledAt),
        eq(orders.statusTrade, ORDER_STATUS.paid),
        sql`(${sales.cancelFailures} ->> ${orders.orderNo}) is null`,
        sql`exists (select 1 from ${holdings} where ${holdings.orderId} = ${orders.id} and ${holdings.refundedAt} is null)`,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(limit);
  for (const order of due) {
    try {
      const preview = await refundPreview(db, order.channelId, order.orderNo);
      const refundable = preview.copies.filter((c) => c.refundable).map((c) => c.holdingId);
      if (refundable.length > 0) {
        await refundOrder(
          db,
          {
            channelId: order.channelId,
            orderNo: order.orderNo,
            holdingIds: refundable,
            reason: SALE_CANCEL_REASON,
            idempotencyKey: `${SALE_CANCEL_KEY}:${order.saleId}`,
            operatorId: null,
            now,
          },
          { providers },
        );
        report.refunded++;
      }
      const kept = preview.copies.filter((c) => !c.refundable && c.why !== 'refunded');
      if (kept.length > 0) {
        await noteFailure(db, order.saleId, order.orderNo, kept.map((c) => `#${c.number}: ${c.why}`).join(', '));
        report.failed++;
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : 'unexpected error';
      console.error(`[alert] sale ${order.saleId} cancelled: order ${order.orderNo} could not be refunded: ${why}`, error);
      await noteFailure(db, order.saleId, order.orderNo, why);
      report.failed++;
    }
  }
  return report;
}

async function noteFailure(db: Db, saleId: number, orderNo: string, why: string): Promise<void> {
  await db
    .update(sales)
    .set({ cancelFailures: sql`coalesce(${sales.cancelFailures}, '{}'::jsonb) || jsonb_build_object(${orderNo}::text, ${why}::text)` })
    .where(eq(sales.id, saleId));
}
