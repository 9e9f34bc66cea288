import { eq } from 'drizzle-orm';
import { createTestDb } from '@/test/db';
import { seed } from '@/lib/demo/seed';
import type { Db } from '@/lib/db/client';
import { channelPageViews, channels } from '@/lib/db/schema';
import { listConsoleChannels } from '@/lib/operator/channels';
import { countsAsPageView, PageViewCounter, viewsToday } from './page-views';

// Today's page views per channel (issue 31, "Channels"): which requests are a person's page view, counted in memory,
// one upsert per channel and day per flush, "today" in each channel's time zone.

const NOW = new Date('2026-11-26T08:00:00Z');
const statements: string[] = [];
let db: Db;
let close: () => Promise<void>;
let aurora: number;
let lumen: number;

beforeAll(async () => {
  ({ db, close } = await createTestDb({ logger: { logQuery: (query) => void statements.push(query) } }));
  await seed(db, NOW);
  const ids = Object.fromEntries((await db.select({ id: channels.id, key: channels.key }).from(channels)).map((c) => [c.key, c.id]));
  aurora = ids.AURORA!;
  lumen = ids.LUMEN!;
  // LUMEN's customer is on the US west coast: its "today" is not Shanghai's.
  await db.update(channels).set({ timeZone: 'America/Los_Angeles' }).where(eq(channels.id, lumen));
});
afterAll(() => close());

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

describe('what counts as a page view', () => {
  const page = { 'user-agent': PHONE, 'sec-fetch-dest': 'document', accept: 'text/html' };
  it.each([
    ['a phone opening a page', 'GET', page, false, true],
    // Next removes the router's headers before the proxy sees them: a page reached in the app is counted at /log/track.
    ['the router fetching the next page', 'GET', { 'user-agent': PHONE, 'sec-fetch-dest': 'empty', rsc: '1' }, false, true],
    ['an old browser without fetch metadata', 'GET', { 'user-agent': PHONE }, false, true],
    ['a HEAD request', 'HEAD', page, false, false],
    ["the server's own render for the page cache", 'GET', page, true, false],
    ["the router's prefetch", 'GET', { ...page, 'next-router-prefetch': '1', rsc: '1' }, false, false],
    ["the browser's speculative prefetch", 'GET', { ...page, 'sec-purpose': 'prefetch;prerender' }, false, false],
    ['a manifest the page asks for', 'GET', { ...page, 'sec-fetch-dest': 'manifest' }, false, false],
    [
      'Googlebot',
      'GET',
      { ...page, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      false,
      false,
    ],
    [
      'Baiduspider',
      'GET',
      { ...page, 'user-agent': 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)' },
      false,
      false,
    ],
    ['a headless browser', 'GET', { ...page, 'user-agent': 'Mozilla/5.0 HeadlessChrome/131.0 Safari/537.36' }, false, false],
    ['curl', 'GET', { ...page, 'user-agent': 'curl/8.5.0' }, false, false],
    ['no user agent', 'GET', { accept: 'text/html' }, false, false],
  ] as const)('%s', (_name, method, headers, render, counted) => {
    expect(countsAsPageView(method, new Headers(headers), render)).toBe(counted);
  });
});

describe('counting and flushing', () => {
  it('writes one upsert per channel and day per flush however many views, added to what other processes wrote', async () => {
    const first = new PageViewCounter();
    const second = new PageViewCounter(); // another server process
    for (let i = 0; i < 500; i++) first.count(aurora, 'Asia/Shanghai', NOW);
    for (let i = 0; i < 7; i++) first.count(lumen, 'America/Los_Angeles', NOW);
    for (let i = 0; i < 3; i++) second.count(aurora, 'Asia/Shanghai', NOW);
    expect(first.pending()).toBe(507);
    statements.length = 0;
    expect(await first.flush(db)).toBe(507);
    expect(statements.filter((s) => /insert into "channel_page_views"/i.test(s))).toHaveLength(2);
    expect(first.pending()).toBe(0);
    await second.flush(db);
    const today = await viewsToday(
      db,
      [
        { id: aurora, timeZone: 'Asia/Shanghai' },
        { id: lumen, timeZone: 'America/Los_Angeles' },
      ],
      NOW,
    );
    expect(Object.fromEntries(today)).toEqual({ [aurora]: 503, [lumen]: 7 });
    statements.length = 0;
    expect(await first.flush(db)).toBe(0);
    expect(statements).toHaveLength(0);
  });

  it("counts a view on the channel's own calendar day", async () => {
    const counter = new PageViewCounter();
    // 15:59:30 UTC is 23:59:30 in Shanghai and 07:59:30 in Los Angeles; 40 s later Shanghai is on the 27th.
    const beforeMidnight = new Date('2026-11-26T15:59:30Z');
    const afterMidnight = new Date('2026-11-26T16:00:10Z');
    counter.count(aurora, 'Asia/Shanghai', beforeMidnight);
    counter.count(aurora, 'Asia/Shanghai', afterMidnight);
    counter.count(lumen, 'America/Los_Angeles', afterMidnight);
    await counter.flush(db);
    const rows = await db.select().from(channelPageViews);
    const views = (channelId: number, day: string) => rows.find((r) => r.channelId === channelId && r.day === day)?.views;
    expect(views(aurora, '2026-11-27')).toBe(1);
    expect(views(aurora, '2026-11-26')).toBe(504);
    expect(views(lumen, '2026-11-26')).toBe(8);
    expect(views(lumen, '2026-11-27')).toBeUndefined();
  });

  it('keeps the counts of a flush the database refused, for the next one', async () => {
    const counter = new PageViewCounter();
    counter.count(aurora, 'Asia/Shanghai', NOW);
    counter.count(aurora, 'Asia/Shanghai', NOW);
    const down = {
      insert: () => {
        throw new Error('connection refused');
      },
    } as unknown as Db;
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(await counter.flush(down)).toBe(0);
    error.mockRestore();
    expect(counter.pending()).toBe(2);
    expect(await counter.flush(db)).toBe(2);
  });

  it('shows each channel its views of today on the console list', async () => {
    const list = await listConsoleChannels(db, { sessionId: 0, operatorId: 0, name: 'owner', role: 'owner' }, NOW);
    const of = (key: string) => list.find((c) => c.key === key)?.viewsToday;
    expect(of('AURORA')).toBe(506);
    expect(of('LUMEN')).toBe(8);
    expect(list.every((c) => typeof c.viewsToday === 'number')).toBe(true);
  });
});
