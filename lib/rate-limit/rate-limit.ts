import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';

/**
 * Fixed-window counters in the database (security review, finding 10). `hit` counts first and answers after, in one
 * statement, so N concurrent calls against a limit of L let exactly L through on PostgreSQL and on PGlite alike;
 * the counters are shared by every server process of a deployment.
 */
export type Limit = {
  /** What is limited and for whom, e.g. `sms:ip-hour:203.0.113.7`; one window size per bucket name. */
  bucket: string;
  /** Calls allowed per window. */
  max: number;
  windowMs: number;
};

export type Hit = {
  allowed: boolean;
  /** Hits in the window so far, this one included. */
  count: number;
  /** When the window ends (for a "try again in …" answer). */
  resetAt: Date;
  /** Gives this hit back (the call turned out not to count, e.g. a right code). */
  undo: () => Promise<void>;
};

function windowOf(now: Date, windowMs: number): { start: Date; end: Date } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

/** Counts one call (or `cost` calls) against a limit; `allowed` is false once the window holds more than `max`. */
export async function hit(db: Db, limit: Limit, now: Date, cost = 1): Promise<Hit> {
  const { start, end } = windowOf(now, limit.windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ bucket: limit.bucket, windowStart: start, hits: cost, expiresAt: end })
    .onConflictDoUpdate({ target: [rateLimits.bucket, rateLimits.windowStart], set: { hits: sql`${rateLimits.hits} + ${cost}` } })
    .returning({ hits: rateLimits.hits });
  const count = row!.hits;
  return {
    allowed: count <= limit.max,
    count,
    resetAt: end,
    undo: async () => {
      await db
        .update(rateLimits)
        .set({ hits: sql`greatest(${rateLimits.hits} - ${cost}, 0)` })
        .where(and(eq(rateLimits.bucket, limit.bucket), eq(rateLimits.windowStart, start)));
    },
  };
}

/**
 * Hits the limits in order and stops at the first one over, giving back what this call had counted: only admitted
 * calls count, so being refused by one limit (a burst per minute) never eats into another (the hour), and concurrent
 * refusals cannot crowd out calls that a later limit would have let through.
 */
export async function hitAll(
  db: Db,
  limits: Limit[],
  now: Date,
  cost = 1,
): Promise<{ refused: Limit & Hit; hits: Hit[] } | { refused: null; hits: Hit[] }> {
  const hits: Hit[] = [];
  for (const limit of limits) {
    const h = await hit(db, limit, now, cost);
    if (!h.allowed) {
      await h.undo();
      for (const earlier of hits) await earlier.undo();
      return { refused: { ...limit, ...h }, hits: [] };
    }
    hits.push(h);
  }
  return { refused: null, hits };
}
