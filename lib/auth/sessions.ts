import 'server-only';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedOn } from '../db/prepared';
import { authSessions, users } from '../db/schema';
import { randomToken, sha256 } from '../security/crypto';
import { AUTH_LIMITS } from './limits';
import { notBlockedSql } from './blocks';

/**
 * API tokens (DESIGN §5, §10): random 256-bit strings, stored only as SHA-256, bound to one user on one channel,
 * expiring after AUTH_LIMITS.sessionTtlMs and revocable at logout. Apps send them in `Authorization`; the web keeps
 * them inside the encrypted, HttpOnly next-auth cookie.
 */
import type { SessionUser } from '../procedure/scope';

export async function createSession(
  db: Db,
  input: { userId: number; channelId: number; now: Date; ip: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(input.now.getTime() + AUTH_LIMITS.sessionTtlMs);
  await db
    .insert(authSessions)
    .values({ tokenHash: sha256(token), userId: input.userId, channelId: input.channelId, createdAt: input.now, expiresAt, ip: input.ip });
  return { token, expiresAt };
}

/** The user behind a live token of this channel, or null (unknown, expired, revoked, or another channel's). */
export async function resolveToken(db: Db, input: { token: string; channelId: number; now: Date }): Promise<SessionUser | null> {
  if (!input.token || input.token.length > 256) return null;
  const [row] = await preparedOn(
    db,
    'session_user',
    (handle) =>
      handle
        .select({
          id: users.id,
          uuid: users.uuid,
          phone: users.phone,
          nickname: users.nickname,
          avatar: users.avatar,
          createdAt: users.createdAt,
        })
        .from(authSessions)
        .innerJoin(users, eq(users.id, authSessions.userId))
        .where(
          and(
            eq(authSessions.tokenHash, sql.placeholder('tokenHash')),
            eq(authSessions.channelId, sql.placeholder('channelId')),
            isNull(authSessions.revokedAt),
            gt(authSessions.expiresAt, sql.placeholder('now')),
            // A block ends the buyer's sessions (lib/auth/blocks.ts revokes them); checked here as well, so a login
            // that raced the block is no session either (issue 32).
            notBlockedSql(authSessions.userId, authSessions.channelId),
          ),
        )
        .limit(1)
        .prepare('session_user'),
    // A placeholder's value reaches the driver as given, without the column's encoding: the time as ISO text.
  ).execute({ tokenHash: sha256(input.token), channelId: input.channelId, now: input.now.toISOString() });
  return row ?? null;
}

/** Revokes a token (logout). Idempotent; true when a live session was revoked. */
export async function revokeToken(db: Db, input: { token: string; now: Date }): Promise<boolean> {
  if (!input.token || input.token.length > 256) return false;
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: input.now })
    .where(and(eq(authSessions.tokenHash, sha256(input.token)), isNull(authSessions.revokedAt)))
    .returning({ id: authSessions.id });
  return rows.length > 0;
}
