import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, channelLoginDevices, users } from '../db/schema';
import { deviceHash } from '../security/device';

/**
 * Who has logged in on a channel before (issue 29): when the channel's hourly SMS budget for new numbers is spent,
 * these buyers still get codes (lib/auth/sms-codes.ts), so a flood of codes to made-up numbers does not lock out the
 * store's own buyers. A device is known by its storefront_device cookie (kept as a hash, RETENTION.loginDeviceDays
 * after its last login there); a phone by its sessions on the channel (auth_sessions, kept 30 days after they end).
 */

/** Notes that this device logged in on this channel (at each login; the last one counts for retention). */
export async function recordLoginDevice(db: Db, input: { channelId: number; deviceId: string; now: Date }): Promise<void> {
  await db
    .insert(channelLoginDevices)
    .values({ channelId: input.channelId, deviceHash: deviceHash(input.deviceId), lastLoginAt: input.now })
    .onConflictDoUpdate({
      target: [channelLoginDevices.channelId, channelLoginDevices.deviceHash],
      set: { lastLoginAt: input.now },
    });
}

/** Why a buyer asking for a code is known on the channel: their device or their phone logged in there; null if neither. */
export async function knownOnChannel(
  db: Db,
  input: { channelId: number; deviceId?: string | null; phone: string },
): Promise<'device' | 'phone' | null> {
  if (input.deviceId) {
    const [device] = await db
      .select({ channelId: channelLoginDevices.channelId })
      .from(channelLoginDevices)
      .where(and(eq(channelLoginDevices.channelId, input.channelId), eq(channelLoginDevices.deviceHash, deviceHash(input.deviceId))))
      .limit(1);
    if (device) return 'device';
  }
  const [session] = await db
    .select({ id: authSessions.id })
    .from(users)
    .innerJoin(authSessions, eq(authSessions.userId, users.id))
    .where(and(eq(users.phone, input.phone), eq(authSessions.channelId, input.channelId)))
    .limit(1);
  return session ? 'phone' : null;
}
