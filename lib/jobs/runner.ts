import 'server-only';
import type { Db } from '../db/client';
import { expireOverdueOrders } from '../order/service';
import { chainUpPending } from '../chain/service';

/** How often the background jobs run. */
export const JOB_INTERVAL_MS = 2_000;

/** One pass of the background jobs: expire overdue unpaid orders (stock goes back), put pending holdings on chain. */
export async function runJobsOnce(db: Db, now = new Date()): Promise<{ expired: number; chained: number }> {
  const expired = await expireOverdueOrders(db, now);
  const chained = await chainUpPending(db, now);
  return { expired, chained };
}

/**
 * Runs the jobs every JOB_INTERVAL_MS until stopped; one pass at a time, errors logged and retried on the next pass.
 * The server starts it (instrumentation.ts) when JOBS=inline; `npm run worker` runs it on its own.
 */
export function startJobs(db: Db, log: (message: string) => void = () => {}): () => void {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      const { expired, chained } = await runJobsOnce(db);
      if (expired || chained) log(`[jobs] expired ${expired} order(s), put ${chained} holding(s) on chain`);
    } catch (error) {
      console.error('[jobs] pass failed; retrying on the next one', error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), JOB_INTERVAL_MS);
  timer.unref?.();
  void tick();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
