import 'server-only';
import type { Db } from '../db/client';
import { expireOverdueOrders } from '../order/service';
import { chainUpPending } from '../chain/ledger-job';
import type { Providers } from '../payment/service';
import { configuredProviders } from '../payment/providers';
import { reconcilePayments, type ReconcileReport } from '../payment/reconcile';
import { RETENTION_INTERVAL_MS, sweepExpiredRecords } from './retention';
import { domainSettings, recheckDomains } from '../channel/domains';
import { dnsDomainChecker } from '../channel/domain-dns';
import { env } from '../env';
import { runSaleCancellations } from './sale-cancel';
import type { CancelPassReport } from '../payment/sale-cancel';
import { aggregateRecentDays } from '../report/daily';
import { retryAlertDeliveries } from '../monitor/alerts';
import { outboxSender, sendDueTexts, type OutboxSender } from '../auth/sms-outbox';
import { openLotteryRounds } from '../sale/lottery';
import { decideDuePriorities } from '../sale/priority';
import { expireDueTransfers } from '../transfer/service';

/** How often the reports job counts today and yesterday (issue 32: "every minute"). */
export const REPORT_INTERVAL_MS = 60_000;

/** How often failed alert posts due again are looked for (lib/monitor/alerts.ts; their delays are minutes). */
export const ALERT_RETRY_INTERVAL_MS = 10_000;

/** How often the background jobs run. */
export const JOB_INTERVAL_MS = 2_000;

export type JobsReport = {
  expired: number;
  reconciled: ReconcileReport;
  chained: number;
  cancellations: CancelPassReport;
  texts: Awaited<ReturnType<typeof sendDueTexts>>;
  /** Lottery purchase rounds opened for the waitlist (issue 35). */
  lotteryRounds: number;
  /** Priority purchases decided: their eligible buyers written (issue 35). */
  priorities: number;
  /** Gifts between buyers unanswered for 72 hours, returned to their senders (issue 36). */
  giftsReturned: number;
};

/**
 * One pass of the background jobs: expire overdue unpaid orders (stock goes back), reconcile payments whose
 * notification never came (lib/payment/reconcile.ts), put pending holdings on chain. Reconciliation comes after the
 * expiry sweep, so a capture found for an order past its time takes the paid-too-late path (closed and refunded), and
 * before chain-up, so what it mints goes on chain in the same pass. `providers` defaults to every configured one. The
 * reconciliation's schedule is in the database (lib/payment/schedule.ts), so passes need nothing carried between them.
 */
export async function runJobsOnce(
  db: Db,
  now = new Date(),
  options: { providers?: Providers; texts?: OutboxSender } = {},
): Promise<JobsReport> {
  const expired = await expireOverdueOrders(db, now);
  // A lottery's next purchase round (issue 35), after the expiry sweep: the copies it gave back go down the waitlist.
  const lotteryRounds = await openLotteryRounds(db, now);
  // Priority purchases whose decision time came (issue 35): their eligible buyers are written, their settings freeze.
  const priorities = await decideDuePriorities(db, now);
  const providers = options.providers ?? configuredProviders(db);
  const reconciled = await reconcilePayments(db, providers, now);
  // Cancelled sales' refunds (issue 32): after the reconciliation, so a payment it just settled is refunded too.
  const cancellations = await runSaleCancellations(db, providers, now);
  const chained = await chainUpPending(db, now);
  // Gifts between buyers unanswered past their 72 hours go back to their senders (issue 36, lib/transfer).
  const giftsReturned = await expireDueTransfers(db, now);
  // The SMS outbox (issue 32): texts not sent after their commit (a carrier down, a crash) and the cancelled sales'
  // refund texts just queued; after the refunds, so those go out in this same pass.
  const texts = await sendDueTexts(db, options.texts ?? outboxSender(), now);
  return { expired, reconciled, chained, cancellations, texts, lotteryRounds, priorities, giftsReturned };
}

/**
 * Runs the jobs every JOB_INTERVAL_MS until stopped; one pass at a time, errors logged and retried on the next pass.
 * The server starts it (instrumentation.ts) when JOBS=inline; `npm run worker` runs it on its own.
 */
export function startJobs(db: Db, log: (message: string) => void = () => {}): () => void {
  let running = false;
  let stopped = false;
  let sweptAt = 0;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      // What is past its keeping time goes at most once an hour (lib/jobs/retention.ts, docs/security.md).
      if (Date.now() - sweptAt >= RETENTION_INTERVAL_MS) {
        sweptAt = Date.now();
        const swept = await sweepExpiredRecords(db, new Date());
        const total = Object.values(swept).reduce((a, b) => a + b, 0);
        if (total) log(`[jobs] deleted ${total} record(s) past their keeping time: ${JSON.stringify(swept)}`);
      }
      const { expired, reconciled, chained, cancellations, texts, lotteryRounds } = await runJobsOnce(db, new Date());
      if (lotteryRounds) log(`[jobs] opened ${lotteryRounds} lottery purchase round(s) for the waitlist`);
      if (texts.sent || texts.failed || texts.retry) {
        log(`[jobs] SMS outbox: ${texts.sent} text(s) sent, ${texts.retry} to retry, ${texts.failed} given up`);
      }
      if (cancellations.unpaidCancelled || cancellations.refunded || cancellations.failed) {
        log(
          `[jobs] cancelled sales: ${cancellations.unpaidCancelled} unpaid order(s) cancelled, ${cancellations.refunded} refunded, ${cancellations.failed} failed`,
        );
      }
      const settled = reconciled.paid + reconciled.refunded + reconciled.failed + reconciled.abandoned + reconciled.refundsRetried;
      if (expired || chained) log(`[jobs] expired ${expired} order(s), put ${chained} holding(s) on chain`);
      if (settled) {
        log(
          `[jobs] reconciled ${settled} payment(s): ${reconciled.paid} paid, ${reconciled.refunded} refunded (paid too late), ${reconciled.failed} failed, ${reconciled.abandoned} abandoned, ${reconciled.refundsRetried} refund(s) retried`,
        );
      }
    } catch (error) {
      console.error('[jobs] pass failed; retrying on the next one', error);
    } finally {
      running = false;
    }
  };
  // The custom domains' DNS re-check (issue 31; lib/channel/domains.ts), every DOMAIN_RECHECK_MINUTES, beside the
  // passes rather than in them: a slow DNS server (2 tries of 2 s per question) must not hold up order expiry.
  let checkingDomains = false;
  let domainsCheckedAt = 0;
  const recheck = async () => {
    const e = env();
    if (checkingDomains || stopped || Date.now() - domainsCheckedAt < e.DOMAIN_RECHECK_MINUTES * 60_000) return;
    checkingDomains = true;
    domainsCheckedAt = Date.now();
    try {
      const report = await recheckDomains(db, domainSettings(e), dnsDomainChecker(e.DNS_RESOLVER), new Date(), (line) =>
        // An operator must act on an alert: it reaches the server's log whatever `log` is.
        line.startsWith('[alert]') ? console.error(line) : log(line),
      );
      if (report.checked || report.lookupFailed) log(`[jobs] checked ${report.checked} domain(s): ${JSON.stringify(report)}`);
    } catch (error) {
      console.error('[jobs] domain re-check failed; retrying at the next one', error);
    } finally {
      checkingDomains = false;
    }
  };
  // The reports' daily figures (issue 32; lib/report/daily.ts): today and yesterday of every channel, every
  // REPORT_INTERVAL_MS, beside the passes: counting a busy day's tracking must not hold up order expiry.
  let counting = false;
  let countedAt = 0;
  const count = async () => {
    if (counting || stopped || Date.now() - countedAt < REPORT_INTERVAL_MS) return;
    counting = true;
    countedAt = Date.now();
    try {
      await aggregateRecentDays(db, new Date());
    } catch (error) {
      console.error('[jobs] the reports could not be counted; retrying at the next minute', error);
    } finally {
      counting = false;
    }
  };
  // Failed alert posts (issue 32, "Reports"): tried again after 1, 5 and 30 minutes, then given up. Beside the passes:
  // a receiver that does not answer holds a try for its time limit (5 s), which must not hold up order expiry.
  let retrying = false;
  let retriedAt = 0;
  const retryAlerts = async () => {
    if (retrying || stopped || Date.now() - retriedAt < ALERT_RETRY_INTERVAL_MS) return;
    retrying = true;
    retriedAt = Date.now();
    try {
      const report = await retryAlertDeliveries(db, new Date());
      if (report.tried) log(`[jobs] retried ${report.tried} alert post(s): ${report.delivered} taken, ${report.givenUp} given up`);
    } catch (error) {
      console.error('[jobs] the alert posts could not be retried; trying again shortly', error);
    } finally {
      retrying = false;
    }
  };
  const timer = setInterval(() => {
    void tick();
    void recheck();
    void count();
    void retryAlerts();
  }, JOB_INTERVAL_MS);
  timer.unref?.();
  void tick();
  void recheck();
  void count();
  void retryAlerts();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
