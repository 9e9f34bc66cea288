/**
 * When the storefront asks a payment provider about a payment (issue 29; docs/orders.md "Reconciliation"). The
 * schedule lives on the payment row (`next_query_at`, `queries`), so every process and a restarted one share it, and
 * the provider is asked a bounded number of times per payment, and so per order, whatever a buyer does. Pure.
 */

/**
 * How old a payment must be before the job first asks about it. A paid payment is normally settled by its
 * notification within seconds, and the pay-result page asks the provider on its own; asking about younger payments
 * would only double that traffic to the provider. A minute keeps a lost notification from costing the buyer much of
 * the order's time to pay (ORDER_PAY_TIMEOUT_SECONDS, 300 s by default).
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
 * The wait after the first ask; it doubles with each further ask, whatever the answer was ("not paid yet" or a
 * failure), up to RECONCILE_WAIT_MAX_MS. Before issue 29 an open payment was asked about on every pass (every 2 s)
 * until the horizon: about 450 calls per payment, which one buyer multiplied by opening payments.
 */
export const RECONCILE_WAIT_MS = 15_000;
/**
 * The longest wait while the order can still be paid: a payment captured with its notification lost is found within
 * a minute, so it pays the order rather than being refunded once the order expired.
 */
export const RECONCILE_WAIT_PAYABLE_MAX_MS = 60_000;
/** The longest wait once the order can no longer be paid (and between retries of a refund owed). */
export const RECONCILE_WAIT_MAX_MS = 10 * 60_000;

/** When the job first asks about a payment opened at `now`. */
export function firstAskAt(now: Date): Date {
  return new Date(now.getTime() + RECONCILE_GRACE_MS);
}

/** The horizon of a payment of an order expiring at `expiresAt`: asked about one last time then, and given up. */
export function horizonOf(expiresAt: Date): Date {
  return new Date(expiresAt.getTime() + RECONCILE_ABANDON_MARGIN_MS);
}

/**
 * When to ask next after the `asked`-th ask made at `now` (1 for the first): 15 s, 30 s, 60 s, … up to 10 minutes, at
 * most a minute while the order can be paid (`expiresAt` after `now`), and never past the horizon, so the last ask
 * before a payment is given up comes at the horizon itself. Past the horizon (a provider that keeps failing) the
 * wait goes on growing. Without `expiresAt` (a refund owed) only the doubling and its maximum apply.
 */
export function nextAskAt(now: Date, asked: number, expiresAt?: Date): Date {
  let wait = Math.min(RECONCILE_WAIT_MAX_MS, RECONCILE_WAIT_MS * 2 ** Math.min(Math.max(asked - 1, 0), 20));
  if (!expiresAt) return new Date(now.getTime() + wait);
  if (expiresAt.getTime() > now.getTime()) wait = Math.min(wait, RECONCILE_WAIT_PAYABLE_MAX_MS);
  const next = now.getTime() + wait;
  const horizon = horizonOf(expiresAt).getTime();
  return new Date(now.getTime() < horizon ? Math.min(next, horizon) : next);
}
