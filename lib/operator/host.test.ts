import { decideRoute } from '../channel/routing';
import { consoleNotFoundHtml } from './not-found';
import { isConsolePath, isOperatorHost, isReservedChannelKey } from './host';

// issue 31: the console on the operator host only, and no channel there.

it('knows the operator host by its name, on any port and in any case, and nothing else', () => {
  expect(isOperatorHost('ops.localhost:3000', 'ops.localhost')).toBe(true);
  expect(isOperatorHost('OPS.Example.com', 'ops.example.com')).toBe(true);
  expect(isOperatorHost('aurora.localhost:3000', 'ops.localhost')).toBe(false);
  expect(isOperatorHost('ops.localhost.evil.test', 'ops.localhost')).toBe(false);
  expect(isOperatorHost('', 'ops.localhost')).toBe(false);
});

it("serves a channel's Domains tab there, for a channel key only (issue 31)", () => {
  for (const p of ['/channels/AURORA', '/channels/AURORA/domains']) expect({ p, console: isConsolePath(p) }).toEqual({ p, console: true });
  for (const p of ['/channels/aurora/domains', '/channels/AURORA/domains/x', '/channels/AURORA/domainsx', '/channels//domains'])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: false });
});

it("serves a channel's orders, an order by its number and a buyer by their account number there (issue 32)", () => {
  for (const p of ['/channels/AURORA/orders', '/channels/AURORA/orders/2026112208000012345678', '/channels/AURORA/buyers/4831902765'])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: true });
  for (const p of ['/channels/AURORA/orders/123', '/channels/AURORA/buyers/0123456789', '/channels/AURORA/buyers/12345678901'])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: false });
});

it("serves a channel's Buyers tab, its blocklist (issue 33)", () => {
  expect(isConsolePath('/channels/AURORA/buyers')).toBe(true);
  expect(isConsolePath('/channels/AURORA/buyers/')).toBe(false);
  expect(isConsolePath('/channels/aurora/buyers')).toBe(false);
});

it("serves a channel's Notices tab there, and not the store's notice pages (issue 32)", () => {
  expect(isConsolePath('/channels/AURORA/notices')).toBe(true);
  for (const p of ['/notices', '/notices/1', '/calendar', '/channels/aurora/notices', '/channels/AURORA/notices/1'])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: false });
});

it("serves only the console's paths there: every channel path is not one", () => {
  for (const p of [
    '/',
    '/sign-in',
    '/channels',
    '/team',
    '/audit',
    '/account',
    `/enrol/${'a'.repeat(43)}`,
    '/channels/new',
    '/channels/NEWSHOP',
    '/channels/NEWSHOP/settings',
    '/channels/AURORA/skin',
    '/channels/AURORA/domains',
    '/channels/AURORA/preview',
  ])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: true });
  for (const p of [
    '/mine',
    '/login',
    '/goods/detail/1',
    '/AURORA/en',
    '/ops/en/channels',
    '/enrol/short',
    '/404',
    '/channels/x',
    '/channels/aurora/skin',
    '/channels/AURORA/preview/x',
    '/channels/NEWSHOP/other',
    '/channels/new/settings',
    '/account/x',
  ]) {
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: false });
  }
});

it("sends the console's paths on a channel host to the store's /404, like any unknown path (spec §2)", () => {
  const summary = { key: 'AURORA', status: 1, labels: [1, 2, 3, 4] as const, attributes: {}, locale: null };
  for (const pathname of [
    '/sign-in',
    '/channels',
    `/enrol/${'a'.repeat(43)}`,
    '/ops/en/channels',
    '/ops/en/sign-in',
    // The skin editor's preview renders the store with a draft skin: never on the store's own host.
    '/channels/AURORA/preview',
    '/ops/en/channels/AURORA/preview',
  ]) {
    expect({
      pathname,
      decision: decideRoute({
        key: 'AURORA',
        pathname,
        search: '',
        summary: { ...summary, labels: [...summary.labels] },
        hasSession: false,
        acceptLanguage: null,
      }),
    }).toEqual({
      pathname,
      decision: { kind: 'redirect', location: '/404' },
    });
  }
});

it('reserves OPS in any case', () => {
  expect(['OPS', 'ops', ' Ops '].map(isReservedChannelKey)).toEqual([true, true, true]);
  expect(isReservedChannelKey('OPSX')).toBe(false);
});

it('answers the console not-found page in the asked language', () => {
  expect(consoleNotFoundHtml('en')).toContain('The console has no such page.');
  expect(consoleNotFoundHtml('zh-CN')).toContain('运营后台没有这个页面。');
});

it("serves a channel's Reports tab, its live drop view and its CSV there (issue 32)", () => {
  for (const p of ['/channels/AURORA/reports', '/channels/AURORA/reports/live', '/channels/AURORA/reports/export'])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: true });
  for (const p of ['/channels/aurora/reports', '/channels/AURORA/reports/x', '/channels/AURORA/reportsx', '/channels/AURORA/reports/live/'])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: false });
});

it("serves a channel's Campaigns tab and a campaign's page there (issue 32)", () => {
  for (const p of ['/channels/GIFT/campaigns', '/channels/GIFT/campaigns/12'])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: true });
  for (const p of [
    '/channels/GIFT/campaigns/x',
    '/channels/GIFT/campaigns/12/13',
    '/channels/gift/campaigns',
    '/channels/GIFT/campaigns/1234567890',
  ])
    expect({ p, console: isConsolePath(p) }).toEqual({ p, console: false });
});
