import 'server-only';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buyerMessages, type BuyerMessageKind, type BuyerMessageParams } from '../db/schema';
import { formatDate } from '../format/date';
import type { Locale } from '../i18n/locale';
import { translator } from '../i18n/translator';
import type { UserScope } from '../procedure/scope';

/**
 * A buyer's own messages on a channel (issue 35, "notices tell winners"; issue 36 adds gifts): beside the channel-wide
 * notices (./service.ts), what the store tells one buyer. A message is stored as its kind and parameters and renders in
 * the language of the page or call that reads it (catalogue namespace `inbox`). The buyer reads them at /mine/messages
 * (newest first, pages of 20), sees the unread count on Mine, and opening the list marks them read.
 *
 * Writers add them in their own transaction: `addMessages` here (a multi-row insert), or one INSERT … SELECT of their
 * own where the recipients are many (the lottery's rounds, lib/sale/lottery-messages.ts: the sale layer sits below this
 * one). Either way at most one message per buyer, kind and sale (`buyer_messages_once`): a re-run adds none.
 */

/** A page of the buyer's messages (issue 35: pages of 20). */
export const INBOX_PAGE_SIZE = 20;

/** The most ids one `message/read` call marks (a page is 20; a client that sends more sends a mistake). */
export const READ_IDS_MAX = 100;

export type NewBuyerMessage = {
  channelId: number;
  userId: number;
  kind: BuyerMessageKind;
  saleId: number | null;
  params: BuyerMessageParams;
};

/** Adds messages in the caller's transaction, one statement; a (buyer, kind, sale) already told is skipped. Answers how many were added. */
export async function addMessages(tx: Db, messages: readonly NewBuyerMessage[], now: Date): Promise<number> {
  if (messages.length === 0) return 0;
  const added = await tx
    .insert(buyerMessages)
    .values(messages.map((m) => ({ ...m, createdAt: now })))
    .onConflictDoNothing({ target: [buyerMessages.userId, buyerMessages.kind, buyerMessages.saleId] })
    .returning({ id: buyerMessages.id });
  return added.length;
}

export type BuyerMessageRow = typeof buyerMessages.$inferSelect;

/** The buyer's messages on the channel. */
function mine({ channelId, userId }: UserScope) {
  return and(eq(buyerMessages.userId, userId), eq(buyerMessages.channelId, channelId));
}

/** One page (1-based) of the buyer's messages on the channel, newest first, with their total and how many are unread. */
export async function listMessages(
  scope: UserScope,
  page: number,
): Promise<{ rows: BuyerMessageRow[]; total: number; unread: number; pages: number }> {
  const [rows, [counts]] = await Promise.all([
    scope.db
      .select()
      .from(buyerMessages)
      .where(mine(scope))
      .orderBy(desc(buyerMessages.createdAt), desc(buyerMessages.id))
      .limit(INBOX_PAGE_SIZE)
      .offset((page - 1) * INBOX_PAGE_SIZE),
    scope.db
      .select({ total: count(), unread: sql<number>`count(*) filter (where ${buyerMessages.readAt} is null)` })
      .from(buyerMessages)
      .where(mine(scope)),
  ]);
  const total = Number(counts?.total ?? 0);
  return { rows, total, unread: Number(counts?.unread ?? 0), pages: Math.ceil(total / INBOX_PAGE_SIZE) };
}

/** How many of the buyer's messages on the channel are unread (Mine's badge). */
export async function unreadMessageCount(scope: UserScope): Promise<number> {
  const [row] = await scope.db
    .select({ value: count() })
    .from(buyerMessages)
    .where(and(mine(scope), isNull(buyerMessages.readAt)));
  return Number(row?.value ?? 0);
}

/**
 * Marks the buyer's messages read: those of `ids` that are theirs on this channel (another buyer's, another channel's
 * or made-up ids are ignored), or every one with `all`. Already read ones keep their time. Answers how many it marked.
 */
export async function markMessagesRead(scope: UserScope, which: { ids?: readonly number[]; all?: boolean }): Promise<number> {
  const ids = which.all ? null : [...new Set(which.ids ?? [])];
  if (ids !== null && ids.length === 0) return 0;
  const marked = await scope.db
    .update(buyerMessages)
    .set({ readAt: scope.now })
    .where(and(mine(scope), isNull(buyerMessages.readAt), ids === null ? undefined : inArray(buyerMessages.id, ids)))
    .returning({ id: buyerMessages.id });
  return marked.length;
}

/** A message as the buyer reads it, in their language. */
export type BuyerMessageView = {
  id: string;
  kind: BuyerMessageKind;
  title: string;
  body: string;
  saleId: string | null;
  /** Where tapping it goes: the goods page of its sale; null for a message of no sale. */
  href: string | null;
  createdAt: string;
  read: boolean;
};

/** Renders a stored message in `locale`, its times in the channel's time zone. */
export function renderMessage(row: BuyerMessageRow, locale: Locale, timeZone: string): BuyerMessageView {
  const t = translator(locale);
  const values = {
    goods: row.params.goods ?? '',
    until: row.params.until ? formatDate(row.params.until, 'MM-dd HH:mm', timeZone) : '',
    number: row.params.number ?? '',
    who: row.params.who ?? '',
  };
  return {
    id: String(row.id),
    kind: row.kind,
    title: t(`inbox.${row.kind}.title`, values),
    body: t(`inbox.${row.kind}.body`, values),
    saleId: row.saleId === null ? null : String(row.saleId),
    // A gift's message (issue 36) opens the buyer's gifts: the incoming ones, or the records for the sender's.
    href:
      row.saleId !== null
        ? `/goods/detail/${row.saleId}`
        : row.kind === 'giftOffered'
          ? '/mine/gifts'
          : row.kind.startsWith('gift')
            ? '/mine/gifts/records'
            : null,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}
