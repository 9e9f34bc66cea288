import 'server-only';
import type { Db } from '../db/client';
import type { Providers } from '../payment/service';
import { refundCancelledSales, type CancelPassReport } from '../payment/sale-cancel';

/**
 * The background work of cancelled sales (issue 32, "Drop-day controls"; lib/payment/sale-cancel.ts): each pass of the
 * jobs cancels their unpaid orders and refunds a few paid orders whole, one at a time. Resumable by construction: what
 * is left is read from the database each pass, and each order's refund has one idempotency key.
 */
export const SALE_CANCEL_ORDERS_PER_PASS = 10;

export function runSaleCancellations(db: Db, providers: Providers, now: Date): Promise<CancelPassReport> {
  return refundCancelledSales(db, providers, now, { limit: SALE_CANCEL_ORDERS_PER_PASS });
}
