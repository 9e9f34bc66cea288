import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedOn } from '../db/prepared';
import {
  buyerAccountNumbers,
  buyerIdentities,
  buyerMessages,
  commodities,
  holdings,
  holdingTransfers,
  notices,
  noticeSeen,
  orders,
  users,
} from '../db/schema';
import { ORDER_STATUS } from '../order/status';
import type { UserScope } from '../procedure/scope';

/**
 * What /mine shows of the buyer at a glance (issue 17, item 9; issue 32; issue 33): how many collectibles they hold,
 * boxes they have to open, orders waiting for payment, notices they have not seen, their account number on the channel
 * and their verified name (masked). Each was its own statement (a list's count and first row, the overdue orders
 * expired on the way, the notice marker and then its count: eight statements and as many round trips per page load);
 * issue 34 reads them in ONE, so Mine costs about what its session read costs.
 *
 * The numbers are the ones the lists show (lib/collection/service.ts, lib/order/service.ts, lib/notice/service.ts):
 * - collectibles: `listCollection`'s total (not a blind box, not destroyed, not taken back by a refund);
 * - boxes: `countUnopenedBoxes` (a blind box, unopened, not refunded);
 * - to pay: `listOrders`' total of unpaid orders once the overdue ones are expired, i.e. unpaid and not yet due
 *   (an overdue order is expired by the records page, a buy, or the jobs runner; Mine only reads);
 * - unread: `unreadNoticeCount` (visible now, and published or written after the buyer's marker, if any);
 * - unread messages: `unreadMessageCount` (lib/notice/inbox.ts, issue 35: the buyer's own messages not read yet);
 * - incoming gifts: `countIncoming` (lib/transfer/service.ts, issue 36: gifts waiting for their answer, not yet due).
 */
export type MineSummary = {
  collectibles: number;
  boxes: number;
  toPay: number;
  unreadNotices: number;
  unreadMessages: number;
  incomingGifts: number;
  /** Null until anyone first needed it (`accountNumberOf` makes it). */
  accountNumber: string | null;
  /** The verified name, masked; null when the buyer has not verified. */
  identityName: string | null;
};

export async function readMineSummary(scope: UserScope): Promise<MineSummary> {
  const query = preparedOn(scope.db, 'mine_summary', (db: Db) => {
    const userId = sql.placeholder('userId');
    const channelId = sql.placeholder('channelId');
    const now = sql`${sql.placeholder('now')}::timestamptz`;
    const held = sql`from ${holdings} inner join ${commodities} on ${commodities.id} = ${holdings.commodityId}
      where ${holdings.userId} = ${userId} and ${holdings.channelId} = ${channelId} and ${holdings.refundedAt} is null`;
    return db
      .select({
        collectibles: sql<number>`(select count(*)::int ${held} and ${commodities.isBlindBox} = false and ${holdings.destroyedAt} is null)`,
        boxes: sql<number>`(select count(*)::int ${held} and ${commodities.isBlindBox} = true and ${holdings.openedAt} is null)`,
        toPay: sql<number>`(select count(*)::int from ${orders} where ${orders.userId} = ${userId} and ${orders.channelId} = ${channelId}
          and ${orders.statusTrade} = ${ORDER_STATUS.toPay} and ${orders.expiresAt} > ${now})`,
        unreadNotices: sql<number>`(select count(*)::int from ${notices} where ${notices.channelId} = ${channelId}
          and ${notices.publishAt} <= ${now} and ${notices.withdrawnAt} is null
          and not exists (select 1 from ${noticeSeen} where ${noticeSeen.userId} = ${userId} and ${noticeSeen.channelId} = ${channelId}
            and ${notices.publishAt} <= ${noticeSeen.seenAt} and ${notices.createdAt} <= ${noticeSeen.seenAt}))`,
        unreadMessages: sql<number>`(select count(*)::int from ${buyerMessages} where ${buyerMessages.userId} = ${userId}
          and ${buyerMessages.channelId} = ${channelId} and ${buyerMessages.readAt} is null)`,
        incomingGifts: sql<number>`(select count(*)::int from ${holdingTransfers} where ${holdingTransfers.receiverId} = ${userId}
          and ${holdingTransfers.channelId} = ${channelId} and ${holdingTransfers.status} = 'pending' and ${holdingTransfers.expiresAt} > ${now})`,
        accountNumber: sql<string | null>`(select ${buyerAccountNumbers.number} from ${buyerAccountNumbers}
          where ${buyerAccountNumbers.channelId} = ${channelId} and ${buyerAccountNumbers.userId} = ${userId})`,
        identityName: sql<
          string | null
        >`(select ${buyerIdentities.maskedName} from ${buyerIdentities} where ${buyerIdentities.userId} = ${userId})`,
      })
      .from(users)
      .where(eq(users.id, userId))
      .prepare('mine_summary');
  });
  const [row] = await query.execute({ userId: scope.userId, channelId: scope.channelId, now: scope.now.toISOString() });
  if (!row)
    return {
      collectibles: 0,
      boxes: 0,
      toPay: 0,
      unreadNotices: 0,
      unreadMessages: 0,
      incomingGifts: 0,
      accountNumber: null,
      identityName: null,
    };
  // PGlite and postgres.js both answer int4 as a number; Number() keeps a driver that answers text honest.
  return {
    collectibles: Number(row.collectibles),
    boxes: Number(row.boxes),
    toPay: Number(row.toPay),
    unreadNotices: Number(row.unreadNotices),
    unreadMessages: Number(row.unreadMessages),
    incomingGifts: Number(row.incomingGifts),
    accountNumber: row.accountNumber,
    identityName: row.identityName,
  };
}
