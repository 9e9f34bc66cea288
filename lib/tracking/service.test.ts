import { eq } from 'drizzle-orm';
import { dispatch } from '@/lib/server/dispatcher';
import { seededTestDb } from '@/test/db';
import { channels, trackingEvents } from '@/lib/db/schema';
import type { TrackingRecord } from './schema';
import { pageViewRecorder, viewsToday } from '@/lib/channel/page-views';

const now = new Date('2026-11-22T08:00:00Z');

const db = seededTestDb(now);

const record = (over: Partial<TrackingRecord> = {}): TrackingRecord => ({
  dev_id: 'dev-1',
  session_id: 'sess-1',
  proj_id: 5,
  up_time: now.getTime(),
  event_type: 'page_view',
  page_id: 'goodsDetail',
  page_url: '/goods/detail/1',
  refer_id: 'home',
  refer_url: '/',
  duration: 12,
  ...over,
});

const send = (body: unknown, host = 'aurora.localhost') =>
  dispatch(
    { method: 'POST', path: '/log/track', host, body: JSON.stringify(body), headers: new Headers({ 'accept-language': 'en' }) },
    { db, now },
  );

async function storedFor(key: string) {
  const [channel] = await db.select().from(channels).where(eq(channels.key, key));
  return db.select().from(trackingEvents).where(eq(trackingEvents.channelId, channel!.id));
}

describe('tracking ingest', () => {
  it('stores a batch per channel and stamps serv_time', async () => {
    const res = await send({ records: [record(), record({ page_id: 'home', page_url: '/', duration: 3 })] });
    expect(res.body).toMatchObject({ code: 200, data: { accepted: 2 } });
    const rows = await storedFor('AURORA');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.record).toMatchObject({ page_id: 'goodsDetail', refer_id: 'home', duration: 12, serv_time: now.toISOString() });
    expect(await storedFor('LUMEN')).toHaveLength(0);
  });

  it('never stores a phone number or a token', async () => {
    await send(
      { records: [record({ page_url: '/mine?phone=13812345678&token=abc.def', biz_info: 'called 13912345678' })] },
      'lumen.localhost',
    );
    const [row] = await storedFor('LUMEN');
    const text = JSON.stringify(row!.record);
    expect(text).not.toMatch(/13812345678|13912345678|abc\.def/);
    expect(row!.record.page_url).toBe('/mine?phone=[redacted]&token=[redacted]');
  });

  it('never stores a resident ID number or a legal name a client put in an address (issue 33)', async () => {
    await send(
      {
        records: [
          record({ page_url: '/mine/identity?legalName=张三&idNumber=x', biz_info: 'typed 11010519491231002X and 110105194912310021' }),
        ],
      },
      'lumen.localhost',
    );
    const rows = await storedFor('LUMEN');
    const text = JSON.stringify(rows.at(-1)!.record);
    expect(text).not.toMatch(/张三|11010519491231002X|110105194912310021/);
    expect(rows.at(-1)!.record.page_url).toBe('/mine/identity?legalName=[redacted]&idNumber=[redacted]');
    expect(rows.at(-1)!.record.biz_info).toBe('typed [redacted] and [redacted]');
  });

  it('refuses a bad batch with a clear message and stores nothing', async () => {
    const before = (await storedFor('BAZAAR')).length;
    const cases: [unknown, RegExp][] = [
      [{ records: [] }, /^records: must hold at least one record/],
      [{ records: Array.from({ length: 51 }, () => record()) }, /^records: must hold 50 records or less/],
      [{ records: [record({ proj_id: 6 as 5 })] }, /^records\.0\.proj_id: must be 5/],
      [{ records: [record({ event_type: 'hack' as 'click' })] }, /^records\.0\.event_type: must be one of page_view, page_leave, click/],
      [{ records: [record({ duration: -1 })] }, /^records\.0\.duration: must be 0 or more/],
    ];
    for (const [body, message] of cases) {
      const res = await send(body, 'bazaar.localhost');
      expect(res.body.code).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await storedFor('BAZAAR')).toHaveLength(before);
  });
});

describe("pages opened inside the app count as the channel's page views (issue 32, Reports)", () => {
  const PHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const sendAs = (agent: string, records: TrackingRecord[]) =>
    dispatch(
      {
        method: 'POST',
        path: '/log/track',
        host: 'lumen.localhost',
        body: JSON.stringify({ records }),
        headers: new Headers({ 'accept-language': 'en', 'user-agent': agent }),
      },
      { db, now },
    );
  const lumenViews = async () => {
    await pageViewRecorder(() => db).flush(db);
    const [lumen] = await db.select().from(channels).where(eq(channels.key, 'LUMEN'));
    return (await viewsToday(db, [{ id: lumen!.id, timeZone: lumen!.timeZone }], now)).get(lumen!.id) ?? 0;
  };

  it('counts each page reached from another page of the store, not the first page of a visit nor a page left', async () => {
    const before = await lumenViews();
    const res = await sendAs(PHONE, [
      // The first page of the visit (opened by address: the proxy counted it), then two pages reached in the app.
      record({ session_id: 'nav-1', page_id: 'home', page_url: '/', refer_id: '', refer_url: 'https://chat.example/', refer_uuid: '' }),
      record({ session_id: 'nav-1', page_id: 'goodsDetail', refer_id: 'home', refer_uuid: 'v-1' }),
      record({ session_id: 'nav-1', page_id: 'pay', page_url: '/pay/1', refer_id: 'goodsDetail', refer_uuid: 'v-2' }),
      record({ session_id: 'nav-1', event_type: 'page_leave', page_id: 'pay', page_url: '/pay/1', refer_uuid: 'v-2' }),
    ]);
    expect(res.body).toMatchObject({ code: 200 });
    expect(await lumenViews()).toBe(before + 2);
  });

  it("does not count a crawler's or a script's records", async () => {
    const before = await lumenViews();
    await sendAs('curl/8.5.0', [record({ session_id: 'nav-2', refer_uuid: 'v-3' })]);
    await sendAs('Mozilla/5.0 HeadlessChrome/131.0 Safari/537.36', [record({ session_id: 'nav-3', refer_uuid: 'v-4' })]);
    expect(await lumenViews()).toBe(before);
  });
});
