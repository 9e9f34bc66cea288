import { decideRoute, type RoutingInput } from './routing';
import type { ChannelSummary } from './theme';
import type { Label } from './labels';
import type { ChannelAttributes } from '../db/schema';

function channel(key: string, labels: Label[], attributes: ChannelAttributes = {}, locale: string | null = null): ChannelSummary {
  return { key, status: 1, labels, attributes, locale };
}

const AURORA = channel('AURORA', [1, 2, 3, 4]);
const LUMEN = channel('LUMEN', [1]);
const GIFT = channel('GIFT', [3]);
const CHAIN = channel('CHAIN', [4]);
const SWAP = channel('SWAP', [2]);

function decide(overrides: Partial<RoutingInput>) {
  return decideRoute({
    key: 'AURORA',
    pathname: '/',
    search: '',
    summary: AURORA,
    hasSession: false,
    acceptLanguage: null,
    ...overrides,
  });
}

describe('decideRoute: unknown hosts and paths', () => {
  it('answers "store not found" for a channel that does not exist, whatever the path', () => {
    expect(decide({ key: 'NOWHERE', summary: null })).toEqual({ kind: 'storeNotFound' });
    expect(decide({ key: 'NOWHERE', summary: null, pathname: '/mine/box' })).toEqual({ kind: 'storeNotFound' });
    expect(decide({ key: '', summary: null, pathname: '/nope' })).toEqual({ kind: 'storeNotFound' });
  });

  it('redirects an unknown path to /404 (spec §2)', () => {
    expect(decide({ pathname: '/nope' })).toEqual({ kind: 'redirect', location: '/404' });
    expect(decide({ pathname: '/goods/detail' })).toEqual({ kind: 'redirect', location: '/404' });
  });

  it('always redirects /set_key/:key to /404 (spec §2)', () => {
    expect(decide({ pathname: '/set_key/x' })).toEqual({ kind: 'redirect', location: '/404' });
    expect(decide({ pathname: '/set_key/x', hasSession: true })).toEqual({ kind: 'redirect', location: '/404' });
  });
});

describe('decideRoute: label guards (spec §2)', () => {
  it('sends home to the first feature of a channel without label 1', () => {
    expect(decide({ key: 'SWAP', summary: SWAP })).toEqual({ kind: 'redirect', location: '/active' });
    expect(decide({ key: 'GIFT', summary: GIFT })).toEqual({ kind: 'redirect', location: '/receive2' });
    expect(decide({ key: 'GIFT', summary: channel('GIFT', [3], { giftOnly: true }) })).toEqual({ kind: 'redirect', location: '/receive' });
  });

  it('sends /detail/:id, the home page opened on one sale, where home goes, and rewrites it where home stays', () => {
    expect(decide({ key: 'SWAP', summary: SWAP, pathname: '/detail/7' })).toEqual({ kind: 'redirect', location: '/active' });
    expect(decide({ key: 'GIFT', summary: GIFT, pathname: '/detail/7' })).toEqual({ kind: 'redirect', location: '/receive2' });
    expect(decide({ pathname: '/detail/7' })).toMatchObject({ kind: 'rewrite', pathname: '/AURORA/en/detail/7' });
  });

  it('keeps the query string when home goes to /chain, also from the empty path', () => {
    expect(decide({ key: 'CHAIN', summary: CHAIN, search: '?a=1' })).toEqual({ kind: 'redirect', location: '/chain?a=1' });
    expect(decide({ key: 'CHAIN', summary: CHAIN, pathname: '', search: '?a=1' })).toEqual({ kind: 'redirect', location: '/chain?a=1' });
  });

  it('does not redirect pages other than home on a channel without label 1', () => {
    expect(decide({ key: 'CHAIN', summary: CHAIN, pathname: '/chain', search: '?a=1' })).toMatchObject({
      kind: 'rewrite',
      pathname: '/CHAIN/en/chain',
    });
  });

  it('sends /active to /404 without label 2', () => {
    expect(decide({ key: 'LUMEN', summary: LUMEN, pathname: '/active' })).toEqual({ kind: 'redirect', location: '/404' });
    expect(decide({ key: 'SWAP', summary: SWAP, pathname: '/active' })).toMatchObject({ kind: 'rewrite', pathname: '/SWAP/en/active' });
  });

  it('sends /active to /404 for the channel class that cannot open it, even with label 2', () => {
    const noActive = channel('SWAP', [1, 2], { noActive: true });
    expect(decide({ key: 'SWAP', summary: noActive, pathname: '/active' })).toEqual({ kind: 'redirect', location: '/404' });
  });

  it('sends /mine/exchange to /404 without label 2, before asking to log in', () => {
    expect(decide({ key: 'LUMEN', summary: LUMEN, pathname: '/mine/exchange' })).toEqual({ kind: 'redirect', location: '/404' });
    expect(decide({ key: 'LUMEN', summary: LUMEN, pathname: '/mine/exchange', hasSession: true })).toEqual({
      kind: 'redirect',
      location: '/404',
    });
    expect(decide({ key: 'SWAP', summary: SWAP, pathname: '/mine/exchange', hasSession: true })).toMatchObject({
      kind: 'rewrite',
      pathname: '/SWAP/en/mine/exchange',
    });
  });
});

describe('decideRoute: login guard (spec §2, §6)', () => {
  it('sends a visitor without a session to /login with the way back encoded', () => {
    expect(decide({ pathname: '/mine/box' })).toEqual({ kind: 'redirect', location: '/login?redirect=%2Fmine%2Fbox' });
    expect(decide({ pathname: '/pay/42', search: '?from=share&x=1' })).toEqual({
      kind: 'redirect',
      location: '/login?redirect=%2Fpay%2F42%3Ffrom%3Dshare%26x%3D1',
    });
  });

  it('round-trips the original path and query through the redirect parameter', () => {
    const decision = decide({ pathname: '/chain/1/CODE/2/Lin%20Yue', search: '?a=1&b=2' });
    expect(decision.kind).toBe('redirect');
    const location = decision.kind === 'redirect' ? decision.location : '';
    const url = new URL(location, 'http://aurora.localhost');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe('/chain/1/CODE/2/Lin%20Yue?a=1&b=2');
  });

  it('lets a visitor with a session through to the page', () => {
    expect(decide({ pathname: '/mine/box', hasSession: true })).toMatchObject({ kind: 'rewrite', pathname: '/AURORA/en/mine/box' });
  });

  it('keeps open pages open without a session', () => {
    for (const pathname of ['/mine', '/goods/detail/42', '/receive', '/receive2', '/login']) {
      expect(decide({ pathname })).toMatchObject({ kind: 'rewrite', pathname: `/AURORA/en${pathname}` });
    }
  });
});

describe('decideRoute: rewrite and locale', () => {
  it('rewrites home to /<KEY>/<locale>, from "/" and from the empty path', () => {
    expect(decide({ pathname: '/' })).toMatchObject({ kind: 'rewrite', pathname: '/AURORA/en' });
    expect(decide({ pathname: '' })).toMatchObject({ kind: 'rewrite', pathname: '/AURORA/en' });
  });

  it('rewrites a page to /<KEY>/<locale>/<path>', () => {
    expect(decide({ key: 'LUMEN', summary: LUMEN, pathname: '/goods/detail/42' })).toMatchObject({
      kind: 'rewrite',
      pathname: '/LUMEN/en/goods/detail/42',
    });
  });

  it("uses the channel's locale over Accept-Language", () => {
    const bazaar = channel('BAZAAR', [1], { buyGoodsTitle: true }, 'zh-CN');
    expect(decide({ key: 'BAZAAR', summary: bazaar, acceptLanguage: 'en-US,en;q=0.9' })).toMatchObject({
      kind: 'rewrite',
      pathname: '/BAZAAR/zh-CN',
    });
    const english = channel('LUMEN', [1], {}, 'en');
    expect(decide({ key: 'LUMEN', summary: english, acceptLanguage: 'zh-CN' })).toMatchObject({ kind: 'rewrite', pathname: '/LUMEN/en' });
  });

  it.each([
    ['zh-TW,zh;q=0.9', 'zh-CN'],
    ['en-US', 'en'],
    ['fr', 'en'],
    [null, 'en'],
  ])('without a channel locale, Accept-Language %p gives %s', (acceptLanguage, locale) => {
    expect(decide({ pathname: '/mine', acceptLanguage })).toMatchObject({ kind: 'rewrite', pathname: `/AURORA/${locale}/mine` });
  });
});

describe('decideRoute: channel lookup unavailable', () => {
  it('serves the page without label guards', () => {
    expect(decide({ key: 'LUMEN', summary: 'unavailable', pathname: '/active' })).toMatchObject({
      kind: 'rewrite',
      pathname: '/LUMEN/en/active',
    });
    expect(decide({ key: 'CHAIN', summary: 'unavailable', pathname: '/' })).toMatchObject({ kind: 'rewrite', pathname: '/CHAIN/en' });
  });

  it('still applies the login guard and sends unknown paths to /404', () => {
    expect(decide({ summary: 'unavailable', pathname: '/mine/records' })).toEqual({
      kind: 'redirect',
      location: '/login?redirect=%2Fmine%2Frecords',
    });
    expect(decide({ summary: 'unavailable', pathname: '/nope' })).toEqual({ kind: 'redirect', location: '/404' });
  });

  it('falls back to Accept-Language for the locale', () => {
    expect(decide({ summary: 'unavailable', pathname: '/mine', acceptLanguage: 'zh-CN' })).toMatchObject({
      kind: 'rewrite',
      pathname: '/AURORA/zh-CN/mine',
    });
  });
});

describe('decideRoute: the route a rewrite goes to', () => {
  it('names the route and its parameters, for the proxy to know a shared page', () => {
    const decision = decide({ pathname: '/goods/detail/7' });
    expect(decision).toMatchObject({ kind: 'rewrite', match: { route: { name: 'goodsDetail' }, params: { saleId: '7' } } });
  });
});
