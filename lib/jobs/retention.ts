import 'server-only';
import { lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, rateLimits, smsCodes, smsOutbox, trackingEvents } from '../db/schema';
import { TRACKING_LIMITS } from '../tracking/service';

/**
 * How long we keep what identifies a buyer or their device (security review, findings 7 and 14; docs/security.md has
 * the table and the reasons). Deleted by the background jobs at most once an hour per process.
 */
export const RETENTION = {
  /** Tracking records: page views with session ids and URLs. */
  trackingDays: TRACKING_LIMITS.keepDays,
  /** SMS codes (phone, IP, hashed code): long enough to look into abuse of a phone or a network. */
  smsCodeDays: 30,
  /** Demo outbox texts (the code is never kept). */
  smsOutboxDays: 1,
  /** Sessions (user, channel, IP at login), after they expired or were revoked. */
  endedSessionDays: 30,
} as const;

const DAY = 24 * 3600_000;
export const RETENTION_INTERVAL_MS = 3600_000;

/** Deletes what is past its keeping time; answers how many rows went, per table. */
export async function sweepExpiredRecords(db: Db, now: Date): Promise<Record<string, number>> {
  const before = (days: number) => new Date(now.getTime() - days * DAY);
  const counts: Record<string, number> = {};
  counts.tracking = (
    await db
      .delete(trackingEvents)
      .where(lt(trackingEvents.servTime, before(RETENTION.trackingDays)))
      .returning({ id: trackingEvents.id })
  ).length;
  counts.smsCodes = (
    await db
      .delete(smsCodes)
      .where(lt(smsCodes.createdAt, before(RETENTION.smsCodeDays)))
      .returning({ id: smsCodes.id })
  ).length;
  counts.smsOutbox = (
    await db
      .delete(smsOutbox)
      .where(lt(smsOutbox.createdAt, before(RETENTION.smsOutboxDays)))
      .returning({ id: smsOutbox.id })
  ).length;
  counts.sessions = (
    await db
      .delete(authSessions)
      .where(lt(authSessions.expiresAt, before(RETENTION.endedSessionDays)))
      .returning({ id: authSessions.id })
  ).length;
  counts.rateLimits = (await db.delete(rateLimits).where(lt(rateLimits.expiresAt, now)).returning({ bucket: rateLimits.bucket })).length;
  return counts;
}
