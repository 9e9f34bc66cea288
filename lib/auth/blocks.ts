import 'server-only';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, buyerBlocks, buyerIdentities, users } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { sha256 } from '../security/crypto';
import { parseAddress } from '../security/address';

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

/** What a block stops (issue 33): an account, a person (every account verified with their identity), a phone, an address range. */
export type BlockKind = 'buyer' | 'identity' | 'phone' | 'cidr';

/**
 * Who is knocking, as far as the call knows: the account (a signed-in buyer), the phone (a login, before any account
 * may exist) and the client address as the entry server resolved it (`ctx.ip`, lib/security/forwarded.ts).
 */
export type Knocker = { userId?: number | null; phone?: string | null; ip?: string | null };

/**
 * The newest live block on the channel (its own or an every-channel one) of any kind that matches the knocker, or
 * null: the account's own block; a block of the identity the account verified with (buyer_identities.id_hash); of
 * the account's phone or the phone being logged in with; of a range holding the address. ONE query for every kind
 * (issue 33: the login path stays cheap): the account and its identity are found by primary key or the phone's unique
 * index inside it, the value kinds by `buyer_blocks_value` (kind, value); the ranges of a channel are few and are
 * compared with PostgreSQL's `>>=` (range contains or equals), only on rows of kind 'cidr' (so no other value is cast).
 */
export async function liveBlockMatching(db: Db, channelId: number, who: Knocker): Promise<(BuyerBlock & { kind: BlockKind }) | null> {
  const [row] = await db
    .select({
      id: buyerBlocks.id,
      kind: buyerBlocks.kind,
      channelId: buyerBlocks.channelId,
      reason: buyerBlocks.reason,
      blockedBy: buyerBlocks.blockedBy,
      blockedAt: buyerBlocks.blockedAt,
    })
    .from(buyerBlocks)
    .where(liveBlockMatchingWhere(channelId, who))
    .orderBy(desc(buyerBlocks.blockedAt))
    .limit(1);
  return row ? { ...row, kind: row.kind as BlockKind } : null;
}

/** Whether a live block matches the knocker, as SQL (true/false), for a caller that folds it into its own statement. */
export function liveBlockMatchingSql(channelId: number, who: Knocker) {
  return sql<boolean>`exists (select 1 from ${buyerBlocks} where ${liveBlockMatchingWhere(channelId, who)})`;
}

/** The condition of `liveBlockMatching` on buyer_blocks rows. */
function liveBlockMatchingWhere(channelId: number, who: Knocker) {
  const address = parseAddress(who.ip)?.address ?? null;
  const account =
    who.userId != null
      ? sql`select ${users.id} as id, ${users.phone} as phone from ${users} where ${users.id} = ${who.userId}`
      : who.phone
        ? sql`select ${users.id} as id, ${users.phone} as phone from ${users} where ${users.phone} = ${who.phone}`
        : sql`select null::integer as id, null::text as phone where false`;
  return and(
    isNull(buyerBlocks.liftedAt),
    or(eq(buyerBlocks.channelId, channelId), isNull(buyerBlocks.channelId)),
    sql`(
      (${buyerBlocks.kind} = 'buyer' and ${buyerBlocks.userId} in (select a.id from (${account}) a))
      or (${buyerBlocks.kind} = 'phone' and ${buyerBlocks.value} in (select a.phone from (${account}) a union all select ${who.phone ?? null}::text))
      or (${buyerBlocks.kind} = 'identity' and ${buyerBlocks.value} in (
        select ${buyerIdentities.idHash} from ${buyerIdentities} where ${buyerIdentities.userId} in (select a.id from (${account}) a)))
      or (case when ${buyerBlocks.kind} = 'cidr' and ${address}::text is not null
        then ${buyerBlocks.value}::cidr >>= ${address}::inet else false end)
    )`,
  );
}

/**
 * Refuses a blocked knocker (asking for a login code, logging in, ordering: issue 33) with the block's own words
 * (403, the buyer's language): they are told to contact the channel, never which kind of block or its reason.
 */
export async function refuseBlockedKnocker(db: Db, channelId: number, who: Knocker): Promise<void> {
  if (await liveBlockMatching(db, channelId, who)) throw new AppError(403, msg('buyerBlocked'));
}

/**
 * Adds a block of an identity, a phone or an address range (inside the caller's transaction); for an identity or a
 * phone, the sessions of the account it names end on the channel (every channel for an every-channel block), as a
 * buyer's block ends theirs. A range ends no session: the buyer may be elsewhere now; their next login or order from
 * the range is refused.
 */
export async function addValueBlock(
  tx: Db,
  input: {
    kind: Exclude<BlockKind, 'buyer'>;
    value: string;
    /** The account the block was chosen from (an identity from the buyer's page), kept for the trail. */
    userId: number | null;
    channelId: number | null;
    reason: string;
    operatorId: number;
    now: Date;
  },
): Promise<{ id: number; sessionsEnded: number; endedTokenHashes: string[] }> {
  const [row] = await tx
    .insert(buyerBlocks)
    .values({
      kind: input.kind,
      value: input.value,
      userId: input.userId,
      channelId: input.channelId,
      reason: input.reason,
      blockedBy: input.operatorId,
      blockedAt: input.now,
    })
    .returning({ id: buyerBlocks.id });
  if (input.kind === 'cidr') return { id: row!.id, sessionsEnded: 0, endedTokenHashes: [] };
  const accounts =
    input.kind === 'phone'
      ? sql`select ${users.id} from ${users} where ${users.phone} = ${input.value}`
      : sql`select ${buyerIdentities.userId} from ${buyerIdentities} where ${buyerIdentities.idHash} = ${input.value}`;
  const ended = await tx
    .update(authSessions)
    .set({ revokedAt: input.now })
    .where(
      and(
        sql`${authSessions.userId} in (${accounts})`,
        isNull(authSessions.revokedAt),
        input.channelId === null ? undefined : eq(authSessions.channelId, input.channelId),
      ),
    )
    .returning({ id: authSessions.id, tokenHash: authSessions.tokenHash });
  return { id: row!.id, sessionsEnded: ended.length, endedTokenHashes: ended.map((s) => s.tokenHash) };
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
    .select({ userId: authSessions.userId })
    .from(authSessions)
    .where(and(eq(authSessions.tokenHash, sha256(input.token)), eq(authSessions.channelId, input.channelId)))
    .limit(1);
  // Any kind of block of the account (issue 33): its own, its identity's or its phone's, whose add ended the session.
  return row !== undefined && (await liveBlockMatching(db, input.channelId, { userId: row.userId })) !== null;
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
 * a block across channels). Answers the block made and the token hashes of the sessions it ended: the caller drops
 * their cached reads with its commit (`sessionTags` through `writeInvalidating`, issue 34), so the next page load or
 * call in this process, and in every other once it hears the notice, finds them revoked.
 */
export async function blockBuyer(
  tx: Db,
  input: { userId: number; channelId: number | null; reason: string; operatorId: number; now: Date },
): Promise<BuyerBlock & { sessionsEnded: number; endedTokenHashes: string[] }> {
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
    .returning({ id: authSessions.id, tokenHash: authSessions.tokenHash });
  return { ...row!, sessionsEnded: ended.length, endedTokenHashes: ended.map((s) => s.tokenHash) };
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
