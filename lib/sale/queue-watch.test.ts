import { desc, eq } from 'drizzle-orm';
import type { TestApi, TestBuyer } from '@/test/api';
import { makeUsers } from '@/test/buying';
import { queueStory, type QueueStory } from '@/test/queue-fixtures';
import { holdNextRead } from '@/test/hold-read';
import { queueEntries, sales } from '@/lib/db/schema';
import { joinQueue, queuePosition, type QueuePosition } from './queue';
import { MAX_WATCHES_PER_BUYER, openWatch, openWatches, watchCopies, watchQueue, watchTick, withWatchOffer } from './queue-watch';

// A waiting room's news pushed to the buyer's open page (issue 35: "when sold out, every waiting buyer is told within a
// second"; lib/sale/queue-watch.ts). The process ticks every 250 ms while anyone watches; here the ticks are driven by
// hand at chosen moments. Each watcher hears at the next tick of their turn (with the admission), of the sell-out, and
// of their place (every second near the head, every 5 s further back); a watching buyer keeps their place without
// polling; a buyer's newest watches end their oldest.

process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let opening: QueueStory['opening'];
let atOpening: QueueStory['atOpening'];
let queueSale: QueueStory['queueSale'];
let scope: QueueStory['scope'];

const MINUTE = 60_000;

beforeAll(async () => {
  ({ api, opening, atOpening, queueSale, scope } = await queueStory('watch.owner', '192.0.2.211'));
}, 120_000);
afterAll(() => api.close());

/** A watching page: what it was pushed, in order, and whether its watch was ended. */
type Page = { userId: number; pushed: QueuePosition[]; ended: boolean; close: () => void };

/** Buyers join before the opening and each opens a watch (ticks by hand). */
async function watchers(saleId: number, users: number[], at: Date): Promise<Page[]> {
  const pages: Page[] = [];
  for (const userId of users) {
    const first = await joinQueue(scope(api.db, userId, at), saleId);
    const page: Page = { userId, pushed: [], ended: false, close: () => {} };
    page.close = openWatch(
      api.db,
      saleId,
      userId,
      first,
      { send: (p) => page.pushed.push(p), end: () => (page.ended = true) },
      { now: at, timer: false },
    )!;
    pages.push(page);
  }
  return pages;
}

const last = (page: Page) => page.pushed.at(-1);
const drain = (pages: Page[]) => pages.map((p) => p.pushed.splice(0));

let keys = 0;
const buy = (buyer: TestBuyer, saleId: number, now: Date, admission: string) =>
  api.callApi(
    '/market/api/order/create',
    { saleId: String(saleId), quantity: 1, idempotencyKey: `watch-buy-${++keys}`, admission },
    { token: buyer.token, now },
  );

describe('a watched waiting room of 4 buyers for 2 copies, 1 admission a second', () => {
  let saleId: number;
  let buyers: TestBuyer[];
  let pages: Page[];

  beforeAll(async () => {
    saleId = await queueSale('watch-buy', 2, { admitPerSecond: 1 });
    buyers = [];
    for (let i = 0; i < 4; i++) buyers.push(await api.buyer(`139360010${String(i).padStart(2, '0')}`));
    pages = await watchers(
      saleId,
      buyers.map((b) => b.userId),
      new Date(opening().getTime() - MINUTE),
    );
  });
  afterAll(() => pages.forEach((p) => p.close()));

  it('pushes the shuffle: one buyer their turn with the admission, the others their place', async () => {
    await watchTick(api.db, saleId, atOpening(3100));
    const pushed = pages.map((p) => last(p)!);
    expect(pushed.every(Boolean)).toBe(true);
    const admitted = pushed.filter((p) => p.status === 'admitted');
    expect(admitted).toHaveLength(1);
    expect(admitted[0]!.admission).toMatch(/\./);
    expect(
      pushed
        .filter((p) => p.status === 'queued')
        .map((p) => p.position)
        .sort(),
    ).toEqual([1, 2, 3]);
    // Nothing changed: nothing more pushed.
    const counts = pages.map((p) => p.pushed.length);
    await watchTick(api.db, saleId, atOpening(3400));
    expect(pages.map((p) => p.pushed.length)).toEqual(counts);
  });

  it('tells each waiting buyer the sale sold out at the next tick after the last copy goes', async () => {
    const turn = () => {
      const page = pages.find((p) => p.pushed.some((x) => x.status === 'admitted') && !p.pushed.some((x) => x.status === 'bought'))!;
      const buyer = buyers.find((b) => b.userId === page.userId)!;
      return { page, buyer, admission: page.pushed.find((x) => x.status === 'admitted')!.admission! };
    };
    const one = turn();
    expect(await buy(one.buyer, saleId, atOpening(3600), one.admission)).toMatchObject({ code: 200 });
    // A second after the first admission: the buy seen, the next admitted, pushed to both.
    await watchTick(api.db, saleId, atOpening(4200));
    expect(last(one.page)).toMatchObject({ status: 'bought' });
    const two = turn();
    expect(last(two.page)).toMatchObject({ status: 'admitted', position: null });
    expect(await buy(two.buyer, saleId, atOpening(4300), two.admission)).toMatchObject({ code: 200 });
    const waiting = pages.filter((p) => p !== one.page && p !== two.page);
    drain(waiting);
    // The next tick (250 ms later) reads the queue again: both waiting buyers are told.
    await watchTick(api.db, saleId, atOpening(4550));
    for (const page of waiting) {
      expect(page.pushed).toHaveLength(1);
      expect(page.pushed[0]).toMatchObject({ status: 'soldOut', copiesLeft: 0, admission: null });
    }
  });
});

it('writes a turn before the places of the same pass, whoever opened their page first', async () => {
  const saleId = await queueSale('watch-turn-first', 6, { admitPerSecond: 1 });
  const users = await makeUsers(api.db, 6, '3635');
  const before = new Date(opening().getTime() - MINUTE);
  const firsts = new Map<number, QueuePosition>();
  for (const userId of users) firsts.set(userId, await joinQueue(scope(api.db, userId, before), saleId));
  // The shuffle ranks by the key drawn at the join: the watches open in the reverse order, the first in line last.
  const ranked = await api.db
    .select({ userId: queueEntries.userId })
    .from(queueEntries)
    .where(eq(queueEntries.saleId, saleId))
    .orderBy(desc(queueEntries.shuffleKey), desc(queueEntries.id));
  const written: Array<{ userId: number; status: QueuePosition['status'] }> = [];
  const closes = ranked.map(({ userId }) =>
    openWatch(
      api.db,
      saleId,
      userId,
      firsts.get(userId)!,
      { send: (p) => written.push({ userId, status: p.status }), end: () => {} },
      { now: before, timer: false },
    )!,
  );
  written.splice(0);
  await watchTick(api.db, saleId, atOpening(3100));
  expect(written).toHaveLength(6);
  expect(written[0]).toEqual({ userId: ranked.at(-1)!.userId, status: 'admitted' });
  expect(written.slice(1).every((w) => w.status === 'queued')).toBe(true);
  closes.forEach((close) => close());
});

it('pushes a place every second near the head and every 5 s further back', async () => {
  const saleId = await queueSale('watch-pace', 14, { admitPerSecond: 1, admissionSeconds: 600 });
  const users = await makeUsers(api.db, 14, '3636');
  const pages = await watchers(saleId, users, new Date(opening().getTime() - MINUTE));
  await watchTick(api.db, saleId, atOpening(3100));
  const byPlace = (at: number) => pages.find((p) => last(p)?.status === 'queued' && last(p)!.position === at)!;
  const back = byPlace(13); // 12 ahead at 1 a second: 12 s away
  const near = byPlace(2);
  expect(back).toBeDefined();
  drain(pages);
  // A second later one more admitted: everyone moves up one. Near the head it is pushed; 11 s away, not yet.
  await watchTick(api.db, saleId, atOpening(4200));
  expect(near.pushed).toEqual([expect.objectContaining({ status: 'queued', position: 1 })]);
  expect(back.pushed).toEqual([]);
  // Five seconds after its last push, the buyer further back hears their place.
  await watchTick(api.db, saleId, atOpening(8200));
  expect(back.pushed).toHaveLength(1);
  expect(back.pushed[0]).toMatchObject({ status: 'queued' });
  expect(back.pushed[0]!.position).toBeLessThan(12);
  pages.forEach((p) => p.close());
});

it('keeps the place of a buyer who watches without polling for longer than the hold time; one who neither loses it', async () => {
  const saleId = await queueSale('watch-hold', 1, { holdSeconds: 30, admitPerSecond: 1, admissionSeconds: 600 });
  const users = (await makeUsers(api.db, 3, '3637')) as [number, number, number];
  const [page] = await watchers(saleId, [users[0]], new Date(opening().getTime() - 20_000));
  for (const user of users.slice(1)) await joinQueue(scope(api.db, user, new Date(opening().getTime() - 20_000)), saleId);
  // Only the watch ticks, every 2 s, for 70 s after the opening: no position read from anyone.
  for (let ms = 3100; ms <= 70_100; ms += 2000) await watchTick(api.db, saleId, atOpening(ms));
  const now = atOpening(70_300);
  const watched = await queuePosition(scope(api.db, users[0], now), saleId);
  expect(['queued', 'admitted']).toContain(watched.status);
  const statuses = [
    (await queuePosition(scope(api.db, users[1], now), saleId)).status,
    (await queuePosition(scope(api.db, users[2], now), saleId)).status,
  ];
  // One of the two who neither watched nor polled may have been admitted before the hold ran out; the other left.
  expect(statuses).toContain('left');
  page!.close();
});

it('pushes a sell-out while the queue’s refresh is still reading, and the refresh does not bring the copy back', async () => {
  const saleId = await queueSale('watch-sellout-during-refresh', 5, { admitPerSecond: 1, admissionSeconds: 600 });
  const users = await makeUsers(api.db, 3, '3639');
  const pages = await watchers(saleId, users, new Date(opening().getTime() - MINUTE));
  await watchTick(api.db, saleId, atOpening(3100));
  drain(pages);
  // A refresh whose read of the queue has run (5 copies left) but not returned: a slow refresh under a crowd.
  const { readRan, release } = holdNextRead(api.db);
  const refreshing = watchQueue(api.db, saleId, atOpening(3400));
  await readRan;
  // Meanwhile the last copies go (through the other process's buyers, say): the copies' own read pushes it at once.
  await api.db.update(sales).set({ amountAvailable: 0 }).where(eq(sales.id, saleId));
  await watchCopies(api.db, saleId, atOpening(3450));
  expect(pages.map((p) => last(p)?.status)).toEqual(['soldOut', 'soldOut', 'soldOut']);
  release();
  await refreshing;
  await watchTick(api.db, saleId, atOpening(3700));
  // Nobody was told the copies came back: every push after the sell-out says sold out.
  for (const page of pages) expect(page.pushed.map((p) => p.status)).toEqual(['soldOut']);
  pages.forEach((p) => p.close());
});

it("ends a buyer's oldest watch when they open more than the limit, and a closed watch hears nothing", async () => {
  const saleId = await queueSale('watch-tabs', 3, { admitPerSecond: 1 });
  const [user] = (await makeUsers(api.db, 1, '3638')) as [number];
  const before = openWatches();
  const tabs: Page[] = [];
  for (let i = 0; i <= MAX_WATCHES_PER_BUYER; i++) tabs.push(...(await watchers(saleId, [user], new Date(opening().getTime() - MINUTE))));
  expect(tabs.map((t) => t.ended)).toEqual([true, ...Array.from({ length: MAX_WATCHES_PER_BUYER }, () => false)]);
  expect(openWatches() - before).toBe(MAX_WATCHES_PER_BUYER);
  tabs[1]!.close();
  await watchTick(api.db, saleId, atOpening(3100));
  expect(tabs[0]!.pushed).toEqual([]);
  expect(tabs[1]!.pushed).toEqual([]);
  expect(tabs.slice(2).map((t) => last(t)?.status)).toEqual(['admitted', 'admitted']);
  // A tab closed frees its place among the buyer's watches: one more opens without ending any; the next ends the oldest open.
  const later = new Date(opening().getTime() - MINUTE);
  tabs.push(...(await watchers(saleId, [user], later)));
  expect(tabs.map((t) => t.ended)).toEqual([true, false, false, false, false]);
  tabs.push(...(await watchers(saleId, [user], later)));
  expect(tabs.map((t) => t.ended)).toEqual([true, false, true, false, false, false]);
  expect(openWatches() - before).toBe(MAX_WATCHES_PER_BUYER);
  tabs.forEach((t) => t.close());
  expect(openWatches()).toBe(before);
});

describe('the watch call', () => {
  it('offers a watch to a buyer in the queue and answers their place; none to a buyer not in it', async () => {
    const saleId = await queueSale('watch-call', 2);
    const [inQueue, outside] = [await api.buyer('13936002001'), await api.buyer('13936002002')];
    const joinedAt = new Date(opening().getTime() - MINUTE);
    await joinQueue(scope(api.db, inQueue.userId, joinedAt), saleId);
    const call = (buyer: TestBuyer) =>
      withWatchOffer(() => api.callApi('/market/api/queue/watch', { saleId: String(saleId) }, { token: buyer.token, now: joinedAt }));
    const watched = await call(inQueue);
    expect(watched.result).toMatchObject({ code: 200, data: { status: 'waiting', saleId: String(saleId) } });
    expect(watched.offer).toBeInstanceOf(Function);
    const notIn = await call(outside);
    expect(notIn.result).toMatchObject({ code: 200, data: { status: 'notJoined' } });
    expect(notIn.offer).toBeNull();
    // Anonymous: refused as any buyer call, no watch.
    const anonymous = await withWatchOffer(() => api.callApi('/market/api/queue/watch', { saleId: String(saleId) }, { now: joinedAt }));
    expect(anonymous.result).toMatchObject({ code: 401 });
    expect(anonymous.offer).toBeNull();
    // With `join`, the buyer joins first, then is watched; refused as a join is (before joining opens: 409, no watch).
    const joining = await withWatchOffer(() =>
      api.callApi('/market/api/queue/watch', { saleId: String(saleId), join: true }, { token: outside.token, now: joinedAt }),
    );
    expect(joining.result).toMatchObject({ code: 200, data: { status: 'waiting' } });
    expect(joining.offer).toBeInstanceOf(Function);
    const [late] = [await api.buyer('13936002003')];
    const early = await withWatchOffer(() =>
      api.callApi(
        '/market/api/queue/watch',
        { saleId: String(saleId), join: true },
        { token: late.token, now: new Date(opening().getTime() - 11 * MINUTE) },
      ),
    );
    expect(early.result).toMatchObject({ code: 409 });
    expect(early.offer).toBeNull();
    // Through Next (no offer taken), the same call answers the place once.
    expect(await api.callApi('/market/api/queue/watch', { saleId: String(saleId) }, { token: inQueue.token, now: joinedAt })).toMatchObject(
      {
        code: 200,
        data: { status: 'waiting' },
      },
    );
  });
});
