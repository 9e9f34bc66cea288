import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channels, orders } from '../db/schema';
import { parseRiskPolicy, RISK_BOUNDS, type RiskPolicy } from '../channel/risk-policy';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { ORDER_STATUS } from './status';
import { liveBlockMatchingSql } from '../auth/blocks';

/**
 * Unpaid-order squatting (issue 33, "Risk controls at order time"): a buyer who leaves orders unpaid holds copies and
 * their per-buyer quota until each order runs out, so a bot farm can keep a drop "sold out" without paying. A buyer
 * with `limit` orders on the channel cancelled or expired unpaid within `withinHours` may not order for `blockHours`
 * from the order that reached the limit (defaults 3 / 24 h / 24 h, lib/channel/risk-policy.ts; `limit` 0: off).
 *
 * What counts is an order that left `to pay` unpaid: cancelled by the buyer (`cancelReason` 'buyer') or expired
 * ('expired'). A sale the operator cancelled ('saleCancelled') is not the buyer's doing, a paid order stays paid when
 * refunded (order_refunds keeps the refund), and one paid after it expired is closed ('paidLate'): none counts.
 */

/** The most unpaid orders one check reads (the newest): far beyond any limit the console accepts (20). */
const MAX_READ = 200;

/** The oldest cancel that can still matter: one within the widest window, reaching a pause of the longest length. */
const LOOKBACK_HOURS = RISK_BOUNDS.hours.max * 2;

const HOUR_MS = 3_600_000;

export type OrderingPause = { until: Date; count: number; withinHours: number };

/**
 * When the pause ends, or null: the newest unpaid cancel at which `limit` of them fall within `withinHours` (counting
 * it) starts a pause of `blockHours`; it holds while `now` is before its end. Pure: `cancels` newest first.
 */
export function pauseFrom(policy: RiskPolicy['unpaid'], cancels: Date[], now: Date): OrderingPause | null {
  const { limit, withinHours, blockHours } = policy;
  if (limit <= 0) return null;
  const window = withinHours * HOUR_MS;
  for (let i = 0; i + limit - 1 < cancels.length; i++) {
    const at = cancels[i]!.getTime();
    // cancels[i .. i+limit-1] are the `limit` newest up to this one; they all fall in its window when the oldest does.
    if (at - cancels[i + limit - 1]!.getTime() < window) {
      const until = new Date(at + blockHours * HOUR_MS);
      // The newest trigger ends last: when it has ended, every older one has too.
      return until.getTime() > now.getTime() ? { until, count: limit, withinHours } : null;
    }
  }
  return null;
}

/**
 * The channel's rule and the buyer's unpaid cancels of the lookback, in one query: the channel by its key, the orders
 * by the partial index `orders_user_unpaid` (user, channel, cancel time; drizzle/0032_risk.sql), newest first.
 */
async function readUnpaid(db: Db, input: RiskInput) {
  const since = new Date(input.now.getTime() - LOOKBACK_HOURS * HOUR_MS);
  // The cancel times as epoch milliseconds in JSON: PGlite and postgres.js read JSON alike (arrays of timestamps not).
  const [row] = await db
    .select({
      policy: channels.riskPolicy,
      // The blocklist's check of the buyer (account, identity, phone, address range) in the same statement.
      blocked: liveBlockMatchingSql(input.channelId, { userId: input.userId, ip: input.ip ?? null }),
      cancels: sql<number[] | null>`(
        select json_agg(t.at) from (
          select (extract(epoch from ${orders.cancelTime}) * 1000)::float8 as at from ${orders}
          where ${orders.userId} = ${input.userId} and ${orders.channelId} = ${input.channelId}
            and ${orders.statusTrade} = ${ORDER_STATUS.cancelled} and ${orders.cancelReason} in ('buyer', 'expired')
            and ${orders.cancelTime} > ${since.toISOString()}::timestamptz
          order by ${orders.cancelTime} desc limit ${MAX_READ}
        ) t)`,
    })
    .from(channels)
    .where(eq(channels.id, input.channelId));
  if (!row) return null;
  const cancels = (Array.isArray(row.cancels) ? row.cancels : []).map((ms) => new Date(Number(ms)));
  return { policy: parseRiskPolicy(row.policy).unpaid, cancels, blocked: row.blocked === true };
}

type RiskInput = { channelId: number; userId: number; ip?: string | null; now: Date };

/** The buyer's pause on the channel now, or null (the rule off, or not reached). */
export async function orderingPauseOf(db: Db, input: RiskInput): Promise<OrderingPause | null> {
  const read = await readUnpaid(db, input);
  return read ? pauseFrom(read.policy, read.cancels, input.now) : null;
}

/**
 * Risk at order time (issue 33) in ONE statement before the claim: a blocked buyer (their account, identity or
 * phone, or the address the entry server resolved in a blocked range) is refused with the block's own words (403);
 * a buyer paused for orders left unpaid with 1012 {reason: 'orderingPaused', until}, saying how many and until when
 * in the channel's time zone (the moment's zone named). Null: the buy goes on.
 */
export async function orderRiskRefusal(db: Db, input: RiskInput): Promise<{ blocked: AppError } | { paused: AppError } | null> {
  const read = await readUnpaid(db, input);
  if (!read) return null;
  if (read.blocked) return { blocked: new AppError(403, msg('buyerBlocked')) };
  const pause = pauseFrom(read.policy, read.cancels, input.now);
  if (!pause) return null;
  return {
    paused: new AppError(1012, msg('orderingPaused', { count: pause.count, hours: pause.withinHours, until: pause.until }), {
      reason: 'orderingPaused',
      until: pause.until.toISOString(),
    }),
  };
}
