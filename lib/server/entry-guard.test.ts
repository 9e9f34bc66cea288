import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { parseTrustedProxies, rewriteForwardingHeaders, type TrustedProxies } from '@/lib/security/forwarded';
import { securityHeaders } from '@/lib/security/headers';
import { clientErrorAnswer, guardEntry, unreadableRequest } from './entry-guard';

// Issue 29: bad bytes in a path made Next answer a bare 500 without the security headers. The entry server now
// presets those headers on every answer and refuses with 400 what Next cannot read, before Next sees it.

describe('what Next cannot read (issue 29)', () => {
  it.each([
    ['/goods/detail/%C0%AF', 'path: has a percent-escape that is not UTF-8'],
    ['/goods/detail/%FF', 'path: has a percent-escape that is not UTF-8'],
    ['/goods/detail/%E4%B8', 'path: has a percent-escape that is not UTF-8'],
    ['/goods/detail/%', 'path: has a percent-escape that is not UTF-8'],
    ['/goods/detail/%ED%A0%80', 'path: has a percent-escape that is not UTF-8'],
    ['/api/og/sale/%FF?x=1', 'path: has a percent-escape that is not UTF-8'],
    ['/goods/detail/1%00', 'path: must not contain control characters'],
    ['/chain/1/%0A/1/x', 'path: must not contain control characters'],
    ['/sandbox/cashier/%7F', 'path: must not contain control characters'],
    ['/agreement/%C2%85', 'path: must not contain control characters'],
    ['/_next/image?url=%2F%25FF&w=64&q=75', 'url: has a percent-escape that is not UTF-8'],
    ['/_next/image?url=/goods/x%2500.png&w=64&q=75', 'url: must not contain control characters'],
    ['*', 'request target: must be a path'],
    ['http://other.example/goods/detail/1', 'request target: must be a path'],
  ])('%s: %s', (target, problem) => {
    expect(unreadableRequest(target, 'aurora.localhost:3000')).toMatch(new RegExp(`^${problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it.each([
    'aurora.localhost:99999',
    'aurora.localhost:0',
    '[::1',
    'aurora.localhost:3000:1',
    'a b',
    '',
    'aurora.localhost:',
    'ä.localhost',
  ])('Host %j is not a host name and port', (host) => {
    expect(unreadableRequest('/', host)).toBe('host: must be a host name with an optional port');
  });

  it.each([
    ['/goods/detail/1', 'aurora.localhost:3000'],
    ['/goods/detail/%E4%B8%AD%E6%96%87', 'aurora.localhost'],
    ['/chain/1/S1/2/%E5%BC%A0%20%E4%B8%89', 'shop.example.com'],
    ['/api/market/api/channel/detail', '127.0.0.1:3000'],
    ['/?page=%FF&utm=%00', '[::1]:3000'],
    ['/login?redirect=%E4%B8', 'aurora.localhost'],
    ['/goods/..%2F..%2Fx', 'aurora.localhost'],
    ['/_next/image?url=https%3A%2F%2Fcdn.example.com%2F%25FF.png&w=64&q=75', 'aurora.localhost'],
    ['/api/health', undefined],
  ])('lets %s (Host %s) through: UTF-8 escapes, query strings of any kind, no Host on HTTP/1.0', (target, host) => {
    expect(unreadableRequest(target, host)).toBeNull();
  });
});

describe('the entry guard in a real HTTP server, as server.ts runs it (issue 29)', () => {
  let server: Server;
  let trusted: TrustedProxies = parseTrustedProxies('');
  /** Requests that got past the guard to the app, and what the app does with them. */
  let reached: string[] = [];
  let app: (url: string, res: import('node:http').ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      rewriteForwardingHeaders(req.headers, req.socket.remoteAddress, trusted, 'http');
      if (guardEntry(req, res) === 'answered') return;
      reached.push(req.url ?? '');
      app(req.url ?? '', res);
    });
    // As server.ts answers what Node's parser refuses before any handler runs.
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
      socket.end(clientErrorAnswer(error));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    reached = [];
    trusted = parseTrustedProxies('');
    // As Next answers when it fails (router-server.js): a bare 500, no headers of its own.
    app = (_, res) => {
      res.statusCode = 500;
      res.end('Internal Server Error');
    };
  });

  /** One raw request (a client can send any target; Node's http.request would not send `*` or `%` as is). */
  function send(target: string, headers: Record<string, string> = { host: 'aurora.localhost:3000' }) {
    return new Promise<{ status: number; head: [string, string][]; body: string }>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      const lines = [`GET ${target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), 'connection: close', '', ''];
      socket.write(lines.join('\r\n'));
      let raw = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (raw += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [headBlock = '', body = ''] = raw.split('\r\n\r\n');
        const [statusLine = '', ...headerLines] = headBlock.split('\r\n');
        const head = headerLines.map((line): [string, string] => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        });
        resolve({ status: Number(statusLine.split(' ')[1]), head, body });
      });
    });
  }

  /** Each security header (CSP aside) exactly once, with its value; HSTS only when `https`. */
  function expectHardened(head: [string, string][], https = false) {
    const values = (name: string) => head.filter(([n]) => n === name).map(([, v]) => v);
    for (const [name, value] of Object.entries(securityHeaders({ https }))) expect([name, values(name)]).toEqual([name, [value]]);
    if (!https) expect(values('strict-transport-security')).toEqual([]);
    expect(values('content-security-policy')).toEqual([]);
  }

  it.each([
    '/goods/detail/%C0%AF',
    '/goods/detail/%FF',
    '/goods/detail/%E4%B8',
    '/goods/detail/%',
    '/goods/detail/1%00',
    '/AURORA/en/agreement/%FF',
    '*',
  ])('answers %s with 400 and the security headers; the app never sees it', async (target) => {
    const answer = await send(target);
    expect(answer.status).toBe(400);
    expectHardened(answer.head);
    expect(answer.head).toContainEqual(['content-type', 'text/plain; charset=utf-8']);
    expect(answer.body).toMatch(/^Bad request: (path|request target): /);
    expect(reached).toEqual([]);
  });

  it.each(['/api/market/api/saleRecord/detail/v2/%FF', '/api/og/sale/%FF', '/api/icon/%E4%B8', '/api/operator/channels/%/skin'])(
    'answers %s in the API envelope',
    async (target) => {
      const answer = await send(target);
      expect(answer.status).toBe(400);
      expectHardened(answer.head);
      expect(answer.head).toContainEqual(['content-type', 'application/json']);
      expect(JSON.parse(answer.body)).toEqual({
        code: 400,
        message: expect.stringMatching(/^path: has a percent-escape that is not UTF-8/),
        data: null,
      });
      expect(reached).toEqual([]);
    },
  );

  it.each([
    ['a NUL in a header', '/', { host: 'aurora.localhost:3000', 'x-note': 'a\x00b' }],
    ['a header block over the size limit', '/', { host: 'aurora.localhost:3000', 'x-padding': 'x'.repeat(20_000) }],
  ] as const)(
    'answers what Node itself refuses (%s) with the headers too, and closes',
    async (_, target, headers?: Record<string, string>) => {
      const answer = await send(target, headers);
      expect([400, 431]).toContain(answer.status);
      expectHardened(answer.head);
      expect(reached).toEqual([]);
    },
  );

  it('refuses a Host next-auth cannot build a URL from', async () => {
    const answer = await send('/api/auth/session', { host: 'aurora.localhost:99999' });
    expect(answer.status).toBe(400);
    expectHardened(answer.head);
    expect(reached).toEqual([]);
  });

  it('puts the headers on what the app answers by itself, once each, even when the app sets them again', async () => {
    const bare = await send('/goods/detail/1');
    expect(bare.status).toBe(500);
    expectHardened(bare.head);
    // As Next's config headers and the proxy do: the same names, set again, replace the preset values.
    app = (_, res) => {
      for (const [name, value] of Object.entries(securityHeaders({ https: false }))) res.setHeader(name, value);
      res.setHeader('content-security-policy', "default-src 'self'; script-src 'nonce-abc'");
      res.end('<!doctype html>');
    };
    const page = await send('/goods/detail/1');
    expect(page.status).toBe(200);
    expectHardened(page.head.filter(([name]) => name !== 'content-security-policy'));
    expect(page.head.filter(([name]) => name === 'content-security-policy')).toEqual([
      ['content-security-policy', "default-src 'self'; script-src 'nonce-abc'"],
    ]);
    expect(reached).toEqual(['/goods/detail/1', '/goods/detail/1']);
  });

  it('adds HSTS only when a trusted proxy reports HTTPS; a client cannot claim it', async () => {
    expectHardened((await send('/x', { host: 'aurora.localhost', 'x-forwarded-proto': 'https' })).head, false);
    trusted = parseTrustedProxies('127.0.0.1');
    expectHardened((await send('/x', { host: 'aurora.localhost', 'x-forwarded-proto': 'https' })).head, true);
    expectHardened((await send('/goods/detail/%FF', { host: 'aurora.localhost', 'x-forwarded-proto': 'https' })).head, true);
  });
});
