import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { channels, notices, operatorAudit, sales } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import type { ChannelScope, UserScope } from '@/lib/procedure/scope';
import {
  createNotice,
  getNotice,
  listChannelNotices,
  listNotices,
  markNoticesRead,
  unreadNoticeCount,
  updateNotice,
  withdrawNotice,
} from './service';
import { listUpcomingSales } from './calendar';
import { groupByDay } from './schema';
import { formatDate } from '@/lib/format/date';

// Notices and the drop calendar (issue 32): what a buyer on a channel sees, when, and the dot of the unread ones.

const t0 = new Date('2026-11-22T08:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const db = seededTestDb(t0);

async function channelId(key: string): Promise<number> {
  const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return row!.id;
}

const by = (now: Date) => ({ operatorId: 0, now });
const noAudit = async () => {};

async function publish(channel: number, title: string, publishAt: Date, now = t0) {
  return createNotice(db, channel, { type: 'drop', title, body: `${title}\n\nSecond paragraph.`, publishAt }, by(now), noAudit);
}

const scope = (channel: number, now: Date): ChannelScope => ({ db, now, channelId: channel });
const buyer = (channel: number, userId: number, now: Date): UserScope => ({ db, now, channelId: channel, userId });

describe('the store’s notices', () => {
  let aurora: number;
  let lumen: number;
  beforeAll(async () => {
    aurora = await channelId('AURORA');
    lumen = await channelId('LUMEN');
  });

  it('shows a scheduled notice only from its publish time on, newest first, and never another channel’s', async () => {
    const older = await publish(aurora, 'Older', new Date(t0.getTime() - HOUR));
    const newer = await publish(aurora, 'Newer', new Date(t0.getTime() - MIN));
    const later = await publish(aurora, 'Tomorrow’s drop', new Date(t0.getTime() + DAY));
    const elsewhere = await publish(lumen, 'Lumen only', new Date(t0.getTime() - MIN));

    const now = await listNotices(scope(aurora, t0), { pageCount: 1, pageSize: 10 });
    expect(now.records.map((n) => n.id)).toEqual([newer.id, older.id]);
    expect(now.total).toBe(2);
    await expect(getNotice(scope(aurora, t0), Number(later.id))).rejects.toMatchObject({ code: 404 });
    await expect(getNotice(scope(aurora, t0), Number(elsewhere.id))).rejects.toBeInstanceOf(AppError);

    const tomorrow = await listNotices(scope(aurora, new Date(t0.getTime() + DAY)), { pageCount: 1, pageSize: 10 });
    expect(tomorrow.records.map((n) => n.title)).toEqual(['Tomorrow’s drop', 'Newer', 'Older']);
    expect((await getNotice(scope(aurora, new Date(t0.getTime() + DAY)), Number(later.id))).body).toContain('Second paragraph.');

    const paged = await listNotices(scope(aurora, t0), { pageCount: 2, pageSize: 1 });
    expect(paged.records.map((n) => n.id)).toEqual([older.id]);
    expect((await listNotices(scope(lumen, t0), { pageCount: 1, pageSize: 10 })).records.map((n) => n.id)).toEqual([elsewhere.id]);
  });

  it('takes a withdrawn notice off the store and refuses to edit it', async () => {
    const gone = await publish(aurora, 'Typo', new Date(t0.getTime() - MIN));
    const at = new Date(t0.getTime() + MIN);
    await withdrawNotice(db, aurora, Number(gone.id), by(at), noAudit);
    const list = await listNotices(scope(aurora, at), { pageCount: 1, pageSize: 50 });
    expect(list.records.map((n) => n.id)).not.toContain(gone.id);
    await expect(getNotice(scope(aurora, at), Number(gone.id))).rejects.toMatchObject({ code: 404 });
    await expect(
      updateNotice(db, aurora, Number(gone.id), { type: 'activity', title: 'Fixed', body: 'x', publishAt: at }, by(at), noAudit),
    ).rejects.toMatchObject({ code: 409 });
    const [row] = await db
      .select()
      .from(notices)
      .where(eq(notices.id, Number(gone.id)));
    expect(row!.title).toBe('Typo');
    const console = await listChannelNotices(db, aurora, at, { pageCount: 1, pageSize: 50 });
    expect(console.records.find((n) => n.id === gone.id)?.state).toBe('withdrawn');
  });

  it('refuses to edit or withdraw another channel’s notice, with nothing changed', async () => {
    const mine = await publish(lumen, 'Lumen news', new Date(t0.getTime() - MIN));
    await expect(withdrawNotice(db, aurora, Number(mine.id), by(t0), noAudit)).rejects.toMatchObject({ code: 404 });
    await expect(
      updateNotice(db, aurora, Number(mine.id), { type: 'drop', title: 'Hijacked', body: 'x', publishAt: t0 }, by(t0), noAudit),
    ).rejects.toMatchObject({ code: 404 });
    expect((await getNotice(scope(lumen, t0), Number(mine.id))).title).toBe('Lumen news');
  });

  it('counts a buyer’s unread notices per buyer and per channel until they open the list', async () => {
    const gift = await channelId('GIFT');
    const [ann, bob] = await makeUsers(db, 2, '7321');
    const t1 = new Date(t0.getTime() + 2 * DAY);
    await publish(gift, 'One', new Date(t1.getTime() - HOUR), t1);
    await publish(gift, 'Two', new Date(t1.getTime() - MIN), t1);
    await publish(gift, 'Not yet', new Date(t1.getTime() + HOUR), t1);
    expect(await unreadNoticeCount(buyer(gift, ann!, t1))).toBe(2);
    expect(await unreadNoticeCount(buyer(gift, bob!, t1))).toBe(2);

    await markNoticesRead(buyer(gift, ann!, t1));
    expect(await unreadNoticeCount(buyer(gift, ann!, t1))).toBe(0);
    expect(await unreadNoticeCount(buyer(gift, bob!, t1))).toBe(2);

    // The scheduled one comes out: unread again for Ann. A notice written later with an earlier publish time too.
    const t2 = new Date(t1.getTime() + 2 * HOUR);
    expect(await unreadNoticeCount(buyer(gift, ann!, t2))).toBe(1);
    await publish(gift, 'Backdated', new Date(t1.getTime() - DAY), t2);
    expect(await unreadNoticeCount(buyer(gift, ann!, t2))).toBe(2);
    await markNoticesRead(buyer(gift, ann!, t2));
    expect(await unreadNoticeCount(buyer(gift, ann!, t2))).toBe(0);
    // An older request's mark does not move the marker back.
    await markNoticesRead(buyer(gift, ann!, t1));
    expect(await unreadNoticeCount(buyer(gift, ann!, t2))).toBe(0);
  });

  it('records each write in the audit hook with the notice before and after, in the write’s transaction', async () => {
    const seen: { before: unknown; after: unknown }[] = [];
    const audit = async (tx: typeof db, change: { channelId: number; before: unknown; after: unknown }) => {
      seen.push({ before: change.before, after: change.after });
      await tx.insert(operatorAudit).values({ at: t0, operatorName: 'test', ip: '127.0.0.1', procedure: 'notice-test', input: {} });
    };
    const made = await createNotice(db, aurora, { type: 'airdrop', title: 'Air', body: 'b', publishAt: t0 }, by(t0), audit);
    await withdrawNotice(db, aurora, Number(made.id), by(t0), audit);
    expect(seen[0]).toMatchObject({ before: null, after: { title: 'Air', state: 'published' } });
    expect(seen[1]).toMatchObject({ before: { state: 'published' }, after: { state: 'withdrawn' } });
  });
});

describe('the drop calendar', () => {
  it('lists the channel’s sales opening within 30 days, soonest first, grouped by day in the channel’s zone', async () => {
    const t = new Date('2026-12-01T00:00:00Z');
    const soon = await makeSale(db, { channelKey: 'BAZAAR', code: 'CAL-SOON', amount: 5, limitPerUser: 1, now: t });
    const evening = await makeSale(db, { channelKey: 'BAZAAR', code: 'CAL-EVE', amount: 5, limitPerUser: 1, now: t });
    const far = await makeSale(db, { channelKey: 'BAZAAR', code: 'CAL-FAR', amount: 5, limitPerUser: 1, now: t });
    const other = await makeSale(db, { channelKey: 'LUMEN', code: 'CAL-LUMEN', amount: 5, limitPerUser: 1, now: t });
    const open = await makeSale(db, { channelKey: 'BAZAAR', code: 'CAL-OPEN', amount: 5, limitPerUser: 1, now: t });
    const hidden = await makeSale(db, { channelKey: 'BAZAAR', code: 'CAL-HIDDEN', amount: 5, limitPerUser: 1, now: t });
    const at = (id: number, start: Date) => db.update(sales).set({ saleStartTime: start }).where(eq(sales.id, id));
    // 15:00 UTC is 23:00 in Shanghai; 17:00 UTC is the next day there.
    await at(soon.saleId, new Date('2026-12-01T15:00:00Z'));
    await at(evening.saleId, new Date('2026-12-01T17:00:00Z'));
    await at(far.saleId, new Date('2027-01-05T00:00:00Z'));
    await at(other.saleId, new Date('2026-12-01T15:00:00Z'));
    await at(open.saleId, new Date('2026-11-30T23:00:00Z'));
    // A sale off the home list (hidden, reached by its link alone) is off the calendar too.
    await at(hidden.saleId, new Date('2026-12-01T16:00:00Z'));
    await db.update(sales).set({ listed: false }).where(eq(sales.id, hidden.saleId));

    const list = await listUpcomingSales(scope(soon.channelId, t));
    const ids = list.map((s) => s.saleId);
    expect(ids).toEqual(expect.arrayContaining([String(soon.saleId), String(evening.saleId)]));
    expect(ids).not.toContain(String(far.saleId));
    expect(ids).not.toContain(String(other.saleId));
    expect(ids).not.toContain(String(open.saleId));
    expect(ids).not.toContain(String(hidden.saleId));
    expect(ids.indexOf(String(soon.saleId))).toBeLessThan(ids.indexOf(String(evening.saleId)));

    const days = groupByDay(
      list.filter((s) => [String(soon.saleId), String(evening.saleId)].includes(s.saleId)),
      (iso) => formatDate(iso, 'yyyy-MM-dd', 'Asia/Shanghai'),
    );
    expect(days.map((d) => [d.day, d.sales.map((s) => s.name)])).toEqual([
      ['2026-12-01', ['Test CAL-SOON']],
      ['2026-12-02', ['Test CAL-EVE']],
    ]);
  });
});
