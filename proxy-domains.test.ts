import { NextRequest } from 'next/server';
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { seededTestDb } from '@/test/db';
import { startFakeDns } from '@/test/dns-server';
import type { Db } from '@/lib/db/client';
import { addDomain, domainSettings, makePrimaryDomain, removeDomain, verifyDomain, type DomainView } from '@/lib/channel/domains';
import { dnsDomainChecker, type DomainChecker } from '@/lib/channel/domain-dns';
import { handleTlsAsk } from '@/lib/server/tls-ask';
import { dispatch } from '@/lib/server/dispatcher';
import { parseTrustedProxies, rewriteForwardingHeaders } from '@/lib/security/forwarded';
import { config, proxy } from './proxy';

// A channel's custom domains as visitors and the reverse proxy meet them (issue 31, "Domains"): a verified domain
// serves the channel's pages and API and gets a certificate; a pending or removed one gets the store-not-found page and
// none; once it is the primary, the channel's other hosts answer 308 to it, the API and payment notifications excepted.

// The proxy reads the process's database handle (lib/db/client.ts getDb): this file's.
const mockDbRef: { db?: Db } = {};
jest.mock('@/lib/db/client', () => ({ ...jest.requireActual('@/lib/db/client'), getDb: () => mockDbRef.db }));

const NOW = new Date('2026-11-26T08:00:00Z');
const db = seededTestDb(NOW);
// The deployment's own settings (lib/env.ts defaults: BRAND_WORD localhost, PORT 3000, http).
const settings = domainSettings();

let dns: Awaited<ReturnType<typeof startFakeDns>>;
let checker: DomainChecker;
beforeAll(async () => {
  mockDbRef.db = db;
  dns = await startFakeDns();
  checker = dnsDomainChecker([dns.server]);
  const verified = await addDomain(db, 'AURORA', 'shop.example.test', settings, NOW);
  publish(verified);
  await verifyDomain(db, 'AURORA', 'shop.example.test', settings, checker, NOW);
  // Names the spec §1 key rule alone would lead to a channel (dots and the brand word dropped: LUMEN, GIFT), so only
  // their domain rows keep them from being served.
  await addDomain(db, 'LUMEN', 'lumen.local.host', settings, NOW);
  const removed = await addDomain(db, 'GIFT', 'gift.local.host', settings, NOW);
  publish(removed);
  await verifyDomain(db, 'GIFT', 'gift.local.host', settings, checker, NOW);
  await removeDomain(db, 'GIFT', 'gift.local.host', settings, NOW);
});
afterAll(async () => {
  mockDbRef.db = undefined;
  await dns.close();
});

function publish(view: DomainView) {
  const txt = view.records.find((r) => r.type === 'TXT')!;
  dns.zone.txt.set(txt.name, [txt.value]);
}

/** A page request as the browser sends it to `host` (with the deployment's port, 3000 in tests). */
function visit(host: string, path = '/mine') {
  return proxy(new NextRequest(`http://${host}${path}`, { headers: { host } }));
}

/** A page of the sales of the channel the API finds for `host`. */
async function sales(host: string) {
  const body = JSON.stringify({ pageCount: 1, pageSize: 10 });
  const answer = await dispatch(
    { method: 'POST', path: '/market/api/channel/querySaleRecord', host, body, ip: '127.0.0.1' },
    { db, now: NOW },
  );
  return answer.body;
}

/** The TLS ask as Caddy on this machine sends it. */
async function askStatus(domain: string): Promise<number> {
  const headers: Record<string, string | string[] | undefined> = {};
  rewriteForwardingHeaders(headers, '127.0.0.1', parseTrustedProxies('127.0.0.1'));
  const request = new Request(`http://127.0.0.1:3000/api/tls/ask?domain=${domain}`, { headers: headers as Record<string, string> });
  const options = { db, brandWord: settings.brandWord, trusted: parseTrustedProxies('127.0.0.1') };
  return (await handleTlsAsk(request, options)).status;
}

describe('a channel’s domains at the proxy and the TLS ask', () => {
  it('serves the channel’s pages on a verified domain, and gives it a certificate', async () => {
    const page = await visit('shop.example.test:3000');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-middleware-rewrite')).toMatch(/^http:\/\/shop\.example\.test:3000\/AURORA\/[a-zA-Z-]+\/mine$/);
    expect(await askStatus('shop.example.test')).toBe(200);
  });

  it('answers a pending domain and a removed one with the store-not-found page, and no certificate', async () => {
    for (const host of ['lumen.local.host', 'gift.local.host']) {
      const page = await visit(`${host}:3000`);
      expect([host, page.status]).toEqual([host, 404]);
      expect(await page.text()).toContain(host);
      expect([host, await askStatus(host)]).toEqual([host, 404]);
    }
  });

  it('keeps the key host answering as before while no primary is chosen', async () => {
    const page = await visit('aurora.localhost:3000');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-middleware-rewrite')).toMatch(/\/AURORA\//);
    expect(await askStatus('aurora.localhost')).toBe(200);
  });

  it('serves the API on a verified domain for its channel', async () => {
    const keyHost = await sales('aurora.localhost:3000');
    expect(keyHost).toMatchObject({ code: 200 });
    expect(await sales('shop.example.test:3000')).toEqual(keyHost);
    expect(await sales('lumen.local.host')).toMatchObject({ code: 404, data: null });
  });

  it('sends every other host of the channel to its primary with a 308, same path, but never the API or payment notifications', async () => {
    await makePrimaryDomain(db, 'AURORA', 'shop.example.test', settings, NOW);
    const keyHost = await visit('aurora.localhost:3000', '/goods/detail/1?from=share');
    expect(keyHost.status).toBe(308);
    expect(keyHost.headers.get('location')).toBe('http://shop.example.test:3000/goods/detail/1?from=share');
    // Another spelling of the key host too, at once (the change dropped the cached reads).
    const spelling = await visit('a.urora.localhost:3000', '/mine');
    expect(spelling.headers.get('location')).toBe('http://shop.example.test:3000/mine');
    expect((await visit('shop.example.test:3000')).status).toBe(200);
    // The API and payment notifications never reach the proxy, so a client or a provider keeps its host.
    for (const path of ['/api/market/api/channel/detail', '/api/pay/notify/wechatpay', '/api/tls/ask']) {
      expect([path, unstable_doesMiddlewareMatch({ config, url: `http://aurora.localhost:3000${path}` })]).toEqual([path, false]);
    }
    expect(await sales('aurora.localhost:3000')).toEqual(await sales('shop.example.test:3000'));
  });

  it('stops redirecting to the primary once it is removed', async () => {
    await removeDomain(db, 'AURORA', 'shop.example.test', settings, NOW);
    expect((await visit('aurora.localhost:3000')).status).toBe(200);
    expect((await visit('shop.example.test:3000')).status).toBe(404);
  });
});
