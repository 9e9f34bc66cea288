import 'server-only';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, buyerBlocks, users } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { sha256 } from '../security/crypto';

/**
 * The blocklist (issue 32, "Orders and buyers"): an operator blocks a buyer on a channel, or an owner on every channel
 * (`channelId` null), with a reason; a blocked buyer cannot log in there (lib/auth/service.ts), cannot buy
 * (lib/order/service.ts), and their sessions there end at once. A block is lifted, never deleted, so the trail of who
 * blocked whom and why stays. The real-name issue adds identities, phone numbers and address ranges as further kinds.
 */
export type BuyerBlock = {
  id: number;
  channelId: number | null;
  reason: string;
  blockedBy: number | null;
  blockedAt: Date;
};

/** The buyer's live blocks on one channel (its own and the every-channel ones). */
export function liveBlockWhere(userId: number, channelId: number) {
  return and(
    eq(buyerBlocks.kind, 'buyer'),
    eq(buyerBlocks.userId, userId),
    isNull(buyerBlocks.liftedAt),
    or(eq(buyerBlocks.channelId, channelId), isNull(buyerBlocks.channelId)),
  );
}

/** The live block that keeps the buyer off the channel (the newest), or null. */
export async function liveBlockOf(db: Db, channelId: number, userId: number): Promise<BuyerBlock | null> {
  const [row] = await db
    .select({
      id: buyerBlocks.id,
      channelId: buyerBlocks.channelId,
      reason: buyerBlocks.reason,
      blockedBy: buyerBlocks.blockedBy,
      blockedAt: buyerBlocks.blockedAt,
    })
    .from(buyerBlocks)
    .where(liveBlockWhere(userId, channelId))
    .orderBy(desc(buyerBlocks.blockedAt))
    .limit(1);
  return row ?? null;
}

/** Refuses a blocked buyer (login, order create) in the buyer's language; the reason stays the operators'. */
export async function refuseBlocked(db: Db, channelId: number, userId: number): Promise<void> {
  if (await liveBlockOf(db, channelId, userId)) throw new AppError(403, msg('buyerBlocked'));
}

/** The blocked buyer's phone, for the login check (the buyer is known by the phone before a user is made). */
export async function refuseBlockedPhone(db: Db, channelId: number, phone: string): Promise<void> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone)).limit(1);
  if (user) await refuseBlocked(db, channelId, user.id);
}

/**
 * Whether a token the session check refused is a session of this channel whose buyer is blocked there (issue 32): the
 * block revoked it, and the buyer should read why (the block's own refusal) rather than "not logged in", which sends
 * them to a login that then refuses them. Asked only after the session check refused, so a live session costs nothing
 * more; a token of no session, or of a buyer not blocked, is answered false (plain "not logged in").
 */
export async function sessionBlocked(db: Db, input: { token: string; channelId: number }): Promise<boolean> {
  if (!input.token || input.token.length > 256) return false;
  const [row] = await db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(
      and(
        eq(authSessions.tokenHash, sha256(input.token)),
        eq(authSessions.channelId, input.channelId),
        sql`not (${notBlockedSql(authSessions.userId, authSessions.channelId)})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Refuses a token whose buyer is blocked on the channel with the block's refusal (403, both languages). */
export async function refuseBlockedSession(db: Db, input: { token: string; channelId: number }): Promise<void> {
  if (await sessionBlocked(db, input)) throw new AppError(403, msg('buyerBlocked'));
}

/** Whether the buyer is blocked on the channel: the SQL the session check adds (lib/auth/sessions.ts). */
export function notBlockedSql(userId: typeof authSessions.userId, channelId: typeof authSessions.channelId) {
  return sql`not exists (select 1 from ${buyerBlocks} where ${buyerBlocks.kind} = 'buyer' and ${buyerBlocks.userId} = ${userId} and ${buyerBlocks.liftedAt} is null and (${buyerBlocks.channelId} = ${channelId} or ${buyerBlocks.channelId} is null))`;
}

/**
 * Blocks the buyer (inside the caller's transaction) and ends their live sessions on the channel (every channel for
 * a block across channels). Sessions are read from the database on every request (lib/auth/sessions.ts, no cache), so
 * the next page load or call in any process finds them revoked. Answers the block made.
 */
export async function blockBuyer(
  tx: Db,
  input: { userId: number; channelId: number | null; reason: string; operatorId: number; now: Date },
): Promise<BuyerBlock & { sessionsEnded: number }> {
  const [row] = await tx
    .insert(buyerBlocks)
    .values({
      kind: 'buyer',
      userId: input.userId,
      channelId: input.channelId,
      reason: input.reason,
      blockedBy: input.operatorId,
      blockedAt: input.now,
    })
    .returning({
      id: buyerBlocks.id,
      channelId: buyerBlocks.channelId,
      reason: buyerBlocks.reason,
      blockedBy: buyerBlocks.blockedBy,
      blockedAt: buyerBlocks.blockedAt,
    });
  const ended = await tx
    .update(authSessions)
    .set({ revokedAt: input.now })
    .where(
      and(
        eq(authSessions.userId, input.userId),
        isNull(authSessions.revokedAt),
        input.channelId === null ? undefined : eq(authSessions.channelId, input.channelId),
      ),
    )
    .returning({ id: authSessions.id });
  return { ...row!, sessionsEnded: ended.length };
}

/**
 * Lifts the buyer's live blocks that apply on the channel: its own, and, when `everyChannel`, the every-channel ones
 * too (owners only, checked by the caller). Answers the blocks lifted (none: the buyer was not blocked there).
 */
export async function unblockBuyer(
  tx: Db,
  input: { userId: number; channelId: number; everyChannel: boolean; reason: string; operatorId: number; now: Date },
): Promise<number[]> {
  const rows = await tx
    .update(buyerBlocks)
    .set({ liftedAt: input.now, liftedBy: input.operatorId, liftReason: input.reason })
    .where(
      and(
        eq(buyerBlocks.kind, 'buyer'),
        eq(buyerBlocks.userId, input.userId),
        isNull(buyerBlocks.liftedAt),
        input.everyChannel
          ? or(eq(buyerBlocks.channelId, input.channelId), isNull(buyerBlocks.channelId))
          : eq(buyerBlocks.channelId, input.channelId),
      ),
    )
    .returning({ id: buyerBlocks.id });
  return rows.map((r) => r.id);
}
