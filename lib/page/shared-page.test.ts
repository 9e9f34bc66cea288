import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale } from '@/test/buying';
import { channels, sales } from '@/lib/db/schema';
import { matchRoute, type RouteMatch } from '@/lib/channel/routes';
import { ORDER_NO_STAND_IN, PAYMENT_NO_STAND_IN, planSharedPage } from './shared-page';

// Issue 29, finding 5: the page cache keys on what a shared page reads, parsed, so no spelling of a link costs a render
// of its own; a link the page would send elsewhere is sent there without a render.

const now = new Date('2026-11-22T08:00:00Z');
const db = seededTestDb(now);

let aurora: { id: number; key: string };
let lumen: { id: number; key: string };
let auroraSale: string;
let lumenSale: string;

beforeAll(async () => {
  const rows = await db.select({ id: channels.id, key: channels.key }).from(channels);
  aurora = rows.find((r) => r.key === 'AURORA')!;
  lumen = rows.find((r) => r.key === 'LUMEN')!;
  auroraSale = String((await db.select({ id: sales.id }).from(sales).where(eq(sales.channelId, aurora.id)).limit(1))[0]!.id);
  lumenSale = String((await db.select({ id: sales.id }).from(sales).where(eq(sales.channelId, lumen.id)).limit(1))[0]!.id);
  // LUMEN gets three pages of sales (20 a page).
  for (let i = 0; i < 45; i++) await makeSale(db, { channelKey: 'LUMEN', code: `page-${i}`, amount: 1, limitPerUser: 1, now });
});

const route = (path: string): RouteMatch => matchRoute(path)!;
const plan = (channel: { id: number; key: string }, path: string, query = '', locale = 'en') =>
  planSharedPage({ db, now, channelId: channel.id, channelKey: channel.key }, route(path), locale, new URLSearchParams(query));

describe('home', () => {
  it('keys every spelling of one page of the list alike, whatever else the query holds', async () => {
    const second = { kind: 'cache', key: 'LUMEN|en|/?page=2', renderPath: '/?page=2' };
    for (const query of [
      'page=2',
      'page=02',
      'page=2&utm_source=chat',
      'utm_source=chat&page=2',
      'page=2abc',
      'page=2&page=3',
      'page=%32',
    ]) {
      expect(await plan(lumen, '/', query)).toEqual(second);
    }
    const first = { kind: 'cache', key: 'LUMEN|en|/', renderPath: '/' };
    for (const query of ['', 'page=1', 'page=01', 'page=abc', 'page=0', 'page=-3', 'page=', 'x=1']) {
      expect(await plan(lumen, '/', query)).toEqual(first);
    }
  });

  it('sends a page past the last one to the last one, rather than render an empty page per number', async () => {
    expect(await plan(lumen, '/', 'page=3')).toEqual({ kind: 'cache', key: 'LUMEN|en|/?page=3', renderPath: '/?page=3' });
    for (const query of ['page=4', 'page=99999', 'page=4e9']) {
      expect(await plan(lumen, '/', query)).toEqual({ kind: 'redirect', location: '/?page=3', status: 307 });
    }
    // AURORA's list is one page long.
    expect(await plan(aurora, '/', 'page=2')).toEqual({ kind: 'redirect', location: '/', status: 307 });
  });

  it('keeps each language and each channel apart', async () => {
    expect(await plan(aurora, '/', '', 'zh-CN')).toMatchObject({ key: 'AURORA|zh-CN|/' });
    expect(await plan(aurora, '/')).toMatchObject({ key: 'AURORA|en|/' });
  });
});

describe('goods detail', () => {
  it('keys a sale by its id, trailing slash or query or not', async () => {
    const expected = { kind: 'cache', key: `AURORA|en|/goods/detail/${auroraSale}`, renderPath: `/goods/detail/${auroraSale}` };
    expect(await plan(aurora, `/goods/detail/${auroraSale}`)).toEqual(expected);
    expect(await plan(aurora, `/goods/detail/${auroraSale}/`, 'from=share&page=2')).toEqual(expected);
    // Escaped digits are the same id to the page.
    const escaped = auroraSale.replace(/\d/g, (d) => `%3${d}`);
    expect(await plan(aurora, `/goods/detail/${escaped}`)).toEqual(expected);
  });

  it('sends an id spelt with leading zeros to its one spelling', async () => {
    expect(await plan(aurora, `/goods/detail/00${auroraSale}`)).toEqual({
      kind: 'redirect',
      location: `/goods/detail/${auroraSale}`,
      status: 308,
    });
  });

  it('sends a sale the channel does not have to /404 as the page does, with no render and no entry of its own', async () => {
    for (const id of ['999999', '0', 'abc', '1.0', '-1', '99999999999', lumenSale]) {
      expect(await plan(aurora, `/goods/detail/${id}`)).toEqual({ kind: 'redirect', location: '/404', status: 307 });
    }
  });
});

describe('the pay page (issue 34)', () => {
  it('keys a sale by its id and language, as goods detail does, with nothing of the buyer in the key', async () => {
    const expected = { kind: 'cache', key: `AURORA|en|/pay/${auroraSale}`, renderPath: `/pay/${auroraSale}` };
    expect(await plan(aurora, `/pay/${auroraSale}`)).toEqual(expected);
    expect(await plan(aurora, `/pay/${auroraSale}/`, 'from=goods&quantity=3')).toEqual(expected);
    expect(await plan(aurora, `/pay/${auroraSale}`, '', 'zh-CN')).toMatchObject({ key: `AURORA|zh-CN|/pay/${auroraSale}` });
    expect(await plan(lumen, `/pay/${lumenSale}`)).toMatchObject({ key: `LUMEN|en|/pay/${lumenSale}` });
  });

  it('sends /pay/05 to /pay/5, and a sale the channel does not have to /404 without a render', async () => {
    expect(await plan(aurora, `/pay/0${auroraSale}`)).toEqual({ kind: 'redirect', location: `/pay/${auroraSale}`, status: 308 });
    for (const id of ['999999', '0', 'abc', '-1', '99999999999', lumenSale]) {
      expect(await plan(aurora, `/pay/${id}`)).toEqual({ kind: 'redirect', location: '/404', status: 307 });
    }
  });
});

describe('the result page (issue 34)', () => {
  it('keys /pay/success by channel and language only, whatever order it is for, and sends a non-order to /404 unrendered', async () => {
    const expected = { kind: 'cache', key: 'AURORA|en|/pay/success', renderPath: '/pay/success' };
    expect(await plan(aurora, '/pay/success', 'orderNo=2026112908000012345678')).toMatchObject(expected);
    expect(await plan(aurora, '/pay/success', 'orderNo=2026112908000087654321&from=alipay')).toMatchObject(expected);
    expect(await plan(lumen, '/pay/success', 'orderNo=2026112908000012345678', 'zh-CN')).toMatchObject({ key: 'LUMEN|zh-CN|/pay/success' });
    const stand = ORDER_NO_STAND_IN;
    for (const query of ['', 'orderNo=', 'orderNo=123', 'orderNo=2026112908000012345678x', 'orderNo[]=1', `orderNo=${stand}`]) {
      expect(await plan(aurora, '/pay/success', query)).toEqual({ kind: 'redirect', location: '/404', status: 307 });
    }
  });

  it('renders its router answers once, for the stand-in order, and names the order asked for in its place', async () => {
    expect(await plan(aurora, '/pay/success', 'orderNo=2026112908000087654321&from=alipay')).toMatchObject({
      standIn: {
        value: '2026112908000087654321',
        standIn: ORDER_NO_STAND_IN,
        path: '/pay/success?orderNo=2026112908000087654321',
        renderPath: `/pay/success?orderNo=${ORDER_NO_STAND_IN}`,
      },
    });
  });
});

describe('the sandbox cashier (issue 34)', () => {
  it('keys every payment’s cashier by channel and language, rendered for the stand-in payment, and sends a non-payment to /404', async () => {
    expect(await plan(aurora, '/sandbox/cashier/P202611290800001234560', '')).toEqual({
      kind: 'cache',
      key: 'AURORA|en|/sandbox/cashier',
      renderPath: `/sandbox/cashier/${PAYMENT_NO_STAND_IN}`,
      standIn: {
        value: 'P202611290800001234560',
        standIn: PAYMENT_NO_STAND_IN,
        path: '/sandbox/cashier/P202611290800001234560',
        renderPath: `/sandbox/cashier/${PAYMENT_NO_STAND_IN}`,
      },
    });
    for (const paymentNo of ['P1', 'X20261129080000123456', 'P20261129080000123456x', PAYMENT_NO_STAND_IN]) {
      expect(await plan(aurora, `/sandbox/cashier/${paymentNo}`, '')).toEqual({ kind: 'redirect', location: '/404', status: 307 });
    }
  });
});

it('keys /404 by channel and language only', async () => {
  expect(await plan(aurora, '/404', 'x=1')).toEqual({ kind: 'cache', key: 'AURORA|en|/404', renderPath: '/404' });
});

describe('/mine (issue 34)', () => {
  const mine = (channel: { id: number; key: string }, visitor: 'buyer' | 'anonymous', query = '', locale = 'en') =>
    planSharedPage(
      { db, now, channelId: channel.id, channelKey: channel.key },
      route('/mine'),
      locale,
      new URLSearchParams(query),
      visitor,
    );

  it('keys the signed-in and the anonymous variant apart, per channel and language, and renders the one asked for', async () => {
    expect(await mine(aurora, 'buyer')).toEqual({ kind: 'cache', key: 'AURORA|en|/mine|buyer', renderPath: '/mine', visitor: 'buyer' });
    expect(await mine(aurora, 'anonymous', 'utm_source=chat')).toEqual({
      kind: 'cache',
      key: 'AURORA|en|/mine|anonymous',
      renderPath: '/mine',
      visitor: 'anonymous',
    });
    expect(await mine(lumen, 'buyer', '', 'zh-CN')).toMatchObject({ key: 'LUMEN|zh-CN|/mine|buyer' });
    // Without a word on the visitor, the page is the anonymous one: a visitor is never shown the signed-in variant by default.
    expect(await plan(aurora, '/mine')).toMatchObject({ key: 'AURORA|en|/mine|anonymous', visitor: 'anonymous' });
  });
});
