import 'server-only';
import { and, asc, eq, exists, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { orders, payments } from '../db/schema';
import { applyNotification, finishRefund, PAYMENT_STATUS, providerList, providerOf, type Providers } from './service';
import { horizonOf, nextAskAt, RECONCILE_ABANDON_MARGIN_MS } from './schedule';
import { retryOwedRefunds } from './refund';

export {
  RECONCILE_ABANDON_MARGIN_MS,
  RECONCILE_GRACE_MS,
  RECONCILE_WAIT_MAX_MS,
  RECONCILE_WAIT_MS,
  RECONCILE_WAIT_PAYABLE_MAX_MS,
} from './schedule';

/**
 * Payment reconciliation (DESIGN §7: every payment processed exactly once; docs/orders.md "Reconciliation"). A
 * notification can be lost: the process that was to apply it is killed, the provider gives up retrying, the network
 * cuts. The pay-result page asks the provider (`queryPayment`), but only while the buyer is looking at it and only
 * for an order still to pay. This job, run with the others (lib/jobs/runner.ts), asks the provider about payments
 * still `created` and applies the answer through the same exactly-once path as a notification, whatever its order has
 * become since.
 *
 * Its schedule is on each payment (`next_query_at`, `queries`; lib/payment/schedule.ts), shared by every process and
 * kept over a restart (issue 29): the first ask a minute after the payment opened, then waits that double with each
 * ask, a last ask at the horizon. Only the newest open payment of an order is asked about on that schedule: an earlier
 * one (pay/create closes it as a newer one opens; one it could not close stays open) is asked about once, at the
 * horizon. So the provider hears about an order a bounded number of times, however many payments a buyer opens.
 */

/**
 * Payments asked about per pass (one provider call each), and refunds retried. Bounds the time a pass takes and the
 * rate of calls to the provider (at most 50 every JOB_INTERVAL_MS); a longer backlog is taken over the next passes,
 * in the order the payments fell due, so nobody's payment waits behind payments that fell due after it.
 */
export const RECONCILE_BATCH = 50;

/** What one pass did: payments asked about, and how those that moved moved. */
export type ReconcileReport = {
  asked: number;
  paid: number;
  refunded: number;
  failed: number;
  abandoned: number;
  /** Earlier open payments of an order put off to their horizon, unasked (a newer payment of the order is open). */
  deferred: number;
  /** Refunds owed but not confirmed (a crash or a provider error after the order closed), given back this pass. */
  refundsRetried: number;
  errors: number;
};

/**
 * Takes a due payment's ask for this process: moves its schedule on, unless another process asked first (then its
 * count of asks has moved, or it is no longer due).
 */
async function claim(db: Db, payment: { id: number; queries: number; status: number }, next: Date, now: Date): Promise<boolean> {
  const [claimed] = await db
    .update(payments)
    .set({ nextQueryAt: next, queries: sql`${payments.queries} + 1`, queriedAt: now })
    .where(and(eq(payments.id, payment.id), eq(payments.status, payment.status), eq(payments.queries, payment.queries), due(now)))
    .returning({ id: payments.id });
  return Boolean(claimed);
}

/** Due at `now`: its time has come, or it was made before the schedule was kept (asked at once). */
const due = (now: Date) => or(isNull(payments.nextQueryAt), lte(payments.nextQueryAt, now));

/**
 * One pass: asks the providers about the open payments that are due, in the order they fell due, and applies each answer:
 * - captured → applyNotification: paid and minted while the order is still payable, else closed and refunded
 *   (expired, cancelled, or already paid by another payment);
 * - failed → the payment is failed; the order stays payable until it expires;
 * - nothing known → asked again later (lib/payment/schedule.ts), until RECONCILE_ABANDON_MARGIN_MS after the order's
 *   expiry: then closed as failed.
 * A payment that is not its order's newest open one is put off to its horizon without an ask. One payment's error (the
 * provider down, a refused answer) is logged and the others go on; its next ask waits like any other. Then refunds owed
 * are retried, on the same kind of schedule.
 *
 * Safe to run in several processes at once: each ask is claimed by moving the payment's schedule with a conditional
 * UPDATE, so one process asks; applying an answer is the conditional UPDATE of applyNotification (or of `abandon`),
 * so a payment is applied, minted and refunded once.
 */
export async function reconcilePayments(
  db: Db,
  providers: Providers,
  now: Date,
  options: { limit?: number } = {},
): Promise<ReconcileReport> {
  const limit = options.limit ?? RECONCILE_BATCH;
  const names = providerList(providers).map((p) => p.name);
  const report: ReconcileReport = {
    asked: 0,
    paid: 0,
    refunded: 0,
    failed: 0,
    abandoned: 0,
    deferred: 0,
    refundsRetried: 0,
    errors: 0,
  };
  if (names.length === 0) return report;
  // First, in one statement, the due payments that are not their order's newest open one are put off to their horizon
  // without an ask: however many payments one buyer opened, they neither cost calls nor take places in the batch.
  const newer = alias(payments, 'newer');
  const deferred = await db
    .update(payments)
    .set({ nextQueryAt: sql`${orders.expiresAt} + ${sql.raw(`interval '${RECONCILE_ABANDON_MARGIN_MS / 1000} seconds'`)}` })
    .from(orders)
    .where(
      and(
        eq(orders.id, payments.orderId),
        sql`${payments.status} = 0`,
        due(now),
        // Before its horizon (at the horizon every open payment gets its last ask).
        gt(orders.expiresAt, new Date(now.getTime() - RECONCILE_ABANDON_MARGIN_MS)),
        exists(
          db
            .select({ one: sql`1` })
            .from(newer)
            .where(and(eq(newer.orderId, payments.orderId), sql`${newer.status} = 0`, gt(newer.id, payments.id))),
        ),
      ),
    )
    .returning({ id: payments.id });
  report.deferred = deferred.length;

  const open = await db
    .select({
      id: payments.id,
      paymentNo: payments.paymentNo,
      provider: payments.provider,
      status: payments.status,
      nextQueryAt: payments.nextQueryAt,
      queries: payments.queries,
      expiresAt: orders.expiresAt,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        // A literal, so the planner sees the partial index payments_due (status in (0, 4)) applies.
        sql`${payments.status} = 0`,
        // Each payment is asked about at its own provider; one the deployment no longer runs waits for it to be back.
        inArray(payments.provider, names),
        due(now),
      ),
    )
    .orderBy(sql`${payments.nextQueryAt} asc nulls first`, asc(payments.id))
    .limit(limit);

  for (const payment of open) {
    const beforeHorizon = now.getTime() < horizonOf(payment.expiresAt).getTime();
    if (!(await claim(db, payment, nextAskAt(now, payment.queries + 1, payment.expiresAt), now))) continue;
    report.asked++;
    try {
      const provider = providerOf(providers, payment.provider)!;
      const answer = await provider.query(payment.paymentNo);
      if (answer) {
        if (answer.paymentNo !== payment.paymentNo) throw new Error(`the provider answered about ${answer.paymentNo} instead`);
        // Amount and provider checks included: an answer is held to what a notification is.
        const outcome = await applyNotification(db, provider, answer, now);
        if (outcome !== 'duplicate') report[outcome]++;
      } else if (!beforeHorizon) {
        if (await abandon(db, payment.id, now)) report.abandoned++;
      }
    } catch (error) {
      report.errors++;
      console.error(`[jobs] reconcile: payment ${payment.paymentNo} could not be settled this pass`, error);
    }
  }
  await retryRefunds(db, providers, names, now, limit, report);
  // Then the order refunds left owed (issue 32, lib/payment/refund.ts): each under its own refund number.
  const owed = await retryOwedRefunds(db, providers, now, limit);
  report.refundsRetried += owed.done;
  report.errors += owed.failed;
  return report;
}

/** Refunds left `refunding` (the process died, or the provider failed, after the order closed), when due. */
async function retryRefunds(
  db: Db,
  providers: Providers,
  names: string[],
  now: Date,
  limit: number,
  report: ReconcileReport,
): Promise<void> {
  const owed = await db
    .select({
      id: payments.id,
      paymentNo: payments.paymentNo,
      amount: payments.amount,
      provider: payments.provider,
      status: payments.status,
      nextQueryAt: payments.nextQueryAt,
      queries: payments.queries,
    })
    .from(payments)
    .where(and(sql`${payments.status} = 4`, inArray(payments.provider, names), due(now)))
    .orderBy(sql`${payments.nextQueryAt} asc nulls first`, asc(payments.id))
    .limit(limit);
  for (const payment of owed) {
    if (!(await claim(db, payment, nextAskAt(now, payment.queries + 1), now))) continue;
    try {
      await finishRefund(db, providerOf(providers, payment.provider)!, payment.paymentNo, payment.amount);
      report.refundsRetried++;
    } catch (error) {
      report.errors++;
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
    .set({ status: PAYMENT_STATUS.failed, settledAt: now, nextQueryAt: null })
    .where(and(eq(payments.id, paymentId), eq(payments.status, PAYMENT_STATUS.created)))
    .returning({ id: payments.id });
  return Boolean(moved);
}
