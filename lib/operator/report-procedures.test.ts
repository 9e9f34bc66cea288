import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { makeSale, makeUsers } from '@/test/buying';
import { channels, orders, sales } from '@/lib/db/schema';
import { aggregateRecentDays } from '@/lib/report/daily';
import { DropMeter } from '@/lib/monitor/drop-meter';
import { raiseAlert } from '@/lib/monitor/alerts';
import { exportReportResponse } from './report-procedures';

// The Reports tab's calls (issue 32, "Reports"): the owner and the channel's manager read a channel's days in its time
// zone, the sales' sell-through, the live view and the alerts; support and a manager of another channel are refused; the
// CSV download is the table; bad ranges are refused naming the field.

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let lumenManager: TestOperator;
let support: TestOperator;
let saleId = 0;

beforeAll(async () => {
  // 2026-11-22T08:00Z: the 22nd in Shanghai.
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'reports.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'aurora.reports', role: 'manager', channels: ['AURORA'], now: before });
  lumenManager = await signedInOperator(api.db, { name: 'lumen.reports', role: 'manager', channels: ['LUMEN'], now: before });
  support = await signedInOperator(api.db, { name: 'aurora.support', role: 'support', channels: ['AURORA'], now: before });
  const made = await makeSale(api.db, { code: 'LIVE1', amount: 10, limitPerUser: 5, now: api.now });
  saleId = made.saleId;
  const [buyer] = await makeUsers(api.db, 1, '7402');
  // Paid at 23:30 UTC on the 21st: the 22nd in Shanghai.
  await api.db.insert(orders).values({
    orderNo: 'RPTLIVE0001',
    channelId: made.channelId,
    userId: buyer!,
    saleId,
    quantity: 3,
    price: 1000,
    amount: 3000,
    statusTrade: 1,
    idempotencyKey: 'report-live-1',
    createdAt: new Date('2026-11-21T23:25:00Z'),
    expiresAt: new Date('2026-11-21T23:40:00Z'),
    payTime: new Date('2026-11-21T23:30:00Z'),
  });
  // And one unpaid order of 1 copy; the copies taken off the sale as the buys would.
  await api.db.insert(orders).values({
    orderNo: 'RPTLIVE0002',
    channelId: made.channelId,
    userId: buyer!,
    saleId,
    quantity: 1,
    price: 1000,
    amount: 1000,
    statusTrade: 0,
    idempotencyKey: 'report-live-2',
    createdAt: api.now,
    expiresAt: new Date(api.now.getTime() + 900_000),
  });
  await api.db.update(sales).set({ amountAvailable: 6 }).where(eq(sales.id, saleId));
  await aggregateRecentDays(api.db, api.now);
});
afterAll(() => api.close());

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });

type Daily = {
  timeZone: string;
  from: string;
  to: string;
  days: { day: string; orders: number; paidAmount: number }[];
  sales: { code: string; copiesSold: number; sellThrough: number }[];
};

describe('/ops/api/report/daily', () => {
  it('answers the last 14 days in the channel time zone by default, with the order on the Shanghai day it was paid', async () => {
    const answer = await as(owner)('/ops/api/report/daily', { channel: 'AURORA' });
    expect(answer.code).toBe(200);
    const data = answer.data as Daily;
    expect(data).toMatchObject({ timeZone: 'Asia/Shanghai', from: '2026-11-09', to: '2026-11-22' });
    expect(data.days).toHaveLength(14);
    expect(data.days.find((d) => d.day === '2026-11-22')).toMatchObject({ orders: 1, paidAmount: 3000 });
    expect(data.days.find((d) => d.day === '2026-11-21')).toMatchObject({ orders: 0 });
    expect(data.sales).toEqual([expect.objectContaining({ code: 'LIVE1', copiesSold: 3, sellThrough: 0.3 })]);
    expect((await as(manager)('/ops/api/report/daily', { channel: 'AURORA' })).code).toBe(200);
  });

  it('refuses support, and a manager of another channel as if the channel did not exist', async () => {
    expect((await as(support)('/ops/api/report/daily', { channel: 'AURORA' })).code).toBe(403);
    expect((await as(lumenManager)('/ops/api/report/daily', { channel: 'AURORA' })).code).toBe(404);
  });

  it('refuses a range backwards, too long, or not a date, naming the field', async () => {
    const backwards = await as(owner)('/ops/api/report/daily', { channel: 'AURORA', from: '2026-11-10', to: '2026-11-01' });
    expect(backwards).toMatchObject({ code: 400 });
    expect(backwards.message).toMatch(/^to: /);
    const long = await as(owner)('/ops/api/report/daily', { channel: 'AURORA', from: '2024-01-01', to: '2026-11-01' });
    expect(long.message).toMatch(/^to: .*366/);
    const bad = await as(owner)('/ops/api/report/daily', { channel: 'AURORA', from: '2026-02-30' });
    expect(bad.message).toMatch(/^from: /);
  });
});

describe('/ops/api/report/live and /ops/api/report/alerts', () => {
  it('shows a running sale with copies sold and left, and the buy calls and busy answers of every server process', async () => {
    // Two server processes behind the balancer, each counting its share and adding it to the database once a second;
    // the poll is answered by either and shows the sum. The view's last second is two seconds before the poll.
    const nowMs = api.now.getTime();
    const first = new DropMeter();
    const second = new DropMeter();
    for (let i = 0; i < 4; i++) first.countBuyCall(saleId, nowMs - 3000);
    for (let i = 0; i < 3; i++) second.countBuyCall(saleId, nowMs - 3000);
    second.countBuyCall(saleId, nowMs - 5000);
    first.countBusy(nowMs - 3000);
    second.countBusy(nowMs - 3000);
    await first.flush(api.db, nowMs);
    await second.flush(api.db, nowMs);
    const answer = await as(manager)('/ops/api/report/live', { channel: 'AURORA' });
    expect(answer.code).toBe(200);
    const live = answer.data as {
      sales: { code: string; copies: number; sold: number; left: number; buyCalls: number[] }[];
      busyAnswers: number[];
    };
    const sale = live.sales.find((s) => s.code === 'LIVE1');
    // Sold is what is neither left nor held by the unpaid order.
    expect(sale).toMatchObject({ copies: 10, sold: 3, left: 6 });
    expect(sale!.buyCalls).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 7, 0]);
    expect(live.busyAnswers).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 2, 0]);
  });

  it("lists the channel's alerts and the deployment's, not another channel's", async () => {
    const [lumen] = await api.db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
    const [aurora] = await api.db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'AURORA'));
    jest.spyOn(console, 'error').mockImplementation(() => {});
    await raiseAlert(api.db, { kind: 'soldOut', channelId: aurora!.id, subject: 'sale x', detail: 'aurora sold out' }, api.now, {
      webhook: null,
    });
    await raiseAlert(api.db, { kind: 'soldOut', channelId: lumen!.id, subject: 'sale y', detail: 'lumen sold out' }, api.now, {
      webhook: null,
    });
    await raiseAlert(api.db, { kind: 'providerRefused', channelId: null, subject: 'alipay X', detail: 'alipay refused' }, api.now, {
      webhook: null,
    });
    const answer = await as(owner)('/ops/api/report/alerts', { channel: 'AURORA' });
    const list = (answer.data as { alerts: { detail: string }[] }).alerts.map((a) => a.detail);
    expect(list.sort()).toEqual(['alipay refused', 'aurora sold out']);
  });
});

describe('GET /channels/<key>/reports/export', () => {
  const get = (key: string, query: string, headers: Record<string, string>) =>
    exportReportResponse(
      new Request(`http://${OPS_HOST}/channels/${key}/reports/export${query}`, { headers: { host: OPS_HOST, ...headers } }),
      key,
      {
        db: api.db,
        now: api.now,
      },
    );

  it('downloads the table as CSV with a file name', async () => {
    const answer = await get('AURORA', '?from=2026-11-21&to=2026-11-22', { cookie: manager.cookie });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="report-AURORA-2026-11-21-2026-11-22.csv"');
    const lines = (await answer.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('day,page_views,visitors,buyers,orders,paid_yuan,refunds,refund_yuan,conversion_percent,share_visits,share_buys');
    expect(lines[1]).toMatch(/^2026-11-21,\d+,\d+,0,0,0\.00,0,0\.00,/);
    expect(lines[2]).toMatch(/^2026-11-22,\d+,\d+,1,1,30\.00,0,0\.00,/);
  });

  it('refuses no session, support, another channel, a cross-site request and a bad range', async () => {
    expect((await get('AURORA', '', {})).status).toBe(401);
    expect((await get('AURORA', '', { cookie: support.cookie })).status).toBe(403);
    expect((await get('AURORA', '', { cookie: lumenManager.cookie })).status).toBe(404);
    expect((await get('AURORA', '', { cookie: owner.cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const bad = await get('AURORA', '?from=2026-11-22&to=2026-11-01', { cookie: owner.cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^to: /);
  });
});
