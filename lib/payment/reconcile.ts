import 'server-only';
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, payments } from '../db/schema';
import { applyNotification, finishRefund, PAYMENT_STATUS, providerList, providerOf, type Providers } from './service';

/**
 * Payment reconciliation (DESIGN §7: every payment processed exactly once; docs/orders.md "Reconciliation"). A
 * notification can be lost: the process that was to apply it is killed, the provider gives up retrying, the network
 * cuts. The pay-result page asks the provider (`queryPayment`), but only while the buyer is looking at it and only
 * for an order still to pay. This job, run with the others (lib/jobs/runner.ts), asks the provider about every
 * payment still `created` and applies the answer through the same exactly-once path as a notification, whatever its
 * order has become since.
 */

/**
 * How old a payment must be before the job asks about it. A paid payment is normally settled by its notification
 * within seconds, and the pay-result page asks the provider on its own; asking about younger payments would only
 * double that traffic to the provider. A minute keeps a lost notification from costing the buyer much of the
 * order's time to pay (ORDER_PAY_TIMEOUT_SECONDS, 300 s by default).
 */
export const RECONCILE_GRACE_MS = 60_000;

/**
 * How long after its order's expiry a payment the provider still knows nothing of is given up: then it is closed as
 * failed and no longer asked about. Until the order expires the buyer may still be at the provider's cashier; the
 * margin covers a payment completed right at the deadline and reported slowly, and clocks that differ. Should the
 * provider report it paid after all, its notification still moves it from failed to paid, and the order being gone,
 * it is refunded (applyNotification).
 */
export const RECONCILE_ABANDON_MARGIN_MS = 10 * 60_000;

/**
 * Payments asked about per pass (one provider call each). Bounds the time a pass takes and the rate of calls to the
 * provider (at most 50 every JOB_INTERVAL_MS); a longer backlog is walked through over the following passes.
 */
export const RECONCILE_BATCH = 50;

/**
 * Where the next pass goes on from: the id of the last payment asked about. Payments that stay open (the provider
 * knows nothing yet) would otherwise fill every batch and keep the newer ones waiting until the oldest reach the
 * horizon; instead each pass takes the next batch, oldest first, and starts over from the oldest once it reaches
 * the newest. Kept in memory by the job runner; a fresh one starts from the oldest.
 */
export type ReconcileCursor = {
  afterId: number;
  /**
   * Payments and refunds whose last ask failed (the provider down or refusing), with when to ask again: a provider
   * that is down is not asked about the same payment on every pass (every few seconds) for as long as it is down.
   */
  backoff?: Map<string, { failures: number; until: number }>;
};

/** The wait after a payment's or a refund's first failed ask; it doubles with each further failure, up to the max. */
export const RECONCILE_BACKOFF_MS = 10_000;
export const RECONCILE_BACKOFF_MAX_MS = 10 * 60_000;

/** Whether `key` is waiting out a failure at `now`. */
function waiting(cursor: ReconcileCursor, key: string, now: Date): boolean {
  return (cursor.backoff?.get(key)?.until ?? 0) > now.getTime();
}

/** Records how an ask went: a success forgets the key, a failure pushes its next ask back (10 s, 20 s, … 10 min). */
function noteAsk(cursor: ReconcileCursor, key: string, now: Date, failed: boolean): void {
  cursor.backoff ??= new Map();
  if (!failed) {
    cursor.backoff.delete(key);
    return;
  }
  const failures = (cursor.backoff.get(key)?.failures ?? 0) + 1;
  const wait = Math.min(RECONCILE_BACKOFF_MAX_MS, RECONCILE_BACKOFF_MS * 2 ** (failures - 1));
  cursor.backoff.set(key, { failures, until: now.getTime() + wait });
}

/** Forgets failures long past (their payments settled or given up meanwhile), so the map stays as small as the trouble. */
function pruneBackoff(cursor: ReconcileCursor, now: Date): void {
  for (const [key, entry] of cursor.backoff ?? []) {
    if (entry.until + RECONCILE_BACKOFF_MAX_MS < now.getTime()) cursor.backoff!.delete(key);
  }
}

/** What one pass did: payments asked about, and how those that moved moved. */
export type ReconcileReport = {
  asked: number;
  paid: number;
  refunded: number;
  failed: number;
  abandoned: number;
  /** Refunds owed but not confirmed (a crash or a provider error after the order closed), given back this pass. */
  refundsRetried: number;
  errors: number;
};

/**
 * One pass: asks the provider about the next batch of payments left `created` for longer than RECONCILE_GRACE_MS,
 * oldest first, and applies each answer:
 * - captured → applyNotification: paid and minted while the order is still payable, else closed and refunded
 *   (expired, cancelled, or already paid by another payment);
 * - failed → the payment is failed; the order stays payable until it expires;
 * - nothing known → left open, until RECONCILE_ABANDON_MARGIN_MS after the order's expiry: then closed as failed.
 * One payment's error (the provider down, a refused answer) is logged and the others go on; it is asked about again
 * on a later pass while it stays open, after a wait that doubles with each failure (RECONCILE_BACKOFF_MS, up to
 * RECONCILE_BACKOFF_MAX_MS; kept in the cursor).
 *
 * Safe to run in several processes at once: nothing is claimed or locked up front; two passes may both ask the
 * provider about a payment (a read), and then each application is the conditional UPDATE of applyNotification (or of
 * `abandon`), which only one transaction gets past, so a payment is applied, minted and refunded once.
 */
export async function reconcilePayments(
  db: Db,
  providers: Providers,
  now: Date,
  options: { cursor?: ReconcileCursor; limit?: number } = {},
): Promise<ReconcileReport> {
  const cursor = options.cursor ?? { afterId: 0 };
  const limit = options.limit ?? RECONCILE_BATCH;
  const names = providerList(providers).map((p) => p.name);
  // No index on payments.status yet, so this walks the table by id; a partial index on open payments would serve it.
  const due = await db
    .select({ id: payments.id, paymentNo: payments.paymentNo, provider: payments.provider, expiresAt: orders.expiresAt })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(payments.status, PAYMENT_STATUS.created),
        // Each payment is asked about at its own provider; one the deployment no longer runs waits for it to be back.
        inArray(payments.provider, names),
        lte(payments.createdAt, new Date(now.getTime() - RECONCILE_GRACE_MS)),
        gt(payments.id, cursor.afterId),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(limit);
  // A short batch reached the newest open payment: the next pass starts again from the oldest.
  cursor.afterId = due.length < limit ? 0 : due[due.length - 1]!.id;

  const report: ReconcileReport = { asked: 0, paid: 0, refunded: 0, failed: 0, abandoned: 0, refundsRetried: 0, errors: 0 };
  pruneBackoff(cursor, now);
  for (const payment of due) {
    const key = `payment:${payment.paymentNo}`;
    if (waiting(cursor, key, now)) continue;
    report.asked++;
    try {
      const provider = providerOf(providers, payment.provider)!;
      const answer = await provider.query(payment.paymentNo);
      if (answer) {
        if (answer.paymentNo !== payment.paymentNo) throw new Error(`the provider answered about ${answer.paymentNo} instead`);
        // Amount and provider checks included: an answer is held to what a notification is.
        const outcome = await applyNotification(db, provider, answer, now);
        if (outcome !== 'duplicate') report[outcome]++;
      } else if (now.getTime() >= payment.expiresAt.getTime() + RECONCILE_ABANDON_MARGIN_MS) {
        if (await abandon(db, payment.id, now)) report.abandoned++;
      }
      noteAsk(cursor, key, now, false);
    } catch (error) {
      report.errors++;
      noteAsk(cursor, key, now, true);
      console.error(`[jobs] reconcile: payment ${payment.paymentNo} could not be settled this pass`, error);
    }
  }
  await retryRefunds(db, providers, names, now, limit, report, cursor);
  return report;
}

/** Refunds left `refunding` past the grace period (the process died, or the provider failed, after the order closed). */
async function retryRefunds(
  db: Db,
  providers: Providers,
  names: string[],
  now: Date,
  limit: number,
  report: ReconcileReport,
  cursor: ReconcileCursor,
): Promise<void> {
  const owed = await db
    .select({ paymentNo: payments.paymentNo, amount: payments.amount, provider: payments.provider })
    .from(payments)
    .where(
      and(
        eq(payments.status, PAYMENT_STATUS.refunding),
        inArray(payments.provider, names),
        lte(payments.settledAt, new Date(now.getTime() - RECONCILE_GRACE_MS)),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(limit);
  for (const payment of owed) {
    const key = `refund:${payment.paymentNo}`;
    if (waiting(cursor, key, now)) continue;
    try {
      await finishRefund(db, providerOf(providers, payment.provider)!, payment.paymentNo, payment.amount);
      report.refundsRetried++;
      noteAsk(cursor, key, now, false);
    } catch (error) {
      report.errors++;
      noteAsk(cursor, key, now, true);
      console.error(`[jobs] reconcile: the refund of payment ${payment.paymentNo} failed; retrying on a later pass`, error);
    }
  }
}

/**
 * Closes a payment the provider never reported, as failed. Conditional like every payment move: a notification
 * that settled it meanwhile wins, and one that comes later still finds it (a SUCCESS moves a failed payment).
 */
async function abandon(db: Db, paymentId: number, now: Date): Promise<boolean> {
  const [moved] = await db
    .update(payments)
    .set({ status: PAYMENT_STATUS.failed, settledAt: now })
    .where(and(eq(payments.id, paymentId), eq(payments.status, PAYMENT_STATUS.created)))
    .returning({ id: payments.id });
  return Boolean(moved);
}
