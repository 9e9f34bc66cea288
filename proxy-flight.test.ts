import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextRequest } from 'next/server';
import { computeCacheBustingSearchParam } from 'next/dist/shared/lib/router/utils/cache-busting-search-param';
import { seededTestDb } from '@/test/db';
import type { Db } from '@/lib/db/client';
import { invalidate, tags } from '@/lib/cache/store';
import { FLIGHT_HEADER, markFlightRequest } from '@/lib/server/flight-request';
import { MAX_VARIANTS_PER_PAGE } from '@/lib/page/flight';
import { pageViewRecorder } from '@/lib/channel/page-views';
import { proxy } from './proxy';

// Issue 34: the router's fetch of a shared page (in-app navigation, prefetch) answered from the flight cache, keyed by
// channel, page, language and router state, with a fresh nonce per answer; everything else left to Next. Next itself
// is played by a small server here that answers what it was asked (host, language, path, tree, cookie) in the
// payload, with the nonce of its CSP in the payload as Next puts it on scripts.

const mockDbRef: { db?: Db } = {};
jest.mock('@/lib/db/client', () => ({ ...jest.requireActual('@/lib/db/client'), getDb: () => mockDbRef.db }));

const db = seededTestDb(new Date('2026-11-26T08:00:00Z'));
let next: Server;
const renders: IncomingHttpHeaders[] = [];
const RENDER_NONCE = 'AAAAAAAAAAAAAAAAAAAAAA==';

beforeAll(async () => {
  mockDbRef.db = db;
  next = createServer((req, res) => {
    renders.push(req.headers);
    const said = {
      host: req.headers.host,
      lang: req.headers['accept-language'] ?? null,
      url: req.url,
      tree: req.headers['next-router-state-tree'] ?? null,
      cookie: req.headers.cookie ?? null,
    };
    res.writeHead(200, {
      'content-type': 'text/x-component',
      vary: 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding',
      'x-nextjs-rewritten-path': '/internal',
      'content-security-policy': `script-src 'nonce-${RENDER_NONCE}'`,
    });
    res.end(`0:${JSON.stringify(said)}\n1:{"nonce":"${RENDER_NONCE}"}\n`);
  });
  await new Promise<void>((resolve) => next.listen(0, '127.0.0.1', resolve));
  process.env.INTERNAL_API_ORIGIN = `http://127.0.0.1:${(next.address() as AddressInfo).port}`;
});
afterAll(async () => {
  mockDbRef.db = undefined;
  delete process.env.INTERNAL_API_ORIGIN;
  await new Promise((resolve) => next.close(resolve));
});
beforeEach(() => {
  renders.length = 0;
});

/** A real tree as Chromium's router sent it navigating from home to goods detail 1 (Next 16.4.5, captured). */
function treeTo(saleId: string, channel = 'AURORA', locale = 'en'): string {
  return encodeURIComponent(
    JSON.stringify([
      '',
      {
        children: [
          ['channel', channel, 'd', null],
          {
            children: [
              ['locale', locale, 'd', null],
              {
                children: [
                  'goods',
                  {
                    children: [
                      'detail',
                      { children: [['saleId', saleId, 'd', null], { children: ['__PAGE__', {}, null, null, 0] }, null, null, 0] },
                      null,
                      null,
                      0,
                    ],
                  },
                  null,
                  'refetch',
                  0,
                ],
              },
              null,
              null,
              16,
            ],
          },
          null,
          null,
          16,
        ],
      },
      null,
      null,
      16,
    ]),
  );
}

type Fetch = { host?: string; path: string; tree?: string; prefetch?: string; rsc?: string; headers?: Record<string, string> };

/**
 * What a router fetch becomes by the time it reaches the proxy: marked by the entry server (server.ts) from the raw
 * request, then stripped of the router headers and `_rsc` by Next.
 */
async function routerFetch(f: Fetch): Promise<Response> {
  const host = f.host ?? 'aurora.localhost:3000';
  const raw: IncomingHttpHeaders = {
    host,
    rsc: '1',
    'next-url': '/AURORA/en',
    'accept-language': 'en',
    'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36',
    'sec-fetch-dest': 'empty',
    ...(f.tree !== undefined ? { 'next-router-state-tree': f.tree } : {}),
    ...(f.prefetch !== undefined ? { 'next-router-prefetch': f.prefetch } : {}),
    ...f.headers,
  };
  const hash =
    f.rsc ??
    (await computeCacheBustingSearchParam(f.prefetch as '1' | undefined, undefined, f.tree, raw['next-url'] as string | undefined));
  const req = { method: 'GET', url: `${f.path}${f.path.includes('?') ? '&' : '?'}_rsc=${hash}`, headers: raw };
  await markFlightRequest(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value !== 'string') continue;
    if (['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch'].includes(name)) continue;
    headers.set(name, value);
  }
  return proxy(new NextRequest(`http://${host}${f.path}`, { headers }));
}

const fromCache = (response: Response) => response.headers.get('x-storefront-cache') === 'flight';
const nonceOf = (response: Response) => response.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1];

describe('the flight cache (issue 34)', () => {
  it('renders a navigation to goods detail once, then answers it from memory with a fresh nonce and Next’s router headers', async () => {
    const tree = treeTo('1');
    const first = await routerFetch({ path: '/goods/detail/1', tree });
    const second = await routerFetch({ path: '/goods/detail/1', tree });
    expect(renders).toHaveLength(1);
    expect([fromCache(first), fromCache(second)]).toEqual([true, true]);
    const [a, b] = [await first.text(), await second.text()];
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(a).toContain(`"nonce":"${nonceOf(first)}"`);
    expect(b).toContain(`"nonce":"${nonceOf(second)}"`);
    expect(a).not.toContain(RENDER_NONCE);
    expect(second.headers.get('content-type')).toBe('text/x-component');
    expect(second.headers.get('vary')).toContain('next-router-state-tree');
    expect(second.headers.get('x-nextjs-rewritten-path')).toBe('/internal');
    expect(second.headers.get('x-content-type-options')).toBe('nosniff');
    // The render asked Next for exactly the router fetch, past the proxy's caches, without any visitor's cookie.
    expect(renders[0]).toMatchObject({ rsc: '1', 'next-router-state-tree': tree, host: 'aurora.localhost:3000' });
    expect(renders[0]?.cookie).toBeUndefined();
  });

  it('caches home’s prefetch apart from its navigation, and each language apart', async () => {
    const prefetchTree = encodeURIComponent(JSON.stringify(['', {}, null, 'metadata-only']));
    const nav = await routerFetch({ path: '/', tree: treeTo('1') });
    const prefetch = await routerFetch({ path: '/', tree: prefetchTree, prefetch: '1' });
    const chinese = await routerFetch({ path: '/', tree: prefetchTree, prefetch: '1', headers: { 'accept-language': 'zh-CN' } });
    expect([fromCache(nav), fromCache(prefetch), fromCache(chinese)]).toEqual([true, true, true]);
    expect(renders.map((r) => [r['next-router-prefetch'] ?? null, r['accept-language']])).toEqual([
      [null, 'en'],
      ['1', 'en'],
      ['1', 'zh-CN'],
    ]);
    expect(await chinese.text()).toContain('"lang":"zh-CN"');
  });

  it('leaves a buyer’s own pages, redirects and other spellings to Next, and never renders them for the cache', async () => {
    for (const path of ['/mine', '/pay/1', '/login', '/goods/detail/01', '/goods/detail/999999', '/goods/detail/1?utm_source=chat']) {
      const response = await routerFetch({ path, tree: treeTo('1') });
      expect(fromCache(response)).toBe(false);
    }
    expect(renders).toHaveLength(0);
  });

  it('answers a buyer with a session cookie the same shared answer, rendered without any cookie', async () => {
    const response = await routerFetch({ path: '/goods/detail/2', tree: treeTo('2'), headers: { cookie: 'sid=someone' } });
    expect(fromCache(response)).toBe(true);
    expect(await response.text()).toContain('"cookie":null');
  });

  it('renders again after a write invalidates the page’s tags (a buy: the sale’s stock and look)', async () => {
    const tree = treeTo('3');
    await routerFetch({ path: '/goods/detail/3', tree });
    await routerFetch({ path: '/goods/detail/3', tree });
    expect(renders).toHaveLength(1);
    invalidate(db, [tags.sale(3)]);
    const after = await routerFetch({ path: '/goods/detail/3', tree });
    expect(fromCache(after)).toBe(true);
    expect(renders).toHaveLength(2);
  });

  it('keeps a page’s known router states when a stream of made-up ones arrives, sending the excess to Next', async () => {
    const real = treeTo('4');
    await routerFetch({ path: '/goods/detail/4', tree: real });
    // Made-up states that follow the page all the way down (what Next reads of them is the whole tree).
    const madeUp = Array.from({ length: MAX_VARIANTS_PER_PAGE + 20 }, (_, i) => real.replace('__PAGE__', `__PAGE__made-up-${i}`));
    const answered = [];
    for (const tree of madeUp) answered.push(fromCache(await routerFetch({ path: '/goods/detail/4', tree })));
    // One slot went to the real state; the made-up ones fill the rest, and the others go to Next unrendered here.
    expect(answered.filter(Boolean)).toHaveLength(MAX_VARIANTS_PER_PAGE - 1);
    expect(renders).toHaveLength(MAX_VARIANTS_PER_PAGE);
    const again = await routerFetch({ path: '/goods/detail/4', tree: real });
    expect(fromCache(again)).toBe(true);
    expect(renders).toHaveLength(MAX_VARIANTS_PER_PAGE);
  });

  it('answers made-up states that leave the page at the root as one: Next renders all of them from the root alike', async () => {
    const madeUp = Array.from({ length: MAX_VARIANTS_PER_PAGE + 20 }, (_, i) =>
      encodeURIComponent(JSON.stringify(['', { children: [`made-up-${i}`, {}, null, 'refetch'] }, null, null])),
    );
    const answered = [];
    for (const tree of madeUp) answered.push(fromCache(await routerFetch({ path: '/goods/detail/5', tree })));
    expect(answered.every(Boolean)).toBe(true);
    expect(renders).toHaveLength(1);
  });
});

describe('page views (issue 31) of in-app navigation', () => {
  it('counts the router’s fetch of the next page, which Next had stripped of its RSC header, and not its prefetches', async () => {
    const counter = pageViewRecorder(() => db);
    const before = counter.pending();
    await routerFetch({ path: '/goods/detail/6', tree: treeTo('6') });
    expect(counter.pending() - before).toBe(1);
    await routerFetch({
      path: '/goods/detail/6',
      tree: encodeURIComponent(JSON.stringify(['', {}, null, 'metadata-only'])),
      prefetch: '1',
    });
    await routerFetch({ path: '/mine', prefetch: '1' });
    expect(counter.pending() - before).toBe(1);
  });
});

describe('cache poisoning: one visitor’s variation never reaches another (issue 34)', () => {
  it('keeps each channel’s answer to its own host, and a tree naming another channel out of the cache', async () => {
    const prefetchTree = encodeURIComponent(JSON.stringify(['', {}, null, 'metadata-only']));
    const aurora = await routerFetch({ path: '/', tree: prefetchTree, prefetch: '1', headers: { 'accept-language': 'en-GB' } });
    const dark = await routerFetch({ host: 'dark.localhost:3000', path: '/', tree: prefetchTree, prefetch: '1' });
    expect(await aurora.text()).toContain('"host":"aurora.localhost:3000"');
    expect(fromCache(dark)).toBe(true);
    expect(await dark.text()).toContain('"host":"dark.localhost:3000"');
    // AURORA's tree on DARK's host: made up, Next's to answer.
    const crossed = await routerFetch({ host: 'dark.localhost:3000', path: '/', tree: treeTo('1', 'AURORA', 'en') });
    expect(fromCache(crossed)).toBe(false);
  });

  it('ignores the client’s own flight header, a wrong _rsc, and forwarding headers naming another host', async () => {
    const tree = treeTo('5');
    // A forged marker on a page load: dropped by the entry server, so the page load is not taken for a router fetch.
    const forged = {
      method: 'GET',
      url: '/goods/detail/5',
      headers: { host: 'aurora.localhost:3000', [FLIGHT_HEADER]: 'eyJyc2MiOiJ4In0' },
    };
    expect(markFlightRequest(forged)).toBeUndefined();
    expect(forged.headers[FLIGHT_HEADER]).toBeUndefined();
    // A hash that does not match the headers: Next redirects it to the right one; nothing is cached.
    const wrong = await routerFetch({ path: '/goods/detail/5', tree, rsc: 'not-the-hash' });
    expect(fromCache(wrong)).toBe(false);
    const forwarded = await routerFetch({
      path: '/goods/detail/5',
      tree,
      headers: { 'x-forwarded-host': 'dark.localhost:3000', 'accept-language': 'en' },
    });
    expect(fromCache(forwarded)).toBe(true);
    expect(await forwarded.text()).toContain('"host":"aurora.localhost:3000"');
    // The English tree from a Chinese visitor is not one their router would send: Next's to answer.
    const mixed = await routerFetch({ path: '/goods/detail/5', tree, headers: { 'accept-language': 'zh-CN' } });
    expect(fromCache(mixed)).toBe(false);
    // Another visitor with another language and a cookie gets neither the first one's language nor anything of theirs.
    const other = await routerFetch({
      path: '/goods/detail/5',
      tree: treeTo('5', 'AURORA', 'zh-CN'),
      headers: { 'accept-language': 'zh-CN', cookie: 'sid=x' },
    });
    expect(fromCache(other)).toBe(true);
    const text = await other.text();
    expect(text).toContain('"lang":"zh-CN"');
    expect(text).toContain('"cookie":null');
    expect(renders.every((r) => r.cookie === undefined)).toBe(true);
  });
});
