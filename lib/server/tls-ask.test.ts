import { seededTestDb } from '@/test/db';
import type { Db } from '@/lib/db/client';
import { CLIENT_IP_HEADER, parseTrustedProxies, rewriteForwardingHeaders } from '@/lib/security/forwarded';
import { certificateDomainProblem } from '@/lib/channel/certificate';
import { handleTlsAsk, type TlsAskOptions } from './tls-ask';

// The reverse proxy's question before it issues a certificate (docs/deploy.md, "TLS"): yes only for a channel's own
// host, asked by the proxy itself, and never a 500.

const db = seededTestDb(new Date('2026-11-22T08:00:00Z'));

/** TRUSTED_PROXIES of the deployment under test: Caddy on this machine (the recipe's) and a proxy on another one. */
const PROXIES = '127.0.0.1, ::1, 10.0.0.5';

const options = (overrides: Partial<TlsAskOptions> = {}): TlsAskOptions => ({
  db,
  brandWord: 'localhost',
  defaultChannel: 'AURORA',
  trusted: parseTrustedProxies(PROXIES),
  ...overrides,
});

/** A request as the entry server (server.ts) hands it on: forwarding headers resolved from the socket's peer. */
function ask(domain: string | null, peer = '127.0.0.1', headers: Record<string, string> = {}, proxies = PROXIES) {
  const resolved: Record<string, string | string[] | undefined> = { ...headers };
  rewriteForwardingHeaders(resolved, peer, parseTrustedProxies(proxies));
  const query = domain === null ? '' : `?domain=${encodeURIComponent(domain)}`;
  return new Request(`http://127.0.0.1:3460/api/tls/ask${query}`, { headers: resolved as Record<string, string> });
}

async function status(request: Request, overrides: Partial<TlsAskOptions> = {}): Promise<number> {
  return (await handleTlsAsk(request, options(overrides))).status;
}

/**
 * The status a caller at `peer` (sending `headers`) gets for a channel's host from a deployment whose TRUSTED_PROXIES
 * is `proxies`: the entry server and the endpoint read the same variable (app/api/tls/ask/route.ts).
 */
function askedBy(proxies: string, peer: string, headers: Record<string, string> = {}): Promise<number> {
  return status(ask('aurora.localhost', peer, headers, proxies), { trusted: parseTrustedProxies(proxies) });
}

describe('GET /api/tls/ask', () => {
  it('says yes for each demo channel’s own host, hidden ones included', async () => {
    for (const host of ['aurora.localhost', 'lumen.localhost', 'gift.localhost', 'dark.localhost', 'bazaar.localhost']) {
      const response = await handleTlsAsk(ask(host), options());
      expect([host, response.status]).toEqual([host, 200]);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toMatchObject({ code: 200, message: `${host} serves channel ${host.split('.')[0]!.toUpperCase()}` });
    }
  });

  it('says no for a host that names no channel, or another spelling of a channel’s key', async () => {
    for (const host of ['nowhere.localhost', 'a.urora.localhost', 'auroralocalhost.localhost', 'aurora.example.com', 'www.localhost']) {
      expect([host, await status(ask(host))]).toEqual([host, 404]);
    }
  });

  it('says yes for the bare brand domain only when it serves a default channel that exists', async () => {
    expect(await status(ask('localhost'))).toBe(200);
    expect(await status(ask('localhost'), { defaultChannel: undefined })).toBe(404);
    expect(await status(ask('localhost'), { defaultChannel: 'NOWHERE' })).toBe(404);
    expect(await status(ask('l.ocalhost'))).toBe(404);
  });

  it('follows the brand word of the deployment', async () => {
    // With BRAND_WORD=shop.example, aurora.localhost's key is AURORALOCALHOST: no channel.
    expect(await status(ask('aurora.localhost'), { brandWord: 'shop.example' })).toBe(404);
  });

  it('refuses (400) what is not a lowercase host name without port, IP literals included', async () => {
    const bad = [
      null,
      '',
      'AURORA.localhost',
      'aurora.localhost:8443',
      'aurora.localhost.',
      '.aurora.localhost',
      'aurora..localhost',
      '-aurora.localhost',
      'aurora-.localhost',
      'au_rora.localhost',
      'aurora.localhost/x',
      'aurora localhost',
      'aurora.localhost%00',
      'ä.localhost',
      '127.0.0.1',
      '10.0.0.5',
      '::1',
      '[::1]',
      `${'a'.repeat(64)}.localhost`,
      `${'a.'.repeat(127)}localhost`,
    ];
    for (const domain of bad) {
      const response = await handleTlsAsk(ask(domain), options());
      expect([domain, response.status]).toEqual([domain, 400]);
      expect(((await response.json()) as { message: string }).message).toMatch(/^domain: /);
    }
    expect(certificateDomainProblem(`${'a'.repeat(63)}.xn--fiqs8s`)).toBeNull();
  });

  it('answers only the proxy: a trusted proxy, never a visitor who says otherwise', async () => {
    // The recipe: Caddy on this machine, TRUSTED_PROXIES=127.0.0.1,::1. Its question comes through the ask relay, which
    // forwards the address Caddy's own client had; or straight from the proxy's address.
    const recipe = '127.0.0.1, ::1';
    expect(await askedBy(recipe, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).toBe(200);
    expect(await askedBy(recipe, '127.0.0.1')).toBe(200);
    expect(await askedBy(recipe, '::1')).toBe(200);
    expect(await askedBy(recipe, '::ffff:127.0.0.1')).toBe(200);
    // A visitor through Caddy: Caddy appends the address it saw; a forged one before it changes nothing.
    expect(await askedBy(recipe, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).toBe(403);
    expect(await askedBy(recipe, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' })).toBe(403);
    // ... also from another loopback address, which the list does not name (issue 29: npm run deploy:check plays its
    // outside visitor from 127.0.0.2 where it cannot make a network namespace), or from a process on the machine.
    expect(await askedBy(recipe, '127.0.0.1', { 'x-forwarded-for': '127.0.0.2' })).toBe(403);
    expect(await askedBy(recipe, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 127.0.0.2' })).toBe(403);
    expect(await askedBy(recipe, '127.0.0.2')).toBe(403);
    // A visitor straight to the server, whatever forwarding headers they send.
    expect(await askedBy(recipe, '203.0.113.9')).toBe(403);
    expect(await askedBy(recipe, '203.0.113.9', { 'x-forwarded-for': '127.0.0.1', [CLIENT_IP_HEADER]: '127.0.0.1' })).toBe(403);

    // A proxy on another machine, the one TRUSTED_PROXIES lists: this machine's loopback is not it.
    expect(await askedBy('10.0.0.5', '10.0.0.5')).toBe(200);
    expect(await askedBy('10.0.0.5', '10.0.0.5', { 'x-forwarded-for': '203.0.113.9' })).toBe(403);
    expect(await askedBy('10.0.0.5', '127.0.0.1')).toBe(403);
    expect(await askedBy('10.0.0.5', '::1')).toBe(403);

    // No proxy listed (npm run demo, a first try of the recipe): loopback is taken for a proxy on this machine.
    expect(await askedBy('', '127.0.0.1')).toBe(200);
    expect(await askedBy('', '::1')).toBe(200);
    expect(await askedBy('', '127.0.0.2')).toBe(200);
    expect(await askedBy('', '203.0.113.9', { 'x-forwarded-for': '127.0.0.1', [CLIENT_IP_HEADER]: '127.0.0.1' })).toBe(403);

    // Without the entry server there is no resolved address: refused.
    expect(await status(new Request('http://127.0.0.1:3460/api/tls/ask?domain=aurora.localhost'))).toBe(403);
    // The caller is checked before the domain: a visitor learns nothing, not even what a valid name looks like.
    expect(await status(ask('AURORA', '203.0.113.9'))).toBe(403);
  });

  it('answers 503, not 500, when the database fails, and stays cheap for names that cannot be a channel', async () => {
    let queries = 0;
    const failing = new Proxy({} as Db, {
      get() {
        queries++;
        throw new Error('connection refused');
      },
    });
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(await status(ask('lumen.localhost'), { db: failing })).toBe(503);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
    queries = 0;
    // A key with characters no channel key has (here a hyphen) is refused before any read.
    expect(await status(ask('no-such-shop.localhost'), { db: failing })).toBe(404);
    expect(queries).toBe(0);
  });
});

it('answers 200 for the operator host (issue 31), which is no channel but needs its certificate', async () => {
  expect(await status(ask('ops.localhost'), { operatorHost: 'ops.localhost' })).toBe(200);
  expect(await status(ask('ops.localhost'))).toBe(404);
  expect(await status(ask('ops.localhost', '127.0.0.2'), { operatorHost: 'ops.localhost' })).toBe(403);
});
