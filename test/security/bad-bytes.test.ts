import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import { ROUTES } from '@/lib/channel/routes';
import { rewriteForwardingHeaders, parseTrustedProxies } from '@/lib/security/forwarded';
import { securityHeaders } from '@/lib/security/headers';
import { guardEntry } from '@/lib/server/entry-guard';

// Issue 29, finding 6: invalid UTF-8 in a path parameter of a page, of the OG image or of the icon route made Next
// answer its own bare 500, without the security headers. Every path parameter of every route under app/ (found by
// walking the folder, so a new route is covered the day it is added) and of every public page path (spec §2, as
// lib/channel/routes.ts lists them) is sent here with bad bytes, through the entry server's guard as server.ts runs
// it: each is answered 400 with the headers before Next could fail on it, and the same route with a good value passes.

/** Route paths under app/ with their segments, e.g. ['api', 'og', 'sale', '[saleId]']. */
function appRoutes(dir = path.join(process.cwd(), 'app'), segments: string[] = []): string[][] {
  const here = ['page.tsx', 'route.ts'].some((file) => existsSync(path.join(dir, file))) ? [segments] : [];
  const below = readdirSync(dir)
    .filter((name) => statSync(path.join(dir, name)).isDirectory())
    .flatMap((name) => appRoutes(path.join(dir, name), [...segments, name]));
  return [...here, ...below];
}

const isParam = (segment: string) => /^\[.+\]$/.test(segment) || segment.startsWith(':');

/** A route's path with `value` in parameter `index` and a good value in the others ([channel] and [locale] real). */
function fill(segments: string[], index: number, value: string): string {
  return `/${segments
    .map((segment, i) => {
      if (i === index) return value;
      if (segment === '[channel]') return 'AURORA';
      if (segment === '[locale]') return 'en';
      return isParam(segment) ? '1' : segment;
    })
    .join('/')}`;
}

const dynamicAppRoutes = appRoutes().filter((segments) => segments.some(isParam));
const publicPages = ROUTES.map((route) => route.pattern.split('/').filter(Boolean)).filter((segments) => segments.some(isParam));

/** Every (route, parameter) pair: internal app routes and the public page paths the proxy rewrites to them. */
const parameters = [...dynamicAppRoutes, ...publicPages].flatMap((segments) =>
  segments.flatMap((segment, index) => (isParam(segment) ? [{ route: `/${segments.join('/')}`, segments, index }] : [])),
);

const BAD_BYTES = ['%C0%AF', '%FF', '%E4%B8', '%', '%ED%A0%80', '%00', '%0A', '%1B'];

describe('bad bytes in every path parameter (issue 29, finding 6)', () => {
  let server: Server;
  const reached: string[] = [];
  beforeAll(async () => {
    const trusted = parseTrustedProxies('');
    server = createServer((req, res) => {
      rewriteForwardingHeaders(req.headers, req.socket.remoteAddress, trusted, 'http');
      if (guardEntry(req, res) === 'answered') return;
      reached.push(req.url ?? '');
      // Next in its place: a route it can read gets an answer; this test only looks at what reaches it.
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function get(target: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: Map<string, string[]> }>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      const head = { host: 'aurora.localhost:3000', ...headers, connection: 'close' };
      socket.write([`GET ${target} HTTP/1.1`, ...Object.entries(head).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n'));
      let raw = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (raw += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [statusLine = '', ...lines] = raw.split('\r\n\r\n')[0]!.split('\r\n');
        const found = new Map<string, string[]>();
        for (const line of lines) {
          const name = line.slice(0, line.indexOf(':')).toLowerCase();
          found.set(name, [...(found.get(name) ?? []), line.slice(line.indexOf(':') + 1).trim()]);
        }
        resolve({ status: Number(statusLine.split(' ')[1]), headers: found });
      });
    });
  }

  it('finds the routes the issue names, so none is left out', () => {
    const routes = new Set(parameters.map((p) => p.route));
    for (const route of [
      '/[channel]/[locale]/goods/detail/[saleId]',
      '/[channel]/[locale]/chain/[id]/[code]/[type]/[authorStageName]',
      '/[channel]/[locale]/agreement/[location]',
      '/api/og/sale/[saleId]',
      '/api/icon/[file]',
      '/api/operator/channels/[key]/skin',
      '/api/operator/channels/[key]/settings',
      '/api/[...path]',
      '/api/auth/[...nextauth]',
      '/api/auth/api/[...path]',
      '/goods/detail/:saleId',
      '/receive_detail_new/:id/:exchange_id',
    ])
      expect([route, routes.has(route)]).toEqual([route, true]);
  });

  it.each(parameters.map((p) => [fill(p.segments, p.index, '*'), p] as const))(
    '%s: bad bytes are 400 with the security headers, a good value passes',
    async (_, { segments, index }) => {
      for (const bad of BAD_BYTES) {
        const target = fill(segments, index, `1${bad}`);
        const answer = await get(target);
        expect([target, answer.status]).toEqual([target, 400]);
        for (const [name, value] of Object.entries(securityHeaders({ https: false })))
          expect([target, name, answer.headers.get(name)]).toEqual([target, name, [value]]);
      }
      expect(reached).toEqual([]);
      const good = fill(segments, index, '%E4%B8%AD%E6%96%87');
      expect((await get(good)).status).toBe(200);
      expect(reached.splice(0)).toEqual([good]);
    },
  );
});
