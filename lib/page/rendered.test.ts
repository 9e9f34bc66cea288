import { matchRoute, type RouteMatch } from '../channel/routes';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalidate } from '../cache/store';
import type { Db } from '../db/client';
import { pageTags, readRenderedPage, RENDER_HEADER, RenderFailed, renderThroughServer, servesFromCache, nonceParts } from './rendered';

function route(path: string): RouteMatch {
  const match = matchRoute(path);
  if (!match) throw new Error(`no route for ${path}`);
  return match;
}

// What Chromium sends for a page load, and for the router's RSC fetch once Next has removed its own headers.
const PAGE_LOAD = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
};
const ROUTER_FETCH = { accept: '*/*', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors', 'next-url': '/AURORA/en' };

describe('servesFromCache', () => {
  it('answers a page load of a shared page: home, goods detail, /404, the pay page (issue 34, after the login guard), /sellout', () => {
    for (const path of ['/', '/goods/detail/1', '/404', '/pay/1', '/sellout']) {
      expect(servesFromCache('GET', new Headers(PAGE_LOAD), route(path))).toBe(true);
    }
  });

  it('leaves the router’s RSC fetches and prefetches to Next, which answer them with flight data, not HTML', () => {
    expect(servesFromCache('GET', new Headers(ROUTER_FETCH), route('/goods/detail/1'))).toBe(false);
    // A browser without Sec-Fetch headers: its fetch() still accepts any type rather than HTML.
    expect(servesFromCache('GET', new Headers({ accept: '*/*' }), route('/goods/detail/1'))).toBe(false);
    expect(servesFromCache('GET', new Headers(), route('/goods/detail/1'))).toBe(false);
  });

  it('answers a link-preview bot that asks for HTML without Sec-Fetch headers', () => {
    expect(servesFromCache('GET', new Headers({ accept: 'text/html' }), route('/goods/detail/1'))).toBe(true);
  });

  it('leaves other methods, frames of other kinds, per-buyer pages and its own render requests to Next', () => {
    expect(servesFromCache('HEAD', new Headers(PAGE_LOAD), route('/'))).toBe(false);
    expect(servesFromCache('POST', new Headers(PAGE_LOAD), route('/'))).toBe(false);
    expect(servesFromCache('GET', new Headers({ ...PAGE_LOAD, 'sec-fetch-dest': 'iframe' }), route('/'))).toBe(false);
    for (const path of ['/login', '/pay/fail', '/mine/records']) {
      expect(servesFromCache('GET', new Headers(PAGE_LOAD), route(path))).toBe(false);
    }
    // The proxy's own render request carries the per-process secret; a guess does not pass.
    expect(servesFromCache('GET', new Headers({ ...PAGE_LOAD, [RENDER_HEADER]: 'guess' }), route('/'))).toBe(true);
  });

  it('answers /mine’s page loads from the cache and leaves its RSC fetches to Next (issue 34)', () => {
    expect(servesFromCache('GET', new Headers(PAGE_LOAD), route('/mine'))).toBe(true);
    expect(servesFromCache('GET', new Headers(ROUTER_FETCH), route('/mine'))).toBe(false);
  });

  it('answers the result page’s loads from the cache, the order being read by its client part (issue 34)', () => {
    expect(servesFromCache('GET', new Headers(PAGE_LOAD), route('/pay/success'))).toBe(true);
  });

  it('leaves the pay page’s RSC fetches, prefetches and other methods to Next as for every shared page (issue 34)', () => {
    expect(servesFromCache('GET', new Headers(ROUTER_FETCH), route('/pay/1'))).toBe(false);
    expect(servesFromCache('HEAD', new Headers(PAGE_LOAD), route('/pay/1'))).toBe(false);
    expect(servesFromCache('POST', new Headers(PAGE_LOAD), route('/pay/1'))).toBe(false);
  });
});

describe('pageTags', () => {
  const channel = { id: 7, key: 'AURORA' };
  it('tags goods detail by its sale, home by the channel’s sales, and every page by its channel', () => {
    expect(pageTags(channel, route('/goods/detail/12'))).toEqual(['channel:AURORA', 'sale:12', 'sale-terms:12']);
    // issue 34: the pay page shows the sale's terms and copies left, as goods detail does.
    expect(pageTags(channel, route('/pay/12'))).toEqual(['channel:AURORA', 'sale:12', 'sale-terms:12']);
    expect(pageTags(channel, route('/'))).toEqual(['channel:AURORA', 'sales:7']);
    expect(pageTags(channel, route('/404'))).toEqual(['channel:AURORA']);
    // issue 34: /mine shows the channel's look and settings; the buyer's counts are the call's, never the page's.
    expect(pageTags(channel, route('/mine'))).toEqual(['channel:AURORA']);
  });
});

describe('nonceParts', () => {
  it('cuts a page wherever the render’s nonce was, so an answer puts its own there, and leaves a page without one whole', () => {
    const body = '<script nonce="abc123">1</script><script nonce="abc123" src="/x.js"></script>';
    expect(nonceParts(body, 'abc123').join('fresh')).toBe('<script nonce="fresh">1</script><script nonce="fresh" src="/x.js"></script>');
    expect(nonceParts('<p>hi</p>', null)).toEqual(['<p>hi</p>']);
  });
});

describe('a render through the server, when the database is down (issue 29, finding 11)', () => {
  // A stand-in for this same server: answers what the test says, and counts the renders asked of it.
  let status = 200;
  let renders = 0;
  let server: Server;
  let origin: URL;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      renders++;
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(status === 200 ? `<html><body>render ${renders}</body></html>` : 'Internal Server Error');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => jest.restoreAllMocks());

  const render = () => renderThroughServer(origin, '/goods/detail/1', { host: 'aurora.localhost:3000', acceptLanguage: null });

  it('fails on a server error (so the cache can stand in), but answers a 404 as a page not to keep', async () => {
    status = 500;
    await expect(render()).rejects.toBeInstanceOf(RenderFailed);
    status = 404;
    await expect(render()).resolves.toBeUndefined();
    status = 200;
    await expect(render()).resolves.toMatchObject({ kind: 'page', body: expect.stringContaining('render') });
  });

  it('serves the last good render of a shared page while renders fail, trying one render a second', async () => {
    // The caches are kept per database handle; this one is the test's own and never reaches a database.
    const db = {} as Db;
    const key = `AURORA|en|/goods/detail/${Math.random()}`;
    const tagsOf = ['channel:AURORA', 'sale:1'];
    status = 200;
    const good = await readRenderedPage(db, key, tagsOf, render);
    expect(good).toMatchObject({ kind: 'page' });
    // The database goes down, and a write made just before invalidated the page: every read now renders and fails.
    invalidate(db, ['sale:1']);
    status = 500;
    const before = renders;
    const answers = await Promise.all(Array.from({ length: 20 }, () => readRenderedPage(db, key, tagsOf, render)));
    expect(answers.every((page) => page === good)).toBe(true);
    expect(renders - before).toBe(1);
  });
});
