import 'server-only';
import { and, lt, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  authSessions,
  channelLoginDevices,
  operatorPasskeyCeremonies,
  rateLimits,
  shareVisits,
  smsCodes,
  smsOutbox,
  trackingEvents,
} from '../db/schema';
import { RETENTION } from '../security/retention';
import { sweepAuditTrail } from '../operator/audit-retention';
import { env } from '../env';
import { mediaStore, type MediaStore } from '../media/store';
import { sweepClosedAccounts } from '../buyer/closed-accounts';
import { sweepAvatarPhotos } from '../buyer/avatar-sweep';

export { RETENTION };

const DAY = 24 * 3600_000;
export const RETENTION_INTERVAL_MS = 3600_000;

/** Deletes what is past its keeping time; answers how many rows went, per table. */
export async function sweepExpiredRecords(db: Db, now: Date, options: { store?: () => MediaStore } = {}): Promise<Record<string, number>> {
  const before = (days: number) => new Date(now.getTime() - days * DAY);
  const counts: Record<string, number> = {};
  counts.tracking = (
    await db
      .delete(trackingEvents)
      .where(lt(trackingEvents.servTime, before(RETENTION.trackingDays)))
      .returning({ id: trackingEvents.id })
  ).length;
  // Share visits (issue 36, docs/sharing.md) are page views through a sharer's link, kept as the tracking records they
  // come from: the day's report has counted them by then, and a buy credits only a visit of its last 7 days.
  counts.shareVisits = (
    await db
      .delete(shareVisits)
      .where(lt(shareVisits.visitedAt, before(RETENTION.trackingDays)))
      .returning({ id: shareVisits.id })
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
      // A text still pending is kept until the outbox's sender sends it or gives it up (a day at most, issue 32).
      .where(and(lt(smsOutbox.createdAt, before(RETENTION.smsOutboxDays)), ne(smsOutbox.status, 'pending')))
      .returning({ id: smsOutbox.id })
  ).length;
  counts.sessions = (
    await db
      .delete(authSessions)
      .where(lt(authSessions.expiresAt, before(RETENTION.endedSessionDays)))
      .returning({ id: authSessions.id })
  ).length;
  counts.loginDevices = (
    await db
      .delete(channelLoginDevices)
      .where(lt(channelLoginDevices.lastLoginAt, before(RETENTION.loginDeviceDays)))
      .returning({ deviceHash: channelLoginDevices.deviceHash })
  ).length;
  counts.rateLimits = (await db.delete(rateLimits).where(lt(rateLimits.expiresAt, now)).returning({ bucket: rateLimits.bucket })).length;
  // The operators' audit trail after AUDIT_RETENTION_DAYS (issue 31; docs/operators.md, "What the audit trail keeps").
  counts.operatorAudit = await sweepAuditTrail(db, now, env().AUDIT_RETENTION_DAYS);
  // Passkey challenges (issue 31) mean nothing once expired (used or not); only their count of rows would grow.
  counts.passkeyCeremonies = (
    await db
      .delete(operatorPasskeyCeremonies)
      .where(lt(operatorPasskeyCeremonies.expiresAt, now))
      .returning({ id: operatorPasskeyCeremonies.id })
  ).length;
  // Closed accounts past the period (issue 36; docs/security.md, "Closed accounts"): their identity and what else is
  // kept about the person, never the trade records.
  counts.closedAccounts = await sweepClosedAccounts(db, now, RETENTION.closedAccountDays);
  // Photos no longer anyone's avatar, after a grace (issue 36; docs/profile.md).
  counts.avatarPhotos = await sweepAvatarPhotos(db, now, RETENTION.unusedAvatarDays, options.store ?? mediaStore);
  return counts;
}
