import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { channels, notices } from '@/lib/db/schema';
import { createNotice, updateNotice, withdrawNotice } from '@/lib/notice/service';
import { readNotice, readNotices } from './cached-reads';

// The store's notice pages read through the cache (docs/caching.md); a notice published, edited or withdrawn in the
// console shows on the store at once (issue 32): each write drops the channel's notices tag.

const t0 = new Date('2026-11-22T08:00:00Z');
const db = seededTestDb(t0);
const by = { operatorId: 0, now: t0 };
const noAudit = async () => {};

async function scope() {
  const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'PERKS'));
  return { db, now: t0, channelId: row!.id };
}
const titles = async (s: Awaited<ReturnType<typeof scope>>) =>
  (await readNotices(s, { pageCount: 1, pageSize: 10 })).records.map((n) => n.title);

it('serves the cached list until a write: a row added behind the services is not seen', async () => {
  const s = await scope();
  expect(await titles(s)).toEqual([]);
  await db
    .insert(notices)
    .values({ channelId: s.channelId, type: 'drop', title: 'Behind', body: 'b', publishAt: t0, createdAt: t0, updatedAt: t0 });
  expect(await titles(s)).toEqual([]);
  await db.delete(notices).where(eq(notices.title, 'Behind'));
});

it('shows a published notice at once, an edit at once, and drops a withdrawn one at once', async () => {
  const s = await scope();
  const before = await titles(s);
  const made = await createNotice(db, s.channelId, { type: 'drop', title: 'Fresh', body: 'b', publishAt: t0 }, by, noAudit);
  expect(await titles(s)).toEqual(['Fresh', ...before]);
  expect((await readNotice(s, Number(made.id)))?.title).toBe('Fresh');

  await updateNotice(db, s.channelId, Number(made.id), { type: 'activity', title: 'Fresher', body: 'b', publishAt: t0 }, by, noAudit);
  expect(await titles(s)).toEqual(['Fresher', ...before]);
  expect((await readNotice(s, Number(made.id)))?.title).toBe('Fresher');

  await withdrawNotice(db, s.channelId, Number(made.id), by, noAudit);
  expect(await titles(s)).toEqual(before);
  expect(await readNotice(s, Number(made.id))).toBeNull();
});
