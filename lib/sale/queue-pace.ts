/**
 * The waiting room's pace as a buyer's page sees it (issue 35; docs/drops.md, "Waiting room"): one definition for the
 * server's pushes (lib/sale/queue-watch.ts), the page's reads when no watch is open (components/sale/queue-panel.tsx)
 * and the benchmark's buyers (scripts/bench-queue.ts). Pure: the page imports it.
 */

/** Within this many seconds of their likely turn a buyer hears of their place every second; further back every FAR_MS. */
export const NEAR_SECONDS = 10;
/** The pace further back from the head, and before the shuffle at most. */
export const FAR_MS = 5_000;

/** What the pace depends on in a buyer's standing (`queue/position`'s answer). */
export type PacedStanding = { status?: string; pollSeconds?: number; estimatedWaitSeconds?: number | null };

/**
 * How long until a page without a watch reads its standing again; 0: no more reads (an outcome, or not joined). Before
 * the shuffle nothing a read answers changes (no place yet; the countdown runs on the page's clock), so the next read
 * is at the shuffle (every few seconds while it is further off): a crowd joining in the last seconds before the opening
 * does not ask every second each (issue 35, `bench:drop` in `queue` mode: 10,000 buyers asked 10,000 times a second).
 */
export function pollMs(standing: PacedStanding | undefined): number {
  if (!standing) return 0;
  const every = Math.max(1, standing.pollSeconds ?? 1) * 1000;
  switch (standing.status) {
    case 'admitted':
      return every;
    case 'waiting':
      return Math.min(FAR_MS, Math.max(every, (standing.estimatedWaitSeconds ?? 0) * 1000));
    case 'queued':
      return (standing.estimatedWaitSeconds ?? 0) <= NEAR_SECONDS ? every : Math.max(every, FAR_MS);
    default:
      return 0;
  }
}
