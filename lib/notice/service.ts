import 'server-only';
import { and, count, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { noticeSeen, notices, type NoticeType } from '../db/schema';
import { invalidate, tags } from '../cache/store';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { toPage, type Page, type Paging } from '../procedure/paging';
import type { ChannelScope, UserScope } from '../procedure/scope';
import type { NoticeAdminView, NoticeView } from './schema';

/**
 * A channel's notices to its buyers (issue 32, "Notices and a drop calendar"). The store shows a notice from its
 * publish time on until it is withdrawn, newest first, and only on its own channel. A buyer's unread notices are those
 * that became visible after they last opened the list (`notice_seen`); "became visible" is the later of its publish
 * time and its creation, so a notice written today with yesterday's publish time still shows the dot.
 */

type NoticeRow = typeof notices.$inferSelect;

function toView(row: NoticeRow): NoticeView {
  return { id: String(row.id), type: row.type, title: row.title, body: row.body, publishTime: row.publishAt.toISOString() };
}

export function toAdminView(row: NoticeRow, now: Date): NoticeAdminView {
  return {
    ...toView(row),
    withdrawnTime: row.withdrawnAt?.toISOString() ?? null,
    state: row.withdrawnAt ? 'withdrawn' : row.publishAt.getTime() > now.getTime() ? 'scheduled' : 'published',
    createdTime: row.createdAt.toISOString(),
    updatedTime: row.updatedAt.toISOString(),
  };
}

/** What the store shows of a channel at `now`: published, not withdrawn. */
function visible(channelId: number, now: Date) {
  return and(eq(notices.channelId, channelId), lte(notices.publishAt, now), isNull(notices.withdrawnAt));
}

/** The channel's published notices, newest first, paged. */
export async function listNotices({ db, now, channelId }: ChannelScope, paging: Paging): Promise<Page<NoticeView>> {
  const where = visible(channelId, now);
  const [total] = await db.select({ value: count() }).from(notices).where(where);
  const rows = await db
    .select()
    .from(notices)
    .where(where)
    .orderBy(desc(notices.publishAt), desc(notices.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(rows.map(toView), total?.value ?? 0, paging);
}

/** One published notice of the channel, or null (another channel's, scheduled, withdrawn or made up). */
export async function findNotice({ db, now, channelId }: ChannelScope, id: number): Promise<NoticeView | null> {
  const [row] = await db
    .select()
    .from(notices)
    .where(and(eq(notices.id, id), visible(channelId, now)))
    .limit(1);
  return row ? toView(row) : null;
}

/** One published notice, or the refusal a buyer sees (404: gone or never there). */
export async function getNotice(scope: ChannelScope, id: number): Promise<NoticeView> {
  const notice = await findNotice(scope, id);
  if (!notice) throw new AppError(404, msg('noticeNotFound'));
  return notice;
}

/** How many of the channel's published notices the buyer has not seen (the footer's dot). */
export async function unreadNoticeCount({ db, now, channelId, userId }: UserScope): Promise<number> {
  const [seen] = await db
    .select({ at: noticeSeen.seenAt })
    .from(noticeSeen)
    .where(and(eq(noticeSeen.userId, userId), eq(noticeSeen.channelId, channelId)))
    .limit(1);
  const where = seen
    ? and(visible(channelId, now), or(gt(notices.publishAt, seen.at), gt(notices.createdAt, seen.at)))
    : visible(channelId, now);
  const [row] = await db.select({ value: count() }).from(notices).where(where);
  return row?.value ?? 0;
}

/** The buyer opened the notice list: every notice visible now is read. Never moves the marker back. */
export async function markNoticesRead({ db, now, channelId, userId }: UserScope): Promise<void> {
  await db
    .insert(noticeSeen)
    .values({ userId, channelId, seenAt: now })
    .onConflictDoUpdate({
      target: [noticeSeen.userId, noticeSeen.channelId],
      set: { seenAt: sql`greatest(${noticeSeen.seenAt}, excluded.seen_at)` },
    });
}

// --- The console's side (lib/operator/notice-procedures.ts) ---

/** What an operator writes. */
export type NoticeDraft = { type: NoticeType; title: string; body: string; publishAt: Date };

/** The audit hook of a write: the notice before and after, in the write's transaction (issue 31's trail). */
export type NoticeAudit = (tx: Db, change: { channelId: number; before: unknown; after: unknown }) => Promise<void>;

/** Every notice of a channel as the console lists it (scheduled, published and withdrawn), newest publish time first. */
export async function listChannelNotices(db: Db, channelId: number, now: Date, paging: Paging): Promise<Page<NoticeAdminView>> {
  const where = eq(notices.channelId, channelId);
  const [total] = await db.select({ value: count() }).from(notices).where(where);
  const rows = await db
    .select()
    .from(notices)
    .where(where)
    .orderBy(desc(notices.publishAt), desc(notices.id))
    .limit(paging.pageSize)
    .offset((paging.pageCount - 1) * paging.pageSize);
  return toPage(
    rows.map((row) => toAdminView(row, now)),
    total?.value ?? 0,
    paging,
  );
}

async function channelNotice(db: Db, channelId: number, id: number): Promise<NoticeRow> {
  const [row] = await db
    .select()
    .from(notices)
    .where(and(eq(notices.id, id), eq(notices.channelId, channelId)))
    .limit(1)
    .for('update');
  if (!row) throw new AppError(404, msg('noticeNotFound'));
  return row;
}

/** The store shows a change at once: its cached notice reads carry the channel's notices tag (docs/caching.md). */
function changed(db: Db, channelId: number): void {
  invalidate(db, [tags.notices(channelId)]);
}

export async function createNotice(
  db: Db,
  channelId: number,
  draft: NoticeDraft,
  by: { operatorId: number; now: Date },
  audit: NoticeAudit,
): Promise<NoticeAdminView> {
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(notices)
      .values({
        channelId,
        ...draft,
        createdAt: by.now,
        updatedAt: by.now,
        createdBy: by.operatorId || null,
        updatedBy: by.operatorId || null,
      })
      .returning();
    await audit(tx, { channelId, before: null, after: toAdminView(created!, by.now) });
    return created!;
  });
  changed(db, channelId);
  return toAdminView(row, by.now);
}

/** Edits a notice; a withdrawn one stays as it was withdrawn (refused). */
export async function updateNotice(
  db: Db,
  channelId: number,
  id: number,
  draft: NoticeDraft,
  by: { operatorId: number; now: Date },
  audit: NoticeAudit,
): Promise<NoticeAdminView> {
  const row = await db.transaction(async (tx) => {
    const before = await channelNotice(tx, channelId, id);
    if (before.withdrawnAt) throw new AppError(409, msg('noticeWithdrawn'));
    const [after] = await tx
      .update(notices)
      .set({ ...draft, updatedAt: by.now, updatedBy: by.operatorId || null })
      .where(eq(notices.id, id))
      .returning();
    await audit(tx, { channelId, before: toAdminView(before, by.now), after: toAdminView(after!, by.now) });
    return after!;
  });
  changed(db, channelId);
  return toAdminView(row, by.now);
}

/** Withdraws a notice: gone from the store at once; kept for the console and the trail. Twice is once. */
export async function withdrawNotice(
  db: Db,
  channelId: number,
  id: number,
  by: { operatorId: number; now: Date },
  audit: NoticeAudit,
): Promise<NoticeAdminView> {
  const row = await db.transaction(async (tx) => {
    const before = await channelNotice(tx, channelId, id);
    if (before.withdrawnAt) {
      await audit(tx, { channelId, before: toAdminView(before, by.now), after: toAdminView(before, by.now) });
      return before;
    }
    const [after] = await tx
      .update(notices)
      .set({ withdrawnAt: by.now, updatedAt: by.now, updatedBy: by.operatorId || null })
      .where(eq(notices.id, id))
      .returning();
    await audit(tx, { channelId, before: toAdminView(before, by.now), after: toAdminView(after!, by.now) });
    return after!;
  });
  changed(db, channelId);
  return toAdminView(row, by.now);
}
