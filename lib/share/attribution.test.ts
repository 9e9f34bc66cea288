import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { channels, orders, shareVisits } from '@/lib/db/schema';
import { dispatch } from '@/lib/server/dispatcher';
import { createSession } from '@/lib/auth/sessions';
import { accountNumberOf } from '@/lib/auth/account-numbers';
import { ORDER_STATUS } from '@/lib/order/status';
import { aggregateDay, readDailyFigures } from '@/lib/report/daily';
import type { TrackingRecord } from '@/lib/tracking/schema';
import { sweepExpiredRecords } from '@/lib/jobs/retention';
import { RETENTION } from '@/lib/security/retention';
import { ATTRIBUTION_DAYS, sharerFigures } from './attribution';
import { goodsShareUrl, SHARE_CODE, shareCodeOf, sharerOf } from './codes';

// Buys here go through the dispatcher, which sheds them (busy) when the event loop lags: not this file's question.
process.env.BUY_MAX_LAG_MS = '60000';

// Share codes and attribution (issue 36, docs/sharing.md): a visit through a buyer's link is theirs, and so is a buy
// of that visitor within the window, last click winning; anything that is not a valid code is ignored. Runs on PGlite
// and, with PG_TEST_PORT, on PostgreSQL.

const t0 = new Date('2026-11-20T02:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);
const db = seededTestDb(t0);

let aurora = 0;
let lumen = 0;
let saleId = 0;
let sharerA = 0;
let sharerC = 0;
let buyerB = 0;
let orderSeq = 0;

beforeAll(async () => {
  const sale = await makeSale(db, { code: 'SHARE-T', amount: 100, limitPerUser: 10, now: t0 });
  aurora = sale.channelId;
  saleId = sale.saleId;
  const [l] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
  lumen = l!.id;
  [sharerA, buyerB, sharerC] = (await makeUsers(db, 3, '7361')) as [number, number, number];
});

const record = (over: Partial<TrackingRecord>): TrackingRecord => ({
  dev_id: 'device-b',
  session_id: 'session-b',
  proj_id: 5,
  up_time: t0.getTime(),
  event_type: 'page_view',
  page_id: 'goodsDetail',
  page_url: `/goods/detail/${saleId}`,
  commodity_id: String(saleId),
  ...over,
});

/** A live session of `userId` on AURORA at `now` (sessions expire: each step of the test logs in anew). */
async function tokenOf(userId: number, now: Date): Promise<string> {
  return (await createSession(db, { userId, channelId: aurora, now, ip: null })).token;
}

/** The page tracker's batch as the browser sends it, at `now`, logged in with `token` or not. */
async function track(records: TrackingRecord[], now: Date, token?: string, host = 'aurora.localhost') {
  await trackAnswer(records, now, token, undefined, host);
}

/** The same, with the browser's cookies, answering the tracker's answer (its headers). */
async function trackAnswer(records: TrackingRecord[], now: Date, token?: string, cookie?: string, host = 'aurora.localhost') {
  const headers = new Headers({
    'accept-language': 'en',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(cookie ? { cookie } : {}),
  });
  const res = await dispatch({ method: 'POST', path: '/log/track', host, body: JSON.stringify({ records }), headers }, { db, now });
  expect(res.body).toMatchObject({ code: 200 });
  return res;
}

/** `userId` buys one copy through `order/create` at `now`, with the browser's cookie when given; answers the order number. */
async function buy(userId: number, now: Date, cookie?: string): Promise<string> {
  orderSeq += 1;
  const headers = new Headers({
    'accept-language': 'en',
    'content-type': 'application/json',
    authorization: `Bearer ${await tokenOf(userId, now)}`,
    ...(cookie ? { cookie } : {}),
  });
  const body = JSON.stringify({ saleId: String(saleId), idempotencyKey: `share-buy-${orderSeq}` });
  const res = await dispatch({ method: 'POST', path: '/market/api/order/create', host: 'aurora.localhost', body, headers }, { db, now });
  expect(res.body).toMatchObject({ code: 200 });
  return (res.body as { data: { orderNo: string } }).data.orderNo;
}

/** The order paid at `payTime` (as the cashier's notice marks it). */
async function pay(orderNo: string, payTime: Date): Promise<void> {
  await db.update(orders).set({ statusTrade: ORDER_STATUS.paid, payTime }).where(eq(orders.orderNo, orderNo));
}

async function paidOrder(userId: number, payTime: Date): Promise<void> {
  orderSeq += 1;
  await db.insert(orders).values({
    orderNo: `S${String(orderSeq).padStart(10, '0')}`,
    channelId: aurora,
    userId,
    saleId,
    quantity: 1,
    price: 1000,
    amount: 1000,
    statusTrade: ORDER_STATUS.paid,
    idempotencyKey: `share-${orderSeq}`,
    createdAt: payTime,
    expiresAt: new Date(payTime.getTime() + 900_000),
    payTime,
  });
}

async function visitsOf(sharerId: number) {
  return db.select().from(shareVisits).where(eq(shareVisits.sharerId, sharerId));
}

describe('share codes', () => {
  it('gives a buyer one opaque code per channel, that names neither their id nor their account number', async () => {
    const code = await shareCodeOf(db, aurora, sharerA, t0);
    expect(code).toMatch(SHARE_CODE);
    expect(await shareCodeOf(db, aurora, sharerA, at(1))).toBe(code);
    const other = await shareCodeOf(db, lumen, sharerA, t0);
    expect(other).not.toBe(code);
    expect(await shareCodeOf(db, aurora, buyerB, t0)).not.toBe(code);
    const number = await accountNumberOf(db, aurora, sharerA, t0);
    expect(code).not.toContain(number);
    expect(code).not.toContain(String(sharerA));
    expect(await sharerOf(db, aurora, code)).toBe(sharerA);
    // Another channel's code, a made-up one, and junk are nobody's.
    expect(await sharerOf(db, aurora, other)).toBeNull();
    expect(await sharerOf(db, aurora, 'abcdefghijklmnop')).toBeNull();
    expect(await sharerOf(db, aurora, '<script>alert(1)</script>')).toBeNull();
    expect(await sharerOf(db, aurora, '')).toBeNull();
    expect(goodsShareUrl('https://aurora.example', 5, code)).toBe(`https://aurora.example/goods/detail/5?from=${code}`);
    expect(goodsShareUrl('https://aurora.example', 5, null)).toBe('https://aurora.example/goods/detail/5');
  });
});

describe('attribution', () => {
  it('counts a visit through a sharer link, claims it for the buyer on their pay page, and credits their buy within the window', async () => {
    const codeA = await shareCodeOf(db, aurora, sharerA, t0);
    // B opens A's link without being logged in.
    await track([record({ page_url: `/goods/detail/${saleId}?from=${codeA}` })], at(0));
    const [visit] = await visitsOf(sharerA);
    expect(visit).toMatchObject({ channelId: aurora, saleId, deviceId: 'device-b', visitorId: null });
    // The same page shown again within half an hour is the same visit.
    await track([record({ page_url: `/goods/detail/${saleId}?from=${codeA}` })], at(0.2));
    expect(await visitsOf(sharerA)).toHaveLength(1);
    // B logs in and reaches the pay page on the same device: the visit is B's.
    await track([record({ page_id: 'pay', page_url: `/pay/${saleId}`, refer_id: 'goodsDetail' })], at(1), await tokenOf(buyerB, at(1)));
    expect((await visitsOf(sharerA))[0]!.visitorId).toBe(buyerB);
    await paidOrder(buyerB, at(2));
    expect(await sharerFigures(db, aurora, sharerA)).toEqual({ visits: 1, buys: 1 });
    // Past the window, a buy is nobody's.
    await paidOrder(buyerB, at(ATTRIBUTION_DAYS * 24 + 1));
    expect(await sharerFigures(db, aurora, sharerA)).toEqual({ visits: 1, buys: 1 });
  });

  it('counts one visit when two sends of the same page view arrive together (the timed send and the one as the page is left)', async () => {
    const codeA = await shareCodeOf(db, aurora, sharerA, t0);
    const before = (await visitsOf(sharerA)).length;
    const view = record({ dev_id: 'device-twice', page_url: `/goods/detail/${saleId}?from=${codeA}` });
    const later = at(24 * 60);
    await Promise.all([track([view], later), track([view], later), track([view], later)]);
    expect(await visitsOf(sharerA)).toHaveLength(before + 1);
  });

  it('credits the last link clicked: C after A gets the buy', async () => {
    const codeA = await shareCodeOf(db, aurora, sharerA, t0);
    const codeC = await shareCodeOf(db, aurora, sharerC, t0);
    const start = 20 * 24;
    await track([record({ page_url: `/goods/detail/${saleId}?from=${codeA}` })], at(start), await tokenOf(buyerB, at(start)));
    await track([record({ page_url: `/goods/detail/${saleId}?utm=x&from=${codeC}` })], at(start + 1), await tokenOf(buyerB, at(start + 1)));
    await paidOrder(buyerB, at(start + 2));
    expect(await sharerFigures(db, aurora, sharerC)).toEqual({ visits: 1, buys: 1 });
    expect((await sharerFigures(db, aurora, sharerA)).buys).toBe(1);
  });

  it('ignores forged, unknown, other channels’ and one’s own codes, and still takes the batch', async () => {
    const before = (await db.select().from(shareVisits)).length;
    const lumenCode = await shareCodeOf(db, lumen, sharerC, t0);
    const codeA = await shareCodeOf(db, aurora, sharerA, t0);
    await track(
      [
        record({ page_url: `/goods/detail/${saleId}?from=abcdefghijklmnop` }),
        record({ page_url: `/goods/detail/${saleId}?from=%3Cscript%3Ealert(1)%3C%2Fscript%3E` }),
        record({ page_url: `/goods/detail/${saleId}?from=${'a'.repeat(500)}` }),
        record({ page_url: `/goods/detail/${saleId}?from=${lumenCode}` }),
        record({ page_url: `/goods/detail/${saleId}?from=` }),
      ],
      at(40 * 24),
    );
    // The sharer opening their own link is no share visit.
    await track(
      [record({ dev_id: 'device-a', page_url: `/goods/detail/${saleId}?from=${codeA}` })],
      at(40 * 24),
      await tokenOf(sharerA, at(40 * 24)),
    );
    expect((await db.select().from(shareVisits)).length).toBe(before);
  });

  it('credits a buy made on the device that followed the link though its tracker sent nothing after the visit', async () => {
    const codeA = await shareCodeOf(db, aurora, sharerA, t0);
    const [buyerD, buyerE] = (await makeUsers(db, 2, '7362')) as [number, number];
    const start = 61 * 24; // 2027-01-20, a day of its own in the report
    // D's phone opens A's link, not logged in: the tracker's send is given the browser's device cookie.
    const visit = await trackAnswer([record({ dev_id: 'device-d', page_url: `/goods/detail/${saleId}?from=${codeA}` })], at(start));
    const cookie = /^(storefront_device=([A-Za-z0-9_-]+));/.exec(visit.headers?.['set-cookie'] ?? '');
    expect(cookie).not.toBeNull();
    // D logs in and buys on that phone, leaving the pay page and the result within seconds: the tracker reports neither.
    const orderNo = await buy(buyerD, at(start + 0.1), cookie![1]!);
    await pay(orderNo, at(start + 0.2));
    expect(await sharerFigures(db, aurora, sharerA)).toMatchObject({ buys: 2 });
    // The order and the visit name the device by the same keyed hash, nothing of the cookie in clear.
    const [order] = await db.select({ deviceKey: orders.deviceKey }).from(orders).where(eq(orders.orderNo, orderNo));
    const [seen] = (await visitsOf(sharerA)).filter((v) => v.deviceId === 'device-d');
    expect(order!.deviceKey).toMatch(/^[0-9a-f]{32}$/);
    expect(order!.deviceKey).toBe(seen!.deviceKey);
    expect(order!.deviceKey).not.toContain(cookie![2]!);
    // A buy on another browser (another cookie, or none) is not credited through that device.
    const other = await buy(buyerE, at(start + 0.3), 'storefront_device=anotherbrowseranotherbrowser');
    await pay(other, at(start + 0.4));
    await pay(await buy(buyerE, at(start + 0.5)), at(start + 0.6));
    expect(await sharerFigures(db, aurora, sharerA)).toMatchObject({ buys: 2 });
    // The operator's report of that day counts the visit and the buy.
    const day = '2027-01-20';
    const [channel] = await db.select({ timeZone: channels.timeZone }).from(channels).where(eq(channels.id, aurora));
    await aggregateDay(db, { id: aurora, timeZone: channel!.timeZone }, day, at(start + 48));
    const [figures] = await readDailyFigures(db, aurora, day, day);
    expect(figures).toMatchObject({ shareVisits: 1, shareBuys: 1, orders: 3 });
  });

  it('does not credit a device’s visit made while another buyer was logged in there to a buy of someone else', async () => {
    const codeC = await shareCodeOf(db, aurora, sharerC, t0);
    const [buyerF, buyerG] = (await makeUsers(db, 2, '7363')) as [number, number];
    const start = 70 * 24;
    const cookie = 'storefront_device=sharedphonesharedphone01';
    await trackAnswer(
      [record({ dev_id: 'device-f', page_url: `/goods/detail/${saleId}?from=${codeC}` })],
      at(start),
      await tokenOf(buyerF, at(start)),
      cookie,
    );
    const before = (await sharerFigures(db, aurora, sharerC)).buys;
    await pay(await buy(buyerG, at(start + 0.1), cookie), at(start + 0.2));
    expect((await sharerFigures(db, aurora, sharerC)).buys).toBe(before);
  });

  it("counts the day's share visits and share buys in the operator's daily report", async () => {
    const day = '2026-11-20'; // t0 is 10:00 in Asia/Shanghai
    const [channel] = await db.select({ timeZone: channels.timeZone }).from(channels).where(eq(channels.id, aurora));
    await aggregateDay(db, { id: aurora, timeZone: channel!.timeZone }, day, at(48));
    const [figures] = await readDailyFigures(db, aurora, day, day);
    expect(figures).toMatchObject({ shareVisits: 1, shareBuys: 1 });
  });

  it('keeps share visits as long as the tracking records they come from, then the retention sweep deletes them', async () => {
    const visits = async () => (await db.select({ at: shareVisits.visitedAt }).from(shareVisits)).map((v) => v.at.getTime());
    const newest = Math.max(...(await visits()));
    const oldest = Math.min(...(await visits()));
    const kept = RETENTION.trackingDays * 24 * HOUR;
    await sweepExpiredRecords(db, new Date(oldest + kept));
    expect(Math.min(...(await visits()))).toBe(oldest);
    await sweepExpiredRecords(db, new Date(newest + kept + 1));
    expect(await visits()).toEqual([]);
  });
});
