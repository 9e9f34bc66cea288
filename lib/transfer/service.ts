import 'server-only';
import { aliasedTable, and, asc, count, desc, eq, gt, gte, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  buyerMessages,
  channels,
  commodities,
  holdings,
  holdingTransfers,
  orderRefunds,
  users,
  type BuyerMessageKind,
  type BuyerMessageParams,
} from '../db/schema';
import { accountNumberOf, ACCOUNT_NUMBER, buyerOfAccountNumber } from '../auth/account-numbers';
import { ageOn, dayIn, identityRequirement, parseIdentityPolicy } from '../channel/identity-policy';
import { identityOf } from '../identity/records';
import { channelPolicyIn } from '../identity/gate';
import { hitAll } from '../rate-limit/rate-limit';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';
import { idempotencyKeyReused } from '../procedure/schemas';
import { claimOnce } from '../procedure/idempotent';
import { toPage, type Page, type Paging } from '../procedure/paging';
import type { UserScope } from '../procedure/scope';
import { CHAIN_STATUS } from '../collection/schema';
import type { Giftability, ReceiverView, TransferView } from './schema';
import { chainAdapter } from '../chain/ledger-job';

/**
 * Gifts between buyers (转赠, issue 36; docs/gifting.md). A holder gives one edition to another buyer of the same
 * channel, found by their account number there; the receiver accepts (final: the holding becomes theirs, its edition
 * number, token and chain record unchanged) or refuses within GIFT_ANSWER_HOURS, else it goes back to the sender.
 *
 * Every step is one transaction that locks the holding's row, so two gifts of one edition, a gift and its answer, or an
 * answer and the expiry never interleave; the partial unique index `holding_transfers_one_pending` is the last word on
 * "one pending gift per edition", and (sender, idempotency key) makes a double tap one gift.
 */

/** How long a receiver has to answer a gift before it goes back to its sender (issue 36: 72 h). */
export const GIFT_ANSWER_HOURS = 72;

/** How many gifts a buyer may offer per channel in 24 hours (docs/gifting.md). */
export const GIFTS_PER_DAY = 20;

/** Account numbers a buyer may look up (with `lookup` or `give`) per channel: per minute and per hour (no enumeration). */
export const LOOKUPS_PER_MINUTE = 10;
export const LOOKUPS_PER_HOUR = 60;

const HOUR_MS = 3_600_000;

type HoldingRow = typeof holdings.$inferSelect;
type TransferRow = typeof holdingTransfers.$inferSelect;

/**
 * A buyer as another buyer sees them when giving or receiving: the nickname's first character and last, the rest
 * starred; without a nickname, the last 4 digits of their phone as their Mine card shows them (never the whole number).
 */
export function maskedBuyerName(user: { nickname: string | null; phone: string }): string {
  const name = user.nickname?.trim();
  if (name) {
    const chars = [...name];
    if (chars.length === 1) return `${chars[0]}*`;
    if (chars.length === 2) return `${chars[0]}*`;
    return `${chars[0]}${'*'.repeat(Math.min(chars.length - 2, 4))}${chars[chars.length - 1]}`;
  }
  return `****${user.phone.replace(/\D/g, '').slice(-4)}`;
}

export async function maskedNameOf(db: Db, userId: number): Promise<string> {
  const [row] = await db.select({ nickname: users.nickname, phone: users.phone }).from(users).where(eq(users.id, userId)).limit(1);
  return row ? maskedBuyerName(row) : '****';
}

/** Counts one account-number lookup of the sender; 429 naming the wait when they looked up too many. */
async function countLookup(ctx: UserScope): Promise<void> {
  const who = `${ctx.channelId}:${ctx.userId}`;
  const result = await hitAll(
    ctx.db,
    [
      { bucket: `transfer:lookup-minute:${who}`, max: LOOKUPS_PER_MINUTE, windowMs: 60_000 },
      { bucket: `transfer:lookup-hour:${who}`, max: LOOKUPS_PER_HOUR, windowMs: HOUR_MS },
    ],
    ctx.now,
  );
  if (result.refused) {
    throw new AppError(429, msg('transferLookupFlood', { waitMs: result.refused.resetAt.getTime() - ctx.now.getTime() }), {
      reason: REASON.flood,
    });
  }
}

/**
 * The receiver behind an account number of this channel, checked as a gift needs them: not the sender, and verified and
 * of the channel's age where the channel asks it for receiving. An unknown number and another channel's number answer
 * alike (account numbers are per channel: another channel's is unknown here).
 */
async function receiverFor(ctx: UserScope, accountNumber: string): Promise<{ userId: number; view: ReceiverView }> {
  await countLookup(ctx);
  const number = accountNumber.trim();
  const receiverId = ACCOUNT_NUMBER.test(number) ? await buyerOfAccountNumber(ctx.db, ctx.channelId, number) : null;
  if (receiverId === null) throw new AppError(404, msg('transferReceiverUnknown'), { reason: REASON.notEligible });
  if (receiverId === ctx.userId) throw new AppError(400, msg('transferSelf'), { reason: REASON.notEligible });
  await requireGiftIdentities(ctx, receiverId);
  return { userId: receiverId, view: { accountNumber: number, maskedName: await maskedNameOf(ctx.db, receiverId) } };
}

/**
 * Where the channel asks a verified real name for receiving (issue 33's `receive` rule, or a minimum age), both buyers
 * must be verified and the receiver of the channel's minimum age on its today (docs/gifting.md).
 */
async function requireGiftIdentities(ctx: UserScope, receiverId: number): Promise<void> {
  const channel = await channelPolicyIn(ctx);
  const need = identityRequirement(parseIdentityPolicy(channel.identityPolicy), 'receive');
  if (!need.realName) return;
  if (!(await identityOf(ctx.db, ctx.userId))) {
    throw new AppError(1010, msg('transferSenderIdentity'), { reason: REASON.identityRequired, action: 'gift' });
  }
  const receiver = await identityOf(ctx.db, receiverId);
  if (!receiver) throw new AppError(409, msg('transferReceiverIdentity'), { reason: REASON.identityRequired });
  if (need.minAge !== null && ageOn(receiver.birthDate, dayIn(channel.timeZone, ctx.now)) < need.minAge) {
    throw new AppError(409, msg('transferReceiverAge', { minAge: need.minAge }), { reason: REASON.ageRestricted, minAge: need.minAge });
  }
}

/** transfer/lookup: the receiver's masked nickname for the sender to confirm before giving. */
export async function lookupReceiver(ctx: UserScope, accountNumber: string): Promise<ReceiverView> {
  return (await receiverFor(ctx, accountNumber)).view;
}

/** The channel's holding period in hours (a channel setting, default 24). */
export async function holdingHoursOf(db: Db, channelId: number): Promise<number> {
  const [row] = await db.select({ hours: channels.giftHoldingHours }).from(channels).where(eq(channels.id, channelId)).limit(1);
  return row?.hours ?? 24;
}

/** When the holder may give it: its purchase (or mint) or its receipt by gift, plus the channel's holding period. */
function giftableFrom(holding: HoldingRow, hours: number): Date {
  return new Date((holding.receivedAt ?? holding.createdAt).getTime() + hours * HOUR_MS);
}

export type Lock = { why: NonNullable<Giftability['why']>; from: Date | null };

/** Why the holder cannot give this holding now, or null when they can (the holding is theirs and still held). */
export async function lockOf(db: Db, holding: HoldingRow, isBlindBox: boolean, hours: number, now: Date): Promise<Lock | null> {
  if (isBlindBox) return { why: 'blindBox', from: null };
  const from = giftableFrom(holding, hours);
  if (from > now) return { why: 'holdingPeriod', from };
  if (holding.chainStatus !== CHAIN_STATUS.onChain) return { why: 'chainPending', from: null };
  if (holding.orderId !== null) {
    const [owed] = await db
      .select({ id: orderRefunds.id })
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, holding.orderId), eq(orderRefunds.status, 'owed')))
      .limit(1);
    if (owed) return { why: 'refundPending', from: null };
  }
  const [pending] = await db
    .select({ id: holdingTransfers.id })
    .from(holdingTransfers)
    .where(and(eq(holdingTransfers.holdingId, holding.id), eq(holdingTransfers.status, 'pending'), gt(holdingTransfers.expiresAt, now)))
    .limit(1);
  if (pending) return { why: 'offered', from: null };
  return null;
}

function lockError(lock: Lock, hours: number): AppError {
  switch (lock.why) {
    case 'blindBox':
      return new AppError(409, msg('transferBlindBox'), { reason: REASON.wrongType });
    case 'holdingPeriod':
      return new AppError(409, msg('transferHoldingPeriod', { at: lock.from!, hours }), {
        reason: REASON.notOpen,
        from: lock.from!.toISOString(),
      });
    case 'chainPending':
      return new AppError(409, msg('transferChainPending'), { reason: REASON.notOpen });
    case 'refundPending':
      return new AppError(409, msg('transferRefundPending'), { reason: REASON.notEligible });
    case 'offered':
      return new AppError(409, msg('transferOffered'), { reason: REASON.changed });
  }
}

/** The caller's holding on this channel, still in their collection (not spent, not refunded); 404 otherwise. */
async function heldBy(db: Db, ctx: UserScope, holdingId: number, lock: boolean) {
  const query = db
    .select({
      h: holdings,
      name: commodities.name,
      cover: commodities.cover,
      isBlindBox: commodities.isBlindBox,
      amountSku: commodities.amountSku,
    })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(
      and(
        eq(holdings.id, holdingId),
        eq(holdings.userId, ctx.userId),
        eq(holdings.channelId, ctx.channelId),
        sql`${holdings.destroyedAt} is null`,
        sql`${holdings.refundedAt} is null`,
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('update', { of: holdings }) : await query;
  if (!row) throw new AppError(404, msg('transferHoldingNotFound'));
  return row;
}

/**
 * For the collection's cards (a page of them): whether each of the buyer's holdings among `holdingIds` may be given now,
 * and if not why and, in the holding period, from when. Three statements whatever the page's size.
 */
export async function giftStates(ctx: UserScope, holdingIds: readonly number[]): Promise<Map<number, Lock | null>> {
  const states = new Map<number, Lock | null>();
  if (holdingIds.length === 0) return states;
  const rows = await ctx.db
    .select({ h: holdings, isBlindBox: commodities.isBlindBox })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(and(inArray(holdings.id, [...holdingIds]), eq(holdings.userId, ctx.userId), eq(holdings.channelId, ctx.channelId)));
  const hours = await holdingHoursOf(ctx.db, ctx.channelId);
  const orderIds = [...new Set(rows.map((r) => r.h.orderId).filter((id): id is number => id !== null))];
  const owed = new Set(
    orderIds.length === 0
      ? []
      : (
          await ctx.db
            .select({ orderId: orderRefunds.orderId })
            .from(orderRefunds)
            .where(and(inArray(orderRefunds.orderId, orderIds), eq(orderRefunds.status, 'owed')))
        ).map((r) => r.orderId),
  );
  const offered = new Set(
    (
      await ctx.db
        .select({ holdingId: holdingTransfers.holdingId })
        .from(holdingTransfers)
        .where(
          and(
            inArray(holdingTransfers.holdingId, [...holdingIds]),
            eq(holdingTransfers.status, 'pending'),
            sql`${holdingTransfers.expiresAt} > ${ctx.now.toISOString()}::timestamptz`,
          ),
        )
    ).map((r) => r.holdingId),
  );
  for (const { h, isBlindBox } of rows) {
    const from = giftableFrom(h, hours);
    let lock: Lock | null = null;
    if (isBlindBox) lock = { why: 'blindBox', from: null };
    else if (from > ctx.now) lock = { why: 'holdingPeriod', from };
    else if (h.chainStatus !== CHAIN_STATUS.onChain) lock = { why: 'chainPending', from: null };
    else if (h.orderId !== null && owed.has(h.orderId)) lock = { why: 'refundPending', from: null };
    else if (offered.has(h.id)) lock = { why: 'offered', from: null };
    states.set(h.id, lock);
  }
  return states;
}

/** The channel's holding period in hours, for the pages' words. */
export async function holdingPeriodHours(ctx: UserScope): Promise<number> {
  return holdingHoursOf(ctx.db, ctx.channelId);
}

/** Whether the buyer may give this held collectible now (the item's Give action), with its provenance. */
export async function giftability(ctx: UserScope, holdingId: number): Promise<Giftability> {
  await expireDueTransfers(ctx.db, ctx.now, { holdingId });
  const row = await heldBy(ctx.db, ctx, holdingId, false);
  const hours = await holdingHoursOf(ctx.db, ctx.channelId);
  const lock = await lockOf(ctx.db, row.h, row.isBlindBox, hours, ctx.now);
  return {
    holdingId: String(holdingId),
    collectible: { holdingId: String(holdingId), name: row.name, cover: row.cover, number: row.h.number, amountNumber: row.amountSku },
    canGive: lock === null,
    why: lock?.why ?? null,
    from: lock?.from?.toISOString() ?? null,
    provenance: await provenanceOf(ctx.db, row.h),
  };
}

/** Each holder of the edition, oldest first: the first from its mint, each next from an accepted gift. */
export async function provenanceOf(db: Db, holding: HoldingRow): Promise<Giftability['provenance']> {
  const accepted = await db
    .select({ senderId: holdingTransfers.senderId, receiverId: holdingTransfers.receiverId, at: holdingTransfers.answeredAt })
    .from(holdingTransfers)
    .where(and(eq(holdingTransfers.holdingId, holding.id), eq(holdingTransfers.status, 'accepted')))
    .orderBy(asc(holdingTransfers.answeredAt), asc(holdingTransfers.id));
  const first = accepted[0]?.senderId ?? holding.userId;
  const chain = [
    { userId: first, since: holding.createdAt },
    ...accepted.map((a) => ({ userId: a.receiverId, since: a.at ?? holding.createdAt })),
  ];
  const ids = [...new Set(chain.map((c) => c.userId))];
  const people = await db.select({ id: users.id, nickname: users.nickname, phone: users.phone }).from(users).where(inArray(users.id, ids));
  const names = new Map(people.map((p) => [p.id, maskedBuyerName(p)]));
  return chain.map((c) => ({ name: names.get(c.userId) ?? '****', since: c.since.toISOString() }));
}

/** Adds one gift message in the caller's transaction (the inbox, lib/notice/inbox.ts, renders it). */
async function tell(tx: Db, to: { channelId: number; userId: number }, kind: BuyerMessageKind, params: BuyerMessageParams, now: Date) {
  await tx.insert(buyerMessages).values({ channelId: to.channelId, userId: to.userId, kind, saleId: null, params, createdAt: now });
}

/**
 * transfer/give: offers one held edition to the buyer with this account number. The same idempotency key answers the
 * same gift; another gift of the edition already pending refuses (of two at once, one wins).
 */
export async function giveHolding(
  ctx: UserScope,
  input: { holdingId: number; accountNumber: string; idempotencyKey: string },
): Promise<TransferView> {
  const find = async () => {
    const [row] = await ctx.db
      .select()
      .from(holdingTransfers)
      .where(and(eq(holdingTransfers.senderId, ctx.userId), eq(holdingTransfers.idempotencyKey, input.idempotencyKey)))
      .limit(1);
    if (!row) return null;
    if (row.channelId !== ctx.channelId || row.holdingId !== input.holdingId) throw idempotencyKeyReused();
    return (await viewsOf(ctx.db, [row], ctx.userId))[0]!;
  };
  return claimOnce({
    find,
    make: async () => {
      await expireDueTransfers(ctx.db, ctx.now, { holdingId: input.holdingId });
      const receiver = await receiverFor(ctx, input.accountNumber);
      const hours = await holdingHoursOf(ctx.db, ctx.channelId);
      const row = await ctx.db.transaction(async (tx) => {
        const held = await heldBy(tx, ctx, input.holdingId, true);
        const lock = await lockOf(tx, held.h, held.isBlindBox, hours, ctx.now);
        if (lock) throw lockError(lock, hours);
        const [sent] = await tx
          .select({ n: count() })
          .from(holdingTransfers)
          .where(
            and(
              eq(holdingTransfers.senderId, ctx.userId),
              eq(holdingTransfers.channelId, ctx.channelId),
              gte(holdingTransfers.createdAt, new Date(ctx.now.getTime() - 24 * HOUR_MS)),
            ),
          );
        if (Number(sent?.n ?? 0) >= GIFTS_PER_DAY) {
          throw new AppError(429, msg('transferDailyLimit', { max: GIFTS_PER_DAY }), { reason: REASON.limit });
        }
        const expiresAt = new Date(ctx.now.getTime() + GIFT_ANSWER_HOURS * HOUR_MS);
        const [made] = await tx
          .insert(holdingTransfers)
          .values({
            channelId: ctx.channelId,
            holdingId: held.h.id,
            senderId: ctx.userId,
            receiverId: receiver.userId,
            status: 'pending',
            idempotencyKey: input.idempotencyKey,
            createdAt: ctx.now,
            expiresAt,
          })
          .returning();
        await tell(
          tx,
          { channelId: ctx.channelId, userId: receiver.userId },
          'giftOffered',
          { goods: held.name, number: String(held.h.number), who: await maskedNameOf(tx, ctx.userId), until: expiresAt.toISOString() },
          ctx.now,
        );
        return made!;
      });
      return (await viewsOf(ctx.db, [row], ctx.userId))[0]!;
    },
    // A copy of this tap that waited for the holding's lock finds the gift its twin made; another gift of the edition
    // that won the race refuses this one as already offered.
    otherwise: async (error) => {
      const again = await find();
      if (again) return again;
      if (error instanceof AppError) throw error;
      if (isPendingClash(error)) throw new AppError(409, msg('transferOffered'), { reason: REASON.changed });
      throw error;
    },
  });
}

function isPendingClash(error: unknown): boolean {
  const text = String((error as { cause?: unknown })?.cause ?? '') + String((error as Error)?.message ?? '');
  return text.includes('holding_transfers_one_pending') || /duplicate key|unique/i.test(text);
}

/** The pending gift to the caller with this id, locked with its holding; 404 when there is none for them, 409 answered. */
async function pendingFor(tx: Db, ctx: UserScope, transferId: number): Promise<TransferRow> {
  const [row] = await tx
    .select()
    .from(holdingTransfers)
    .where(
      and(eq(holdingTransfers.id, transferId), eq(holdingTransfers.receiverId, ctx.userId), eq(holdingTransfers.channelId, ctx.channelId)),
    )
    .limit(1);
  if (!row) throw new AppError(404, msg('transferNotFound'));
  // The holding first, as give does: the same lock order everywhere.
  await tx.select({ id: holdings.id }).from(holdings).where(eq(holdings.id, row.holdingId)).for('update');
  const [fresh] = await tx.select().from(holdingTransfers).where(eq(holdingTransfers.id, transferId)).for('update');
  if (fresh!.status === 'pending' && fresh!.expiresAt <= ctx.now) {
    await expireOne(tx, fresh!, ctx.now);
    throw new AppError(409, msg('transferAnswered', { status: 'expired' }), { reason: REASON.ended });
  }
  if (fresh!.status !== 'pending') throw new AppError(409, msg('transferAnswered', { status: fresh!.status }), { reason: REASON.ended });
  return fresh!;
}

/** transfer/accept: the receiver takes the gift. Final: the holding is theirs from now, its holding period starting again. */
export async function acceptTransfer(ctx: UserScope, transferId: number): Promise<TransferView> {
  const row = await ctx.db.transaction(async (tx) => {
    const gift = await pendingFor(tx, ctx, transferId);
    await requireGiftIdentities({ ...ctx, db: tx, userId: gift.senderId }, ctx.userId);
    const moved = await tx
      .update(holdings)
      .set({ userId: ctx.userId, receivedAt: ctx.now })
      .where(
        and(
          eq(holdings.id, gift.holdingId),
          eq(holdings.userId, gift.senderId),
          sql`${holdings.destroyedAt} is null`,
          sql`${holdings.refundedAt} is null`,
        ),
      )
      .returning({
        id: holdings.id,
        number: holdings.number,
        commodityId: holdings.commodityId,
        chainStatus: holdings.chainStatus,
        tokenId: holdings.tokenId,
      });
    if (moved.length === 0) {
      // Spent in an exchange or refunded since it was offered: the gift ends, nothing moves.
      await tx.update(holdingTransfers).set({ status: 'expired', answeredAt: ctx.now }).where(eq(holdingTransfers.id, gift.id));
      return { gone: true as const };
    }
    // An edition on chain (every one given is: chain-up pending locks it) gets the chain's transfer record, in this
    // same transaction: the ledger and the holder never disagree.
    let txHash: string | null = null;
    const edition = moved[0]!;
    if (edition.chainStatus === CHAIN_STATUS.onChain && edition.tokenId) {
      const owners = await tx
        .select({ id: users.id, uuid: users.uuid })
        .from(users)
        .where(inArray(users.id, [gift.senderId, ctx.userId]));
      const uuidOf = (id: number) => owners.find((o) => o.id === id)!.uuid;
      const receipt = await chainAdapter().transfer(
        tx,
        { holdingId: edition.id, tokenId: edition.tokenId, from: uuidOf(gift.senderId), to: uuidOf(ctx.userId) },
        ctx.now,
      );
      txHash = receipt.txHash;
    }
    const [done] = await tx
      .update(holdingTransfers)
      .set({ status: 'accepted', answeredAt: ctx.now, txHash })
      .where(eq(holdingTransfers.id, gift.id))
      .returning();
    const [c] = await tx.select({ name: commodities.name }).from(commodities).where(eq(commodities.id, moved[0]!.commodityId));
    await tell(
      tx,
      { channelId: gift.channelId, userId: gift.senderId },
      'giftAccepted',
      { goods: c?.name ?? '', number: String(moved[0]!.number), who: await maskedNameOf(tx, ctx.userId) },
      ctx.now,
    );
    return { gone: false as const, row: done! };
  });
  if (row.gone) throw new AppError(409, msg('transferGone'), { reason: REASON.changed });
  return (await viewsOf(ctx.db, [row.row], ctx.userId))[0]!;
}

/** transfer/refuse: the receiver declines; the edition stays with its sender, who is told. */
export async function refuseTransfer(ctx: UserScope, transferId: number): Promise<TransferView> {
  const row = await ctx.db.transaction(async (tx) => {
    const gift = await pendingFor(tx, ctx, transferId);
    const [done] = await tx
      .update(holdingTransfers)
      .set({ status: 'refused', answeredAt: ctx.now })
      .where(eq(holdingTransfers.id, gift.id))
      .returning();
    await tellReturned(tx, done!, ctx.now);
    return done!;
  });
  return (await viewsOf(ctx.db, [row], ctx.userId))[0]!;
}

async function tellReturned(tx: Db, gift: TransferRow, now: Date): Promise<void> {
  const [h] = await tx
    .select({ number: holdings.number, name: commodities.name })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(eq(holdings.id, gift.holdingId));
  await tell(
    tx,
    { channelId: gift.channelId, userId: gift.senderId },
    'giftReturned',
    { goods: h?.name ?? '', number: String(h?.number ?? ''), who: await maskedNameOf(tx, gift.receiverId) },
    now,
  );
}

async function expireOne(tx: Db, gift: TransferRow, now: Date): Promise<boolean> {
  const done = await tx
    .update(holdingTransfers)
    .set({ status: 'expired', answeredAt: now })
    .where(and(eq(holdingTransfers.id, gift.id), eq(holdingTransfers.status, 'pending')))
    .returning({ id: holdingTransfers.id });
  if (done.length === 0) return false;
  await tellReturned(tx, gift, now);
  return true;
}

/**
 * Gifts unanswered past their 72 hours go back to their senders (the jobs' pass, lib/jobs/runner.ts; also run lazily
 * before a read, narrowed to a holding or a buyer, so a stale gift never shows as pending). Answers how many it ended.
 */
export async function expireDueTransfers(
  db: Db,
  now: Date,
  only: { holdingId?: number; userId?: number } = {},
  limit = 500,
): Promise<number> {
  const due = await db
    .select()
    .from(holdingTransfers)
    .where(
      and(
        eq(holdingTransfers.status, 'pending'),
        lte(holdingTransfers.expiresAt, now),
        only.holdingId === undefined ? undefined : eq(holdingTransfers.holdingId, only.holdingId),
        only.userId === undefined
          ? undefined
          : or(eq(holdingTransfers.senderId, only.userId), eq(holdingTransfers.receiverId, only.userId)),
      ),
    )
    .orderBy(asc(holdingTransfers.expiresAt))
    .limit(limit);
  let ended = 0;
  for (const gift of due) {
    if (await db.transaction((tx) => expireOne(tx, gift, now))) ended += 1;
  }
  return ended;
}

/** transfer/incoming: the gifts waiting for the caller's answer, newest first. */
export async function listIncoming(ctx: UserScope): Promise<TransferView[]> {
  await expireDueTransfers(ctx.db, ctx.now, { userId: ctx.userId });
  const rows = await ctx.db
    .select()
    .from(holdingTransfers)
    .where(
      and(
        eq(holdingTransfers.receiverId, ctx.userId),
        eq(holdingTransfers.channelId, ctx.channelId),
        eq(holdingTransfers.status, 'pending'),
      ),
    )
    .orderBy(desc(holdingTransfers.createdAt), desc(holdingTransfers.id))
    .limit(100);
  return viewsOf(ctx.db, rows, ctx.userId);
}

/** How many gifts wait for the caller's answer (Mine's dot). */
export async function countIncoming(ctx: UserScope): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(holdingTransfers)
    .where(
      and(
        eq(holdingTransfers.receiverId, ctx.userId),
        eq(holdingTransfers.channelId, ctx.channelId),
        eq(holdingTransfers.status, 'pending'),
        sql`${holdingTransfers.expiresAt} > ${ctx.now.toISOString()}::timestamptz`,
      ),
    );
  return Number(row?.n ?? 0);
}

/** transfer/records: the gifts the caller gave or was given on this channel, whatever became of them, newest first. */
export async function listRecords(ctx: UserScope, paging: Paging): Promise<Page<TransferView>> {
  await expireDueTransfers(ctx.db, ctx.now, { userId: ctx.userId });
  const mine = and(
    eq(holdingTransfers.channelId, ctx.channelId),
    or(eq(holdingTransfers.senderId, ctx.userId), eq(holdingTransfers.receiverId, ctx.userId)),
  );
  const [total] = await ctx.db.select({ n: count() }).from(holdingTransfers).where(mine);
  const rows = await ctx.db
    .select()
    .from(holdingTransfers)
    .where(mine)
    .orderBy(desc(holdingTransfers.createdAt), desc(holdingTransfers.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(await viewsOf(ctx.db, rows, ctx.userId), Number(total?.n ?? 0), paging);
}

/** The gifts as `viewer` sees them: the collectible, and the other buyer masked. */
async function viewsOf(db: Db, rows: TransferRow[], viewer: number): Promise<TransferView[]> {
  if (rows.length === 0) return [];
  const other = aliasedTable(users, 'other');
  const ids = rows.map((r) => r.id);
  const details = await db
    .select({
      id: holdingTransfers.id,
      number: holdings.number,
      name: commodities.name,
      cover: commodities.cover,
      amountSku: commodities.amountSku,
      nickname: other.nickname,
      phone: other.phone,
    })
    .from(holdingTransfers)
    .innerJoin(holdings, eq(holdings.id, holdingTransfers.holdingId))
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .innerJoin(
      other,
      eq(
        other.id,
        sql`case when ${holdingTransfers.senderId} = ${viewer} then ${holdingTransfers.receiverId} else ${holdingTransfers.senderId} end`,
      ),
    )
    .where(inArray(holdingTransfers.id, ids));
  const byId = new Map(details.map((d) => [d.id, d]));
  return rows.map((r) => {
    const d = byId.get(r.id)!;
    return {
      id: String(r.id),
      direction: r.senderId === viewer ? 'sent' : 'received',
      status: r.status,
      collectible: { holdingId: String(r.holdingId), name: d.name, cover: d.cover, number: d.number, amountNumber: d.amountSku },
      otherName: maskedBuyerName({ nickname: d.nickname, phone: d.phone }),
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      answeredAt: r.answeredAt?.toISOString() ?? null,
      txHash: r.txHash,
    };
  });
}

/** The caller's own account number on the channel (the give page shows it so a friend can give back). */
export async function myAccountNumber(ctx: UserScope): Promise<string> {
  return accountNumberOf(ctx.db, ctx.channelId, ctx.userId, ctx.now);
}
