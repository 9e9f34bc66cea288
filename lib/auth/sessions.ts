import 'server-only';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedOn } from '../db/prepared';
import { authSessions, users } from '../db/schema';
import { randomToken, sha256 } from '../security/crypto';
import { AUTH_LIMITS } from './limits';
import { notBlockedSql } from './blocks';
import { invalidate, namedCache, writeInvalidating } from '../cache/store';

/**
 * API tokens (DESIGN §5, §10): random 256-bit strings, stored only as SHA-256, bound to one user on one channel,
 * expiring after AUTH_LIMITS.sessionTtlMs and revocable at logout. Apps send them in `Authorization`; the web keeps
 * them inside the encrypted, HttpOnly next-auth cookie.
 */
import type { SessionUser } from '../procedure/scope';

export async function createSession(
  db: Db,
  input: { userId: number; channelId: number; now: Date; ip: string | null; userAgent?: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(input.now.getTime() + AUTH_LIMITS.sessionTtlMs);
  await db.insert(authSessions).values({
    tokenHash: sha256(token),
    userId: input.userId,
    channelId: input.channelId,
    createdAt: input.now,
    expiresAt,
    ip: input.ip,
    // issue 36: shown to the buyer among their logins, in words (lib/buyer/logins.ts); a long one is cut.
    userAgent: input.userAgent ? input.userAgent.slice(0, USER_AGENT_MAX) : null,
  });
  return { token, expiresAt };
}

/** The longest user agent kept with a session (issue 36): enough for every phone's, bounded for a made-up one. */
export const USER_AGENT_MAX = 256;

/**
 * How long a live session read is kept in this process (issue 34): Mine, the pay page and every buyer call read the
 * session first, and a drop day's buyer makes several a second. Five seconds turns that read into one per buyer and
 * five seconds per process, and bounds what a process shows of an ending it was not told of (its listener was down):
 * every ending in the storefront drops the entry at once here and on every process through the tag fan-out
 * (`sessionEnded`), so the time only matters for a write made outside it (docs/caching.md, "The session read").
 */
export const SESSION_CACHE_TTL_MS = 5_000;
/**
 * Live sessions kept per process: about 300 bytes each, so 20,000 buyers within five seconds stay under 10 MB; beyond
 * that the least recently used are read again. Refusals (unknown, expired, revoked, blocked) are never kept, so a flood
 * of made-up tokens costs a query each, as before, and cannot push live buyers out.
 */
export const SESSION_CACHE_MAX_ENTRIES = 20_000;

/**
 * The tag of one session's cached read: part of its token's hash (a clash drops another session's entry, never keeps
 * one), so a notice carries neither the token nor the whole hash the database looks it up by.
 */
export function sessionTag(tokenHash: string): string {
  return `session:${tokenHash.slice(0, 16)}`;
}

/**
 * Sessions have ended or changed (logout, a block, anything that revokes them; `tokenHashes` as the database keeps
 * them): their cached reads are dropped here at once and on every other process when it hears the notice (issue 34).
 * A write inside a transaction names them through `writeInvalidating`'s `changed` with `sessionTags` instead.
 */
export function sessionEnded(db: object, tokenHashes: readonly string[]): void {
  invalidate(db, sessionTags(tokenHashes));
}

/** The tags of these sessions (by their token hashes), for a write that publishes them with its commit. */
export function sessionTags(tokenHashes: readonly string[]): string[] {
  return [...new Set(tokenHashes.map(sessionTag))];
}

type CachedSession = { user: SessionUser; expiresAt: Date };

/**
 * The user behind a live token of this channel, or null (unknown, expired, revoked, or another channel's). A live
 * session is kept SESSION_CACHE_TTL_MS in this process, keyed by the channel and the token's hash: a token of one
 * channel is never answered for another, and its expiry is still checked against `now` at every read.
 */
export async function resolveToken(db: Db, input: { token: string; channelId: number; now: Date }): Promise<SessionUser | null> {
  if (!input.token || input.token.length > 256) return null;
  const tokenHash = sha256(input.token);
  const cache = namedCache(db, 'sessions', { maxEntries: SESSION_CACHE_MAX_ENTRIES });
  const found = (await cache.read(
    `${input.channelId}:${tokenHash}`,
    { tags: [sessionTag(tokenHash)], ttlMs: SESSION_CACHE_TTL_MS },
    // `undefined` is never stored: a refusal is read again next time.
    async () => (await readSessionBatched(db, { tokenHash, channelId: input.channelId, now: input.now })) ?? undefined,
  )) as CachedSession | undefined;
  if (!found || found.expiresAt.getTime() <= input.now.getTime()) return null;
  // A copy: the cached entry is shared by every request of the buyer.
  return { ...found.user };
}

/** What a session read answers: the buyer and the session's end. */
const SESSION_COLUMNS = {
  id: users.id,
  uuid: users.uuid,
  phone: users.phone,
  nickname: users.nickname,
  avatar: users.avatar,
  createdAt: users.createdAt,
  expiresAt: authSessions.expiresAt,
};

type SessionAsk = { tokenHash: string; channelId: number; now: Date };
type PendingRead = SessionAsk & { done: (found: CachedSession | null) => void; fail: (error: unknown) => void };

/** Session reads waiting for their statement, per database handle (a rush of first calls: one statement for many). */
const pendingReads = new WeakMap<Db, { pending: PendingRead[]; running: boolean }>();

/** Sessions read in one statement at most. */
export const SESSION_READ_BATCH_MAX = 200;

/**
 * A session read, in a statement of its own when none is in flight; otherwise it waits for the one in flight and goes
 * in the next with every read that came meanwhile (as the waiting room's joins do, lib/sale/queue.ts `insertJoin`).
 * A drop's crowd makes its first call in the same seconds, each a session read this process has not cached: on
 * PostgreSQL every statement is a round trip whose writes and wake-ups cost the server about as much as the call's
 * own work (`bench:drop`, queue mode: 10,000 joins in 10 s, one session read each).
 */
function readSessionBatched(db: Db, ask: SessionAsk): Promise<CachedSession | null> {
  let line = pendingReads.get(db);
  if (!line) pendingReads.set(db, (line = { pending: [], running: false }));
  const queue = line;
  return new Promise((done, fail) => {
    queue.pending.push({ ...ask, done, fail });
    if (!queue.running) void flushReads(db, queue);
  });
}

async function flushReads(db: Db, queue: { pending: PendingRead[]; running: boolean }): Promise<void> {
  queue.running = true;
  try {
    while (queue.pending.length > 0) {
      const batch = queue.pending.splice(0, SESSION_READ_BATCH_MAX);
      try {
        if (batch.length === 1) {
          const [one] = batch as [PendingRead];
          one.done(await readSession(db, one.tokenHash, one.channelId, one.now));
          continue;
        }
        const found = await readSessions(db, batch);
        for (const read of batch) {
          const session = found.get(`${read.channelId}:${read.tokenHash}`) ?? null;
          // Each read's own moment: a session that ended between the batch's earliest moment and this one's is none.
          read.done(session && session.expiresAt.getTime() > read.now.getTime() ? session : null);
        }
      } catch (error) {
        for (const read of batch) read.fail(error);
      }
    }
  } finally {
    queue.running = false;
  }
}

/**
 * Many sessions in one statement (the conditions of `readSession`, at the earliest of the reads' moments), by channel
 * and token hash: a session is found under its own channel only, so a token asked for another channel finds none.
 */
async function readSessions(db: Db, reads: readonly SessionAsk[]): Promise<Map<string, CachedSession>> {
  const earliest = new Date(Math.min(...reads.map((r) => r.now.getTime())));
  // Hex hashes, joined by commas: one text parameter the unique index of token_hash is probed with (`= any`).
  const asked = [...new Set(reads.map((r) => r.tokenHash))].join(',');
  const rows = await db
    .select({ tokenHash: authSessions.tokenHash, channelId: authSessions.channelId, ...SESSION_COLUMNS })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(
      and(
        sql`${authSessions.tokenHash} = any(string_to_array(${asked}::text, ','))`,
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, earliest),
        notBlockedSql(authSessions.userId, authSessions.channelId),
      ),
    );
  const found = new Map<string, CachedSession>();
  for (const { tokenHash, channelId, expiresAt, ...user } of rows) found.set(`${channelId}:${tokenHash}`, { user, expiresAt });
  return found;
}

/** The database's answer for a token hash on a channel (every condition of a live session), with its expiry. */
async function readSession(db: Db, tokenHash: string, channelId: number, now: Date): Promise<CachedSession | null> {
  const [row] = await preparedOn(
    db,
    'session_user',
    (handle) =>
      handle
        .select(SESSION_COLUMNS)
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
  ).execute({ tokenHash, channelId, now: now.toISOString() });
  if (!row) return null;
  const { expiresAt, ...user } = row;
  return { user, expiresAt };
}

/**
 * Revokes a token (logout). Idempotent; true when a live session was revoked. Its cached read is dropped here and on
 * every process (issue 34), even when it was revoked already: a cached entry must never outlive a logout.
 */
export async function revokeToken(db: Db, input: { token: string; now: Date }): Promise<boolean> {
  if (!input.token || input.token.length > 256) return false;
  const tokenHash = sha256(input.token);
  // In a transaction that carries the notice: the other processes hear it as the revocation commits, before this
  // process answers the logout (issue 34), not a turn of the event loop after.
  const rows = await writeInvalidating(db, async (tx, changed) => {
    changed(sessionTags([tokenHash]));
    return tx
      .update(authSessions)
      .set({ revokedAt: input.now })
      .where(and(eq(authSessions.tokenHash, tokenHash), isNull(authSessions.revokedAt)))
      .returning({ id: authSessions.id });
  });
  return rows.length > 0;
}
