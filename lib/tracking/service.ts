import 'server-only';
import { trackingEvents } from '../db/schema';
import type { StoredTrackingRecord } from './schema';
import { AppError } from '../procedure/errors';
import { hit, hitAll } from '../rate-limit/rate-limit';
import type { ChannelScope } from '../procedure/scope';
import { msg } from '../procedure/messages';
import { RETENTION } from '../security/retention';

/**
 * What one anonymous sender may write (security review, finding 7; docs/security.md). A buyer's page views come to a
 * few records a minute; these leave room for a busy shared address and stop a flood at the door.
 */
export const TRACKING_LIMITS = {
  /** Records per client IP per hour (many buyers can share one carrier NAT address). */
  perIpPerHour: 3000,
  /** Records per tracking session per hour (one tab of one buyer). */
  perSessionPerHour: 600,
  /** Records stored per channel per day; beyond it batches are accepted and dropped, so browsers stop resending. */
  perChannelPerDay: 200_000,
  /** How long records are kept (lib/jobs/retention.ts). */
  keepDays: RETENTION.trackingDays,
} as const;

/**
 * Counts a batch against its sender's limits (429 when over) and the channel's daily cap; answers how many of the
 * records may be stored (0 once the channel's cap is reached).
 */
export async function admitTrackingBatch(scope: ChannelScope & { ip: string }, records: StoredTrackingRecord[]): Promise<number> {
  const { db, now, channelId, ip } = scope;
  const n = records.length;
  const sessions = [...new Set(records.map((r) => r.session_id))];
  const refuse = (resetAt: Date) => new AppError(429, msg('trackingFlood', { waitMs: resetAt.getTime() - now.getTime() }));
  const byIp = await hit(db, { bucket: `track:ip:${ip}`, max: TRACKING_LIMITS.perIpPerHour, windowMs: 3600_000 }, now, n);
  if (!byIp.allowed) throw refuse(byIp.resetAt);
  // A batch naming many sessions counts in full against each: making up session ids buys nothing.
  const bySession = await hitAll(
    db,
    sessions.map((id) => ({ bucket: `track:session:${channelId}:${id}`, max: TRACKING_LIMITS.perSessionPerHour, windowMs: 3600_000 })),
    now,
    n,
  );
  if (bySession.refused) throw refuse(bySession.refused.resetAt);
  const day = await hit(
    db,
    { bucket: `track:channel:${channelId}`, max: TRACKING_LIMITS.perChannelPerDay, windowMs: 24 * 3600_000 },
    now,
    n,
  );
  if (day.allowed) return n;
  return Math.max(0, n - (day.count - TRACKING_LIMITS.perChannelPerDay));
}

// A mainland-China mobile number (spec §5) anywhere in a value, a resident ID number's shape (issue 33: 18 characters,
// 17 digits and a digit or X), and credentials in URLs.
const PHONE = /(?<!\d)1[3-9]\d{9}(?!\d)/g;
const RESIDENT_ID = /(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])/g;
const SECRET_PARAM = /([?&#](?:token|access_token|authorization|auth|code|phone|mobile|idNumber|legalName)=)[^&#\s]*/gi;

/**
 * No phone number, resident ID number or token ever goes into a stored record, whatever a client sends (issue:
 * tracking; issue 33: a page never puts the ID number or the legal name in its address, and this keeps a client that
 * does from storing them).
 */
export function scrub(value: string): string {
  return value.replace(SECRET_PARAM, '$1[redacted]').replace(RESIDENT_ID, '[redacted]').replace(PHONE, '[redacted]');
}

/**
 * Stores a validated batch of tracking records for a channel, stamping serv_time. One statement per batch.
 */
export async function ingestTrackingBatch(
  { db, now: servTime, channelId }: ChannelScope,
  records: StoredTrackingRecord[],
): Promise<{ accepted: number }> {
  if (records.length === 0) return { accepted: 0 };
  await db.insert(trackingEvents).values(
    records.map((record) => {
      const clean = Object.fromEntries(
        Object.entries(record).map(([key, value]) => [key, typeof value === 'string' ? scrub(value) : value]),
      );
      return {
        channelId,
        eventType: record.event_type,
        pageId: record.page_id,
        sessionId: record.session_id,
        servTime,
        record: { ...clean, serv_time: servTime.toISOString() },
      };
    }),
  );
  return { accepted: records.length };
}

/**
 * The records of a batch that are a page opened inside the app (spec §4: each route change records the new page with the
 * previous one as referrer), as opposed to the first page of a visit, which has no previous page of ours and which the
 * proxy already counted when the browser opened it by address.
 */
export function inAppPageViews(records: readonly StoredTrackingRecord[]): number {
  return records.filter((r) => r.event_type === 'page_view' && Boolean(r.refer_uuid || r.refer_id)).length;
}
