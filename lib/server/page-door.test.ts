import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib, { deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import { NextRequest } from 'next/server';
import { computeCacheBustingSearchParam } from 'next/dist/shared/lib/router/utils/cache-busting-search-param';
import { seededTestDb } from '@/test/db';
import type { Db } from '@/lib/db/client';
import { invalidate, tags } from '@/lib/cache/store';
import { markFlightRequest } from './flight-request';
import { answerPageAtTheDoor, crcCombine, crcShift, gzipPieces, installPageDoor, PROXIED_PATH, pageDoorTakes } from './page-door';
import { readPageAtTheDoor } from './page-door-read';
import { config, proxy } from '@/proxy';
import { encode } from 'next-auth/jwt';
import { authSecret } from '@/lib/security/secret';

// Issue 34: the page door. The entry server answers a shared page the caches hold fresh before Next's pipeline, on the
// proxy's own decision (lib/page/store-request.ts); everything else goes on to Next and the proxy, which read, render
// and refill. Next is played by a small server that answers what it was asked, with its nonce in the page as Next
// puts it on scripts.

const mockDbRef: { db?: Db } = {};
jest.mock('@/lib/db/client', () => ({ ...jest.requireActual('@/lib/db/client'), getDb: () => mockDbRef.db }));

const db = seededTestDb(new Date('2026-11-26T08:00:00Z'));
let next: Server;
let renders = 0;
const RENDER_NONCE = 'AAAAAAAAAAAAAAAAAAAAAA==';
const HOST = 'aurora.localhost:3000';
const PAGE_LOAD = {
  accept: 'text/html,application/xhtml+xml',
  'sec-fetch-dest': 'document',
  'accept-language': 'en',
  'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36',
};

beforeAll(async () => {
  mockDbRef.db = db;
  next = createServer((req, res) => {
    renders++;
    // The goods page of sale 4 fails to render (its database read, say).
    if (req.url?.startsWith('/goods/detail/4')) return void res.writeHead(500).end();
    const rsc = req.headers.rsc === '1';
    res.writeHead(200, {
      'content-type': rsc ? 'text/x-component' : 'text/html; charset=utf-8',
      ...(rsc
        ? {
            vary: 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch',
            'x-nextjs-rewritten-path': (req.url ?? '').split('?')[0]!,
          }
        : {}),
      'content-security-policy': `script-src 'nonce-${RENDER_NONCE}'`,
    });
    const said = `${req.url} ${req.headers['accept-language']}`;
    res.end(
      rsc
        ? `0:${JSON.stringify(said)}\n1:{"nonce":"${RENDER_NONCE}"}\n`
        : `<!DOCTYPE html><html><body><p>${said}</p>${'<i>padding</i>'.repeat(100)}<script nonce="${RENDER_NONCE}">1</script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => next.listen(0, '127.0.0.1', resolve));
  process.env.INTERNAL_API_ORIGIN = `http://127.0.0.1:${(next.address() as AddressInfo).port}`;
});
afterAll(async () => {
  mockDbRef.db = undefined;
  installPageDoor(null);
  delete process.env.INTERNAL_API_ORIGIN;
  await new Promise((resolve) => next.close(resolve));
});
beforeEach(() => {
  renders = 0;
});

/** A page load through Next and the proxy (what fills the cache). */
const throughProxy = (path: string, headers: Record<string, string> = PAGE_LOAD, host = HOST) =>
  proxy(new NextRequest(`http://${host}${path}`, { headers: { host, ...headers } }));
/** The same request at the door, before Next. */
const atTheDoor = (path: string, headers: IncomingHttpHeaders = PAGE_LOAD, host = HOST) =>
  readPageAtTheDoor({ method: 'GET', url: path, headers: { host, ...headers } });
const nonceIn = (csp: string | undefined | null) => csp?.match(/'nonce-([^']+)'/)?.[1];

describe('the page door (issue 34)', () => {
  it('answers a page load the cache holds as the proxy does, with a nonce of its own in the page and its CSP', async () => {
    const filled = await throughProxy('/goods/detail/1');
    expect(filled.headers.get('x-storefront-cache')).toBe('shared');
    expect(renders).toBe(1);
    const answer = (await atTheDoor('/goods/detail/1'))!;
    expect(answer).not.toBeNull();
    expect(renders).toBe(1);
    expect(answer.status).toBe(200);
    const nonce = nonceIn(answer.headers['content-security-policy']);
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(nonceIn(filled.headers.get('content-security-policy')));
    expect(answer.body).toContain(`<script nonce="${nonce}">`);
    expect(answer.body).not.toContain(RENDER_NONCE);
    expect(answer.body).toContain('<p>/goods/detail/1 en</p>');
    // The same headers as the proxy's answer, but the nonce's.
    const same = (headers: Record<string, string>) =>
      Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-security-policy'));
    const proxied = Object.fromEntries([...filled.headers.entries()]);
    expect(same(answer.headers)).toEqual(same(proxied));
  });

  it('answers a router fetch the flight cache holds, marked by the entry server as for the proxy', async () => {
    const tree = encodeURIComponent(JSON.stringify(['', {}, null, 'metadata-only']));
    const raw: IncomingHttpHeaders = { ...PAGE_LOAD, host: HOST, rsc: '1', 'next-url': '/AURORA/en', 'next-router-state-tree': tree };
    raw['sec-fetch-dest'] = 'empty';
    raw.accept = '*/*';
    const hash = await computeCacheBustingSearchParam(undefined, undefined, tree, '/AURORA/en');
    const req = { method: 'GET', url: `/sellout?_rsc=${hash}`, headers: raw };
    await markFlightRequest(req);
    // A miss: rendered through Next once, at the door, for it and for any reader waiting on it.
    const [first, second] = await Promise.all([readPageAtTheDoor(req), readPageAtTheDoor(req)]);
    expect(renders).toBe(1);
    expect(first!.headers['x-storefront-cache']).toBe('flight');
    expect(second!.headers['x-storefront-cache']).toBe('flight');
    const answer = (await readPageAtTheDoor(req))!;
    expect(answer.headers['x-storefront-cache']).toBe('flight');
    expect(answer.headers['content-type']).toBe('text/x-component');
    expect(answer.body).toContain(`"nonce":"${nonceIn(answer.headers['content-security-policy'])}"`);
    expect(renders).toBe(1);
    // The same fetch with an `_rsc` that is not its headers' hash is Next's (it redirects it to the right one).
    const forged = { method: 'GET', url: '/sellout?_rsc=abcde', headers: { ...raw } };
    await markFlightRequest(forged);
    expect(await readPageAtTheDoor(forged)).toBeNull();
  });

  it('answers every order’s result page and every payment’s cashier from one render, the number asked for in the stand-in’s place', async () => {
    const cookie = `next-auth.session-token=${await encode({
      token: { sub: 'door-buyer', apiToken: 'door-token', channel: 'AURORA', phone: '139****0000' },
      secret: authSecret(),
    })}`;
    const tree = encodeURIComponent(JSON.stringify(['', {}, null, null]));
    const routerFetch = async (path: string) => {
      const raw: IncomingHttpHeaders = { ...PAGE_LOAD, host: HOST, cookie, rsc: '1', 'next-router-state-tree': tree };
      raw['sec-fetch-dest'] = 'empty';
      raw.accept = '*/*';
      const hash = await computeCacheBustingSearchParam(undefined, undefined, tree, undefined);
      const req = { method: 'GET', url: `${path}${path.includes('?') ? '&' : '?'}_rsc=${hash}`, headers: raw };
      await markFlightRequest(req);
      return req;
    };
    const viaProxy = async (req: { url: string; headers: IncomingHttpHeaders }) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'rsc') headers.set(name, value);
      return proxy(new NextRequest(`http://${HOST}${req.url.replace(/[?&]_rsc=[^&]*$/, '')}`, { headers }));
    };
    const first = '2026112908000012345678';
    const second = '2026112908000087654321';
    const filled = await viaProxy(await routerFetch(`/pay/success?orderNo=${first}`));
    expect(filled.headers.get('x-storefront-cache')).toBe('flight');
    // Rendered once, for no order: the stand-in; the buyer's answer names their own order.
    expect(renders).toBe(1);
    expect(await filled.text()).toContain(`/pay/success?orderNo=${first}&_rsc=`);
    for (const orderNo of [first, second]) {
      const answer = (await readPageAtTheDoor(await routerFetch(`/pay/success?orderNo=${orderNo}`)))!;
      expect(answer.headers['x-storefront-cache']).toBe('flight');
      expect(answer.body).toContain(`0:"/pay/success?orderNo=${orderNo}&_rsc=`);
      expect(answer.body).not.toContain('0000000000');
    }
    // Another spelling of the query is Next's, as a query the page does not read would be.
    expect(await readPageAtTheDoor(await routerFetch(`/pay/success?orderNo=${first}&from=alipay`))).toBeNull();
    expect(renders).toBe(1);

    // The cashier: a page load and a router fetch, each rendered once for every payment.
    const page = await throughProxy('/sandbox/cashier/P202611290800001111110', { ...PAGE_LOAD, cookie });
    expect(page.headers.get('x-storefront-cache')).toBe('shared');
    expect(await page.text()).toContain('<p>/sandbox/cashier/P202611290800001111110 en</p>');
    const door = (await atTheDoor('/sandbox/cashier/P202611290800002222220', { ...PAGE_LOAD, cookie }))!;
    expect(door.body).toContain('<p>/sandbox/cashier/P202611290800002222220 en</p>');
    expect(door.body).toContain(`<script nonce="${nonceIn(door.headers['content-security-policy'])}">`);
    await viaProxy(await routerFetch('/sandbox/cashier/P202611290800001111110'));
    const flight = (await readPageAtTheDoor(await routerFetch('/sandbox/cashier/P202611290800003333330')))!;
    expect(flight.body).toContain('0:"/sandbox/cashier/P202611290800003333330?_rsc=');
    expect(flight.headers['x-nextjs-rewritten-path']).toBe('/sandbox/cashier/P202611290800003333330');
    expect(renders).toBe(3);
    // Without a session, the login guard still comes first.
    expect(await atTheDoor('/sandbox/cashier/P202611290800002222220')).toBeNull();
    expect((await throughProxy('/sandbox/cashier/P202611290800002222220')).status).toBe(307);
  });

  it('renders a miss or an invalidated page once, as the proxy would, and answers the caches’ redirects', async () => {
    await throughProxy('/goods/detail/2');
    const rendered = renders;
    expect(await atTheDoor('/goods/detail/2')).not.toBeNull();
    expect(renders).toBe(rendered);
    // Invalidated: the next reader waits for its render, so it shows the write.
    invalidate(db, [tags.sale('2')]);
    expect((await atTheDoor('/goods/detail/2'))?.headers['x-storefront-cache']).toBe('shared');
    expect(renders).toBe(rendered + 1);
    // Never rendered: a miss, rendered at the door.
    expect((await atTheDoor('/goods/detail/3'))?.body).toContain('<p>/goods/detail/3 en</p>');
    expect(renders).toBe(rendered + 2);
    // A padded id (308 to its one spelling) and a made-up one (/404): the redirects the page cache answers, unrendered.
    expect(await atTheDoor('/goods/detail/01')).toMatchObject({ status: 308, headers: { location: `http://${HOST}/goods/detail/1` } });
    expect(await atTheDoor('/goods/detail/999999')).toMatchObject({ status: 307, headers: { location: `http://${HOST}/404` } });
    expect(renders).toBe(rendered + 2);
  });

  it('marks a page whose render failed at the door, so the proxy leaves it to Next without rendering it again', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    const call = { method: 'GET', url: '/goods/detail/4', headers: { host: HOST, ...PAGE_LOAD } as IncomingHttpHeaders };
    expect(await readPageAtTheDoor(call)).toBeNull();
    expect(renders).toBe(1);
    expect(call.headers['x-storefront-door-read']).toBe('1');
    const headers = new Headers();
    for (const [name, value] of Object.entries(call.headers)) headers.set(name, String(value));
    const answer = await proxy(new NextRequest(`http://${HOST}/goods/detail/4`, { headers }));
    expect(answer.headers.get('x-storefront-cache')).toBeNull();
    expect(answer.headers.get('x-middleware-rewrite')).toContain('/AURORA/en/goods/detail/4');
    expect(renders).toBe(1);
    // A client's copy of the mark never reaches the proxy: the entry server drops it from every request.
    const forged = { method: 'GET', url: '/goods/detail/1', headers: { host: HOST, ...PAGE_LOAD, 'x-storefront-door-read': '1' } };
    await markFlightRequest(forged);
    expect(forged.headers['x-storefront-door-read']).toBeUndefined();
    errors.mockRestore();
  });

  it('leaves to Next what the proxy must decide: a guard, another host spelling, the console, a fetch that is no page load', async () => {
    const rendered = renders;
    // The pay page behind login, without a session: the proxy sends the visitor to log in.
    expect(await atTheDoor('/pay/1')).toBeNull();
    expect((await throughProxy('/pay/1')).status).toBe(307);
    // Another spelling of the host (308 to the channel's one).
    expect(await atTheDoor('/goods/detail/1', PAGE_LOAD, 'AURORA.localhost:3000')).toBeNull();
    // The router's fetch or a script's, not a page load.
    expect(await atTheDoor('/goods/detail/1', { ...PAGE_LOAD, 'sec-fetch-dest': 'empty', accept: '*/*' })).toBeNull();
    // A host of no channel, and the operator console's.
    expect(await atTheDoor('/goods/detail/1', PAGE_LOAD, 'nobody.example')).toBeNull();
    expect(await atTheDoor('/', PAGE_LOAD, 'ops.localhost:3000')).toBeNull();
    expect(renders).toBe(rendered);
  });

  it('never takes a client’s word for a render or a visitor: those headers change nothing at the door', async () => {
    await throughProxy('/');
    const answer = await atTheDoor('/', { ...PAGE_LOAD, 'x-storefront-render': 'guess', 'x-storefront-visitor': 'buyer' });
    expect(answer?.headers['x-storefront-cache']).toBe('shared');
  });
});

describe('what the entry server sends to the door', () => {
  it('looks at the proxy’s paths only, spelt plainly, and GETs only', () => {
    expect(PROXIED_PATH).toBe(config.matcher[0]);
    installPageDoor(readPageAtTheDoor);
    const takes = (url: string, method = 'GET') => pageDoorTakes({ method, url });
    expect(['/', '/goods/detail/1', '/pay/1?x=1', '/sellout', '/mine'].map((u) => takes(u))).toEqual([true, true, true, true, true]);
    for (const url of [
      '/api/ping',
      '/_next/static/a.js',
      '/goods/a-b.svg',
      '/media/x',
      '/goods/detail/1/',
      '//x',
      '/%41',
      '/a/../b',
      '/a.b',
    ]) {
      expect([url, takes(url)]).toEqual([url, url === '/media/x']);
    }
    expect(takes('/', 'POST')).toBe(false);
    expect(takes('/', 'HEAD')).toBe(false);
    installPageDoor(null);
    expect(takes('/')).toBe(false);
  });

  it('gzips a page from its pieces deflated once, with each answer’s nonce between them, to the bytes of the whole page', () => {
    const nonce = 'r6EocesqpiKoobBUs73d3A==';
    const cases: string[][] = [
      ['<html><script nonce="', '">1</script><p>', '</p></html>'],
      ['', '<p>最后一盏灯笼 ¥ 9.90</p>'.repeat(300), ''],
      ['<p>no nonce at all</p>'.repeat(100)],
      Array.from({ length: 9 }, (_, i) => `<div data-i="${i}">${'x'.repeat(i * 997)}</div>`),
    ];
    for (const pieces of cases) {
      const once = gzipPieces(pieces, nonce)!;
      expect(gunzipSync(once).toString('utf8')).toBe(pieces.join(nonce));
      // Another answer of the same page (its pieces deflated for the first): its own nonce is in it.
      const other = 'AAAAAAAAAAAAAAAAAAAAAA==';
      expect(gunzipSync(gzipPieces(pieces, other)!).toString('utf8')).toBe(pieces.join(other));
    }
  });

  it('lets a piece refer back to the ones before it, never to a nonce: as small as the whole page gzipped, right for any nonce', () => {
    // The router's data at the end repeats the page's text and class names, and the nonce of the answer it was first
    // deflated for: an answer with another nonce must not inherit it.
    const first = 'r6EocesqpiKoobBUs73d3A==';
    const words = Array.from({ length: 300 }, (_, i) => ((i * 2654435761) >>> 0).toString(36));
    const text = words.join(' ');
    const pieces = [
      `<html><head><script nonce="`,
      `" src="/a.js"></script></head><body><p>${text}</p><script nonce="`,
      `">self.__next_f.push([1,"${text}"]);var n="${first}";</script></body></html>`,
    ];
    const alone = pieces.reduce((n, piece) => n + deflateRawSync(piece).length, 0);
    for (const nonce of [first, 'AAAAAAAAAAAAAAAAAAAAAA==', 'a-longer-nonce-of-another-length==']) {
      const gzip = gzipPieces(pieces, nonce)!;
      expect(gunzipSync(gzip).toString('utf8')).toBe(pieces.join(nonce));
      expect(gzip.length).toBeLessThan(alone * 0.75);
      expect(gzip.length).toBeLessThan(gzipSync(pieces.join(nonce)).length + 3 * 40);
    }
    // A page with zero bytes in it is deflated piece by piece, and still right: with what came before as a dictionary,
    // deflate would copy the zeros standing for the nonce.
    for (const withZero of [
      ['<p>\u0000', '</p><p>\u0000', '</p>'],
      ['<a>', `${'\u0000'.repeat(40)}<b>`, 'x'],
    ]) {
      for (const nonce of [first, 'AAAAAAAAAAAAAAAAAAAAAA==', 'zzzzzzzzzzzzzzzzzzzzzz==']) {
        expect(gunzipSync(gzipPieces(withZero, nonce)!).toString('utf8')).toBe(withZero.join(nonce));
      }
    }
  });

  it('combines CRC-32s as zlib computes the whole: any split, empty parts, long parts', () => {
    const whole = Buffer.from('<p>最后一盏灯笼 ¥ 9.90</p>'.repeat(2000) + 'tail');
    for (const at of [0, 1, 7, 1000, 33_333, whole.length - 1, whole.length]) {
      const a = whole.subarray(0, at);
      const b = whole.subarray(at);
      expect([at, crcCombine(zlib.crc32(a), zlib.crc32(b), crcShift(b.length))]).toEqual([at, zlib.crc32(whole)]);
    }
  });

  it('leaves a page under the compression threshold to the caller', () => {
    expect(gzipPieces(['<p>', '</p>'], 'n0nce', 1024)).toBeNull();
    expect(gunzipSync(gzipPieces(['<p>', '</p>'], 'n0nce', 8)!).toString('utf8')).toBe('<p>n0nce</p>');
  });

  it('sends the answer compressed for a browser that takes gzip, and leaves to Next what the reader declines or fails', async () => {
    const sent: { status?: number; headers?: Record<string, string | number>; body?: Buffer } = {};
    const res = {
      headersSent: false,
      destroyed: false,
      writeHead: (status: number, headers: Record<string, string | number>) => Object.assign(sent, { status, headers }),
      end: (body?: Buffer) => Object.assign(sent, { body }),
    };
    const req = { method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } };
    const page = '<p>a page</p>'.repeat(200);
    installPageDoor(async () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: page }));
    expect(await answerPageAtTheDoor(req as never, res as never)).toBe(true);
    expect(sent.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-length': sent.body!.length });
    expect(gunzipSync(sent.body!).toString()).toBe(page);
    const pieces = ['<script nonce="', `">1</script>${page}`];
    installPageDoor(async () => ({ status: 200, headers: {}, body: pieces.join('N0NCE'), pieces, nonce: 'N0NCE' }));
    expect(await answerPageAtTheDoor(req as never, res as never)).toBe(true);
    expect(gunzipSync(sent.body!).toString()).toBe(pieces.join('N0NCE'));
    installPageDoor(async () => null);
    expect(await answerPageAtTheDoor(req as never, res as never)).toBe(false);
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    installPageDoor(async () => {
      throw new Error('the database is down');
    });
    expect(await answerPageAtTheDoor(req as never, res as never)).toBe(false);
    expect(errors).toHaveBeenCalledTimes(1);
    errors.mockRestore();
    installPageDoor(null);
  });
});
