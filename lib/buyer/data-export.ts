import 'server-only';
import { and, asc, eq, or } from 'drizzle-orm';
import { commodities, holdings, holdingTransfers, orders, sales, users } from '../db/schema';
import { accountNumberOf } from '../auth/account-numbers';
import type { UserScope } from '../procedure/scope';
import { listLogins, LOGINS_SHOWN } from './profile';

/**
 * The buyer's data on this channel as a file (issue 36; docs/profile.md, "Your data"): their profile, orders,
 * collectibles held or once held, gifts given and received, and logins. Only the caller's own rows, only this channel's
 * (another store's data is that store's file). Amounts in fen, times in ISO 8601 (UTC).
 */
export type BuyerDataFile = Awaited<ReturnType<typeof buyerData>>;

/** At most this many rows of each list (a buyer's lifetime here is far below it). */
const MAX_ROWS = 10_000;

export async function buyerData(ctx: UserScope, currentTokenHash: string | null) {
  const { db, userId, channelId } = ctx;
  const [user] = await db
    .select({ uuid: users.uuid, phone: users.phone, nickname: users.nickname, avatar: users.avatar, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const orderRows = await db
    .select({
      orderNo: orders.orderNo,
      goods: commodities.name,
      quantity: orders.quantity,
      price: orders.price,
      amount: orders.amount,
      statusTrade: orders.statusTrade,
      cancelReason: orders.cancelReason,
      createdAt: orders.createdAt,
      payTime: orders.payTime,
      cancelTime: orders.cancelTime,
    })
    .from(orders)
    .innerJoin(sales, eq(sales.id, orders.saleId))
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(and(eq(orders.userId, userId), eq(orders.channelId, channelId)))
    .orderBy(asc(orders.createdAt))
    .limit(MAX_ROWS);
  const holdingRows = await db
    .select({
      id: holdings.id,
      goods: commodities.name,
      number: holdings.number,
      source: holdings.source,
      acquiredAt: holdings.createdAt,
      receivedAt: holdings.receivedAt,
      openedAt: holdings.openedAt,
      destroyedAt: holdings.destroyedAt,
      refundedAt: holdings.refundedAt,
      tokenId: holdings.tokenId,
      tradeHash: holdings.tradeHash,
    })
    .from(holdings)
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(and(eq(holdings.userId, userId), eq(holdings.channelId, channelId)))
    .orderBy(asc(holdings.createdAt), asc(holdings.id))
    .limit(MAX_ROWS);
  const giftRows = await db
    .select({
      id: holdingTransfers.id,
      senderId: holdingTransfers.senderId,
      goods: commodities.name,
      number: holdings.number,
      status: holdingTransfers.status,
      createdAt: holdingTransfers.createdAt,
      answeredAt: holdingTransfers.answeredAt,
      txHash: holdingTransfers.txHash,
    })
    .from(holdingTransfers)
    .innerJoin(holdings, eq(holdings.id, holdingTransfers.holdingId))
    .innerJoin(commodities, eq(commodities.id, holdings.commodityId))
    .where(
      and(eq(holdingTransfers.channelId, channelId), or(eq(holdingTransfers.senderId, userId), eq(holdingTransfers.receiverId, userId))),
    )
    .orderBy(asc(holdingTransfers.createdAt))
    .limit(MAX_ROWS);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    exportedAt: ctx.now.toISOString(),
    profile: {
      accountNumber: await accountNumberOf(db, channelId, userId, ctx.now),
      phone: user?.phone ?? null,
      nickname: user?.nickname ?? null,
      avatar: user?.avatar ?? null,
      memberSince: iso(user?.createdAt ?? null),
    },
    orders: orderRows.map((o) => ({
      orderNo: o.orderNo,
      goods: o.goods,
      quantity: o.quantity,
      priceFen: o.price,
      amountFen: o.amount,
      status: (['toPay', 'paid', 'cancelled', 'closed'] as const)[o.statusTrade] ?? String(o.statusTrade),
      cancelReason: o.cancelReason,
      createdAt: iso(o.createdAt),
      paidAt: iso(o.payTime),
      cancelledAt: iso(o.cancelTime),
    })),
    holdings: holdingRows.map((h) => ({
      goods: h.goods,
      number: h.number,
      source: h.source,
      acquiredAt: iso(h.acquiredAt),
      receivedAt: iso(h.receivedAt),
      openedAt: iso(h.openedAt),
      spentAt: iso(h.destroyedAt),
      refundedAt: iso(h.refundedAt),
      tokenId: h.tokenId,
      chainTxHash: h.tradeHash,
    })),
    gifts: giftRows.map((g) => ({
      direction: g.senderId === userId ? ('given' as const) : ('received' as const),
      goods: g.goods,
      number: g.number,
      status: g.status,
      createdAt: iso(g.createdAt),
      answeredAt: iso(g.answeredAt),
      chainTxHash: g.txHash,
    })),
    /** The last logins on this channel, as the profile page lists them (older ones are no longer kept). */
    logins: (await listLogins(ctx, currentTokenHash))
      .slice(0, LOGINS_SHOWN)
      .map((l) => ({ at: l.at, device: l.device, address: l.address, current: l.current })),
  };
}

/** The file's name: the store and the day (`storefront-AURORA-2026-11-28.json`). */
export function buyerDataFileName(channelKey: string, now: Date): string {
  return `storefront-${channelKey.replace(/[^A-Za-z0-9]/g, '')}-${now.toISOString().slice(0, 10)}.json`;
}
