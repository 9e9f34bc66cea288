import 'server-only';
import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  authSessions,
  buyerIdentities,
  channels,
  commodities,
  holdings,
  holdingTransfers,
  orderRefunds,
  orders,
  users,
} from '../db/schema';
import { writeInvalidating } from '../cache/store';
import { sessionTags } from '../auth/sessions';
import { sendCode, verifyCode, type CodeCtx } from '../auth/sms-codes';
import type { SendCodeResult } from '../auth/schema';
import { ORDER_STATUS } from '../order/status';
import { expireOverdueOrders } from '../order/service';
import { refuseTransfer } from '../transfer/service';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { UserScope } from '../procedure/scope';
import type { ClosingView } from './profile-schema';

/**
 * Closing an account (issue 36; docs/profile.md, "Closing the account"; docs/security.md, "Closed accounts"). The buyer
 * sees what they still hold on every channel (forfeited at closing: give it away first), asks for an SMS code of its
 * own purpose ('close'), and closes with it. Refused while an order waits for payment or a refund is owed to them. The
 * account is closed on every channel at once: sessions ended everywhere, the phone released (a new login with it makes a
 * fresh account), nickname and avatar cleared; the verified identity, orders and holdings stay with the closed account
 * for the stated period, so identity limits and identity blocks still apply.
 */

/** What a closed account's phone column holds: never a phone number, unique per account. */
export function closedPhone(userId: number): string {
  return `closed:${userId}`;
}

/** Collectibles the buyer still holds on any channel (not spent in an exchange, not taken back by a refund). */
async function heldBy(db: Db, userId: number, channelId: number): Promise<ClosingView['held']> {
  const rows = await db
    .select({ channel: channels.name, channelId: holdings.channelId, name: commodities.name, number: holdings.number })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .innerJoin(channels, eq(channels.id, holdings.channelId))
    .where(and(eq(holdings.userId, userId), isNull(holdings.destroyedAt), isNull(holdings.refundedAt)))
    .orderBy(asc(holdings.channelId), asc(holdings.createdAt), asc(holdings.id))
    .limit(500);
  return rows.map((r) => ({ channel: r.channel, name: r.name, number: r.number, here: r.channelId === channelId }));
}

/** What keeps the account from closing now: orders waiting for payment, refunds owed to the buyer (every channel). */
async function blockersOf(db: Db, userId: number, now: Date): Promise<ClosingView['blockers']> {
  const [toPay] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.statusTrade, ORDER_STATUS.toPay), gt(orders.expiresAt, now)));
  const [owed] = await db
    .select({ n: count() })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(and(eq(orders.userId, userId), eq(orderRefunds.status, 'owed')));
  return { toPay: toPay?.n ?? 0, refundsOwed: owed?.n ?? 0 };
}

async function pendingGifts(db: Db, userId: number, side: 'sent' | 'received') {
  return db
    .select({ id: holdingTransfers.id, channelId: holdingTransfers.channelId })
    .from(holdingTransfers)
    .where(
      and(eq(holdingTransfers.status, 'pending'), eq(side === 'sent' ? holdingTransfers.senderId : holdingTransfers.receiverId, userId)),
    );
}

/** profile/closing: what the closing page lists before the buyer confirms. */
export async function closingState(ctx: UserScope): Promise<ClosingView> {
  const [held, blockers, sent] = await Promise.all([
    heldBy(ctx.db, ctx.userId, ctx.channelId),
    blockersOf(ctx.db, ctx.userId, ctx.now),
    pendingGifts(ctx.db, ctx.userId, 'sent'),
  ]);
  return { held, blockers, pendingGiftsSent: sent.length, canClose: blockers.toPay === 0 && blockers.refundsOwed === 0 };
}

function refuseBlocked(blockers: ClosingView['blockers']): void {
  if (blockers.toPay > 0) throw new AppError(409, msg('profileCloseToPay', { count: blockers.toPay }));
  if (blockers.refundsOwed > 0) throw new AppError(409, msg('profileCloseRefundOwed', { count: blockers.refundsOwed }));
}

async function phoneOf(db: Db, userId: number): Promise<string> {
  const [row] = await db.select({ phone: users.phone, closedAt: users.closedAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row || row.closedAt) throw new AppError(401, msg('notLoggedIn'));
  return row.phone;
}

/**
 * profile/closeCode: sends the buyer's own phone a closing code (purpose 'close': it logs no one in, and a login code
 * does not close). The SMS limits of a login code apply (per address, device, phone and the channel's budget); refused
 * at once when the account cannot close yet, so no text is spent on a closing that would be refused.
 */
export async function sendClosingCode(ctx: Omit<CodeCtx, 'purpose'> & { userId: number }): Promise<SendCodeResult> {
  refuseBlocked(await blockersOf(ctx.db, ctx.userId, ctx.now));
  return sendCode({ ...ctx, purpose: 'close' }, await phoneOf(ctx.db, ctx.userId));
}

/**
 * profile/close: with the right closing code, closes the account on every channel. Gifts waiting for the buyer's answer
 * are refused first (they go back to their senders); gifts the buyer sent stay open and are honoured when accepted.
 * Answers the token hashes of the sessions it ended (their cached reads are dropped with the commit).
 */
export async function closeAccount(
  ctx: Pick<CodeCtx, 'db' | 'now' | 'channelId' | 'secret' | 'addressLimits'> & { ip: string; userId: number },
  code: string,
): Promise<{ closed: true; sessionsEnded: number }> {
  const phone = await phoneOf(ctx.db, ctx.userId);
  refuseBlocked(await blockersOf(ctx.db, ctx.userId, ctx.now));
  await verifyCode({ ...ctx, purpose: 'close' }, phone, code);
  // Unpaid orders past their time give their copies and quota back now, while the account can still be named: the
  // quotas a closed account keeps move to the same person's next verified account (lib/identity/service.ts).
  await expireOverdueOrders(ctx.db, ctx.now, { userId: ctx.userId });

  for (const gift of await pendingGifts(ctx.db, ctx.userId, 'received')) {
    try {
      await refuseTransfer({ db: ctx.db, now: ctx.now, channelId: gift.channelId, userId: ctx.userId }, gift.id);
    } catch (error) {
      // Answered or expired meanwhile: nothing is waiting any more.
      if (!(error instanceof AppError)) throw error;
    }
  }

  const ended = await writeInvalidating(ctx.db, async (tx, changed) => {
    // The buyer's row first: a closing and a buy or a login of the same account wait for each other.
    const [user] = await tx.select({ closedAt: users.closedAt }).from(users).where(eq(users.id, ctx.userId)).for('update');
    if (!user || user.closedAt) throw new AppError(401, msg('notLoggedIn'));
    // Checked again under the lock: an order placed since the page was read keeps the account open.
    refuseBlocked(await blockersOf(tx, ctx.userId, ctx.now));
    await tx
      .update(users)
      .set({ phone: closedPhone(ctx.userId), nickname: null, avatar: null, closedAt: ctx.now })
      .where(eq(users.id, ctx.userId));
    // The verified identity stays with the closed account, marked closed: the same person may verify a new account,
    // whose limits then count this one's (lib/identity/service.ts, docs/security.md "Closed accounts").
    await tx.update(buyerIdentities).set({ closedAt: ctx.now }).where(eq(buyerIdentities.userId, ctx.userId));
    const sessions = await tx
      .update(authSessions)
      .set({ revokedAt: ctx.now })
      .where(and(eq(authSessions.userId, ctx.userId), isNull(authSessions.revokedAt)))
      .returning({ tokenHash: authSessions.tokenHash });
    changed(sessionTags(sessions.map((s) => s.tokenHash)));
    return sessions.length;
  });
  return { closed: true, sessionsEnded: ended };
}
