import 'server-only';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, users } from '../db/schema';
import { writeInvalidating } from '../cache/store';
import { sessionTags } from '../auth/sessions';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { UserScope } from '../procedure/scope';
import { detectEnvironment } from '../user-agent/environment';
import { describeDevice } from '../user-agent/device';
import { isPresetAvatar } from './avatars';
import { NICKNAME_MAX, NICKNAME_MIN, nicknameProblem, refusedWordsOf, type RefusedWords } from './nickname';
import type { LoginView, ProfileView } from './profile-schema';

/**
 * A buyer's own profile (issue 36; docs/profile.md): their nickname and avatar, their last logins on this channel and
 * signing out of every other session there. Every read and write is of the caller's own account only.
 */

/** How many logins the profile lists: the last 20 on this channel. */
export const LOGINS_SHOWN = 20;

export async function readProfile(ctx: UserScope): Promise<ProfileView> {
  const [row] = await ctx.db
    .select({ nickname: users.nickname, avatar: users.avatar })
    .from(users)
    .where(eq(users.id, ctx.userId))
    .limit(1);
  return { nickname: row?.nickname ?? null, avatar: row?.avatar ?? null };
}

/** The token hashes of the buyer's sessions still live on any channel: their cached reads carry the nickname and avatar. */
async function liveTokenHashes(db: Db, userId: number, now: Date): Promise<string[]> {
  const rows = await db
    .select({ tokenHash: authSessions.tokenHash })
    .from(authSessions)
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, now)));
  return rows.map((r) => r.tokenHash);
}

/**
 * profile/update: sets the nickname (checked against the rules and the refused words) and/or the avatar (one of the
 * shipped ones, or the buyer's own uploaded photo while it is their avatar), or clears either with null. The buyer's cached session reads are dropped with the commit, so Mine
 * shows the new name at once on every process.
 */
export async function updateProfile(
  ctx: UserScope,
  input: { nickname?: string | null; avatar?: string | null },
  words: RefusedWords = refusedWordsOf(),
): Promise<ProfileView> {
  const change: { nickname?: string | null; avatar?: string | null } = {};
  if (input.nickname !== undefined) {
    if (input.nickname !== null) {
      const problem = nicknameProblem(input.nickname, words);
      if (problem === 'spaces') throw new AppError(400, msg('profileNicknameSpaces'));
      if (problem === 'length') throw new AppError(400, msg('profileNicknameLength', { min: NICKNAME_MIN, max: NICKNAME_MAX }));
      if (problem === 'chars') throw new AppError(400, msg('profileNicknameChars'));
      if (problem) throw new AppError(400, msg('profileNicknameRefused', { word: problem.refused }));
    }
    change.nickname = input.nickname;
  }
  if (input.avatar !== undefined) {
    // A shipped picture, the store's (null), or the photo this buyer uploaded and has now: an uploaded photo is kept
    // only while it is the avatar (docs/profile.md), so no other URL, and no other buyer's photo, can be named here.
    if (input.avatar !== null && !isPresetAvatar(input.avatar) && input.avatar !== (await readProfile(ctx)).avatar) {
      throw new AppError(400, msg('profileAvatarUnknown'));
    }
    change.avatar = input.avatar;
  }
  await saveProfileChange(ctx, change);
  return readProfile(ctx);
}

/**
 * Writes a checked change of the buyer's nickname and/or avatar, dropping their cached session reads with the commit
 * (they carry both), so Mine shows it at once on every process.
 */
export async function saveProfileChange(ctx: UserScope, change: { nickname?: string | null; avatar?: string | null }): Promise<void> {
  if (Object.keys(change).length === 0) return;
  await writeInvalidating(ctx.db, async (tx, changed) => {
    await tx.update(users).set(change).where(eq(users.id, ctx.userId));
    changed(sessionTags(await liveTokenHashes(tx, ctx.userId, ctx.now)));
  });
}

/** A user agent in words: the device and its system, and the messaging app it ran in (`iPhone, iOS 17.4, WeChat`). */
export function deviceInWords(userAgent: string | null): string {
  if (!userAgent) return '';
  const device = describeDevice(userAgent);
  const parts = [device.model, [device.os, device.osVersion].filter(Boolean).join(' ')].filter(Boolean);
  const where = detectEnvironment(userAgent);
  if (where === 'wxh5' || where === 'wxapp') parts.push('WeChat');
  if (where === 'app') parts.push('App');
  // The model is often the system's own name (Mac): said once.
  return [...new Set(parts)].join(', ');
}

/** An address with its host part hidden: `203.0.*.*` for IPv4, the first two groups for IPv6 (`2408:8207:*`). */
export function maskAddress(ip: string | null): string {
  if (!ip) return '';
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.*.*`;
  if (ip.includes(':')) {
    const groups = ip.split(':').filter(Boolean);
    return groups.length === 0 ? '*' : `${groups.slice(0, 2).join(':')}:*`;
  }
  return '*';
}

/**
 * profile/logins: the buyer's last LOGINS_SHOWN logins on this channel, newest first, the one `currentTokenHash`
 * belongs to marked. Sessions are kept 30 days after they end (RETENTION.endedSessionDays), so older logins are gone.
 */
export async function listLogins(ctx: UserScope, currentTokenHash: string | null): Promise<LoginView[]> {
  const rows = await ctx.db
    .select({
      id: authSessions.id,
      tokenHash: authSessions.tokenHash,
      createdAt: authSessions.createdAt,
      expiresAt: authSessions.expiresAt,
      revokedAt: authSessions.revokedAt,
      ip: authSessions.ip,
      userAgent: authSessions.userAgent,
    })
    .from(authSessions)
    .where(and(eq(authSessions.userId, ctx.userId), eq(authSessions.channelId, ctx.channelId)))
    .orderBy(desc(authSessions.createdAt), desc(authSessions.id))
    .limit(LOGINS_SHOWN);
  return rows.map((row) => ({
    id: String(row.id),
    at: row.createdAt.toISOString(),
    device: deviceInWords(row.userAgent),
    address: maskAddress(row.ip),
    current: row.tokenHash === currentTokenHash,
    live: row.revokedAt === null && row.expiresAt.getTime() > ctx.now.getTime(),
  }));
}

/**
 * profile/signOutOthers: ends every other live session of the buyer on this channel (the logins the page lists), as a
 * logout does: revoked in the database, their cached reads dropped with the commit here and on every process.
 */
export async function signOutOthers(ctx: UserScope, currentTokenHash: string): Promise<{ ended: number }> {
  const ended = await writeInvalidating(ctx.db, async (tx, changed) => {
    const rows = await tx
      .update(authSessions)
      .set({ revokedAt: ctx.now })
      .where(
        and(
          eq(authSessions.userId, ctx.userId),
          eq(authSessions.channelId, ctx.channelId),
          isNull(authSessions.revokedAt),
          ne(authSessions.tokenHash, currentTokenHash),
        ),
      )
      .returning({ tokenHash: authSessions.tokenHash });
    changed(sessionTags(rows.map((r) => r.tokenHash)));
    return rows.length;
  });
  return { ended };
}
