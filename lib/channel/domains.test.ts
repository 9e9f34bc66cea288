import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { startFakeDns, type FakeZone } from '@/test/dns-server';
import { channelDomains, channels } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { renderMessage } from '@/lib/procedure/messages';
import { dnsDomainChecker, type DomainChecker } from './domain-dns';
import {
  addDomain,
  listDomains,
  hostsOfChannels,
  makeKeyHostPrimary,
  makePrimaryDomain,
  publicHostOf,
  recheckDomains,
  removeDomain,
  routeHost,
  verifyDomain,
  type DomainSettings,
  type DomainView,
} from './domains';

// A channel's custom domains (issue 31, "Domains"): what an operator may add, what the DNS must say before a domain
// is served, one primary per channel, and the grace period that keeps a store up through a DNS blip.

const NOW = new Date('2026-11-26T08:00:00Z');
const HOUR = 3_600_000;
const db = seededTestDb(NOW);

const settings: DomainSettings = {
  brandWord: 'localhost',
  operatorHost: 'ops.localhost',
  target: 'stores.shop.example',
  targetIps: ['203.0.113.10'],
  graceMs: 72 * HOUR,
};

let dns: Awaited<ReturnType<typeof startFakeDns>>;
let zone: FakeZone;
let checker: DomainChecker;
beforeAll(async () => {
  dns = await startFakeDns();
  zone = dns.zone;
  checker = dnsDomainChecker([dns.server]);
});
afterAll(() => dns.close());

/** Sets at the fake DNS what the console tells the customer to set for `view`: its TXT record and its CNAME. */
function publish(view: DomainView, options: { cname?: string | null; txt?: string } = {}) {
  const txt = view.records.find((r) => r.type === 'TXT')!;
  zone.txt.set(txt.name, [options.txt ?? txt.value]);
  if (options.cname !== null) zone.cname.set(view.host, options.cname ?? 'stores.shop.example');
}

async function refusal(promise: Promise<unknown>): Promise<{ code: number; field: unknown; en: string; zh: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError) || !error.text) throw new Error(`expected a refusal, got ${String(error)}`);
  return { code: error.code, field: error.data?.field, en: error.message, zh: renderMessage(error.text, 'zh-CN') };
}

const rowsOf = (host: string) => db.select().from(channelDomains).where(eq(channelDomains.host, host));

describe('adding a domain', () => {
  it.each([
    ['10.1.2.3', /IP address/],
    ['[2001:db8::1]', /IP address/],
    ['2001:db8::1', /IP address/],
    ['shop.example.com:8443', /without a port/],
    ['[2001:db8::1]:443', /IP address/],
    ['https://shop.example.com', /domain name alone/],
    ['shop.example.com/store', /domain name alone/],
    ['shop example.com', /not a domain name/],
    ['shop_1.example.com', /not a domain name/],
    ['-shop.example.com', /not a domain name/],
    ['com', /not a domain name/],
    ['', /not a domain name/],
    ['ops.localhost', /operator console/],
    ['OPS.localhost.', /operator console/],
    ['lumen.localhost', /address of the store LUMEN/],
    ['lu.men.localhost', /address of the store LUMEN/],
    ['newshop.localhost', /under this site’s own domain/],
    ['localhost.', /not a domain name/],
  ])('refuses %j, naming the field host, in English and Chinese, storing nothing', async (input, why) => {
    const before = await db.select().from(channelDomains);
    const refused = await refusal(addDomain(db, 'AURORA', input, settings, NOW));
    expect(refused).toMatchObject({ code: 400, field: 'host' });
    expect(refused.en).toMatch(why);
    expect(refused.zh).toMatch(/[\u4e00-\u9fff]/);
    expect(await db.select().from(channelDomains)).toEqual(before);
  });

  it('stores the host in lower case and punycode, pending, with the records to set', async () => {
    const added = await addDomain(db, 'AURORA', ' Bücher.Example.TEST. ', settings, NOW);
    expect(added).toMatchObject({ host: 'xn--bcher-kva.example.test', status: 'pending', problem: null, isPrimary: false, served: false });
    const txt = added.records.find((r) => r.type === 'TXT')!;
    expect(added.records).toEqual([
      { type: 'CNAME', name: 'xn--bcher-kva.example.test', value: 'stores.shop.example', purpose: 'points' },
      { type: 'TXT', name: '_storefront-verify.xn--bcher-kva.example.test', value: txt.value, purpose: 'ownership' },
    ]);
    expect(txt.value).toMatch(/^storefront-verify=[0-9a-f]{32}$/);
    // Without a CNAME target, the A records of DOMAIN_TARGET_IPS.
    const apex = await addDomain(db, 'AURORA', 'aurora-art.test', { ...settings, target: undefined }, NOW);
    expect(apex.records[0]).toEqual({ type: 'A', name: 'aurora-art.test', value: '203.0.113.10', purpose: 'points' });
  });

  it('refuses a domain another channel holds, and one the channel has, changing neither', async () => {
    await addDomain(db, 'LUMEN', 'lumen-art.test', settings, NOW);
    const taken = await refusal(addDomain(db, 'AURORA', 'LUMEN-ART.test', settings, NOW));
    expect(taken).toMatchObject({ code: 400, field: 'host' });
    expect(taken.en).toMatch(/another store/);
    const twice = await refusal(addDomain(db, 'LUMEN', 'lumen-art.test', settings, NOW));
    expect(twice.en).toMatch(/already has/);
    const rows = await rowsOf('lumen-art.test');
    expect(rows).toHaveLength(1);
    const [lumen] = await db.select().from(channels).where(eq(channels.key, 'LUMEN'));
    expect(rows[0]!.channelId).toBe(lumen!.id);
  });

  it('answers 404 for a channel that does not exist', async () => {
    await expect(addDomain(db, 'NOSUCH', 'nosuch.test', settings, NOW)).rejects.toMatchObject({ code: 404 });
  });
});

describe('verifying a domain at the DNS', () => {
  it('is misconfigured without the TXT record, with a wrong one, or pointing elsewhere; verified once all is set', async () => {
    const added = await addDomain(db, 'AURORA', 'shop.example.test', settings, NOW);
    const missing = await verifyDomain(db, 'AURORA', 'shop.example.test', settings, checker, NOW);
    expect(missing).toMatchObject({ status: 'misconfigured', problem: 'txt_missing', served: false, lastCheckedAt: NOW });

    publish(added, { txt: 'storefront-verify=0123456789abcdef0123456789abcdef' });
    expect(await verifyDomain(db, 'AURORA', 'shop.example.test', settings, checker, NOW)).toMatchObject({
      status: 'misconfigured',
      problem: 'txt_wrong',
    });

    publish(added, { cname: 'elsewhere.example' });
    expect(await verifyDomain(db, 'AURORA', 'shop.example.test', settings, checker, NOW)).toMatchObject({
      status: 'misconfigured',
      problem: 'points_elsewhere',
    });

    publish(added);
    const verified = await verifyDomain(db, 'AURORA', 'shop.example.test', settings, checker, NOW);
    expect(verified).toMatchObject({ status: 'verified', problem: null, served: true, verifiedSince: NOW });
  });

  it('takes an apex’s A records when they are the deployment’s addresses', async () => {
    const added = await addDomain(db, 'AURORA', 'apex.test', settings, NOW);
    publish(added, { cname: null });
    zone.a.set('apex.test', ['198.51.100.7']);
    expect(await verifyDomain(db, 'AURORA', 'apex.test', settings, checker, NOW)).toMatchObject({ problem: 'points_elsewhere' });
    zone.a.set('apex.test', ['203.0.113.10']);
    expect(await verifyDomain(db, 'AURORA', 'apex.test', settings, checker, NOW)).toMatchObject({ status: 'verified' });
  });

  it('changes nothing when the DNS servers fail, and says to try again', async () => {
    const added = await addDomain(db, 'AURORA', 'flaky.test', settings, NOW);
    publish(added);
    zone.failing.add('_storefront-verify.flaky.test');
    const refused = await refusal(verifyDomain(db, 'AURORA', 'flaky.test', settings, checker, NOW));
    expect(refused.code).toBe(503);
    expect(refused.en).toMatch(/did not answer/);
    expect((await rowsOf('flaky.test'))[0]).toMatchObject({ status: 'pending', lastCheckedAt: null });
    zone.failing.delete('_storefront-verify.flaky.test');
  });

  it('refuses to verify a domain of another channel', async () => {
    const refused = await refusal(verifyDomain(db, 'AURORA', 'lumen-art.test', settings, checker, NOW));
    expect(refused).toMatchObject({ code: 400, field: 'host' });
    expect((await rowsOf('lumen-art.test'))[0]!.status).toBe('pending');
  });
});

describe('the primary domain', () => {
  it('must be verified, and a channel has one at a time', async () => {
    const refused = await refusal(makePrimaryDomain(db, 'AURORA', 'xn--bcher-kva.example.test', settings, NOW));
    expect(refused).toMatchObject({ code: 400, field: 'host' });
    expect(refused.en).toMatch(/Only a verified domain/);

    await makePrimaryDomain(db, 'AURORA', 'shop.example.test', settings, NOW);
    await makePrimaryDomain(db, 'AURORA', 'apex.test', settings, NOW);
    const listed = await listDomains(db, 'AURORA', settings, NOW);
    expect(listed.filter((d) => d.isPrimary).map((d) => d.host)).toEqual(['apex.test']);
    expect(listed[0]!.host).toBe('apex.test');
  });
});

describe('the host links carry, and the key host as primary (issue 31)', () => {
  const aurora = async () => (await db.select().from(channels).where(eq(channels.key, 'AURORA')))[0]!;

  it('is the primary domain, then the key host once it is made primary again, at once', async () => {
    const channel = await aurora();
    expect(await publicHostOf(db, channel, settings, NOW)).toBe('apex.test');
    const hosts = (await hostsOfChannels(db, [channel], settings, NOW)).get(channel.id)!;
    expect(hosts.slice(0, 2)).toEqual([
      { host: 'apex.test', status: 'verified', primary: true, served: true },
      { host: 'aurora.localhost', status: 'key', primary: false, served: true },
    ]);

    const was = await makeKeyHostPrimary(db, 'AURORA', settings, NOW);
    expect(was).toMatchObject({ host: 'apex.test', isPrimary: false, status: 'verified' });
    // Read through the cache just before: the change dropped it.
    expect(await publicHostOf(db, channel, settings, NOW)).toBe('aurora.localhost');
    expect((await hostsOfChannels(db, [channel], settings, NOW)).get(channel.id)![0]).toEqual({
      host: 'aurora.localhost',
      status: 'key',
      primary: true,
      served: true,
    });
    expect(await makeKeyHostPrimary(db, 'AURORA', settings, NOW)).toBeNull();
  });

  it('changes nothing when the audit record cannot be written: the write and its record go together', async () => {
    const failing = async () => {
      throw new Error('the audit trail is not writable');
    };
    await expect(makePrimaryDomain(db, 'AURORA', 'apex.test', settings, NOW, failing)).rejects.toThrow('not writable');
    expect((await listDomains(db, 'AURORA', settings, NOW)).some((d) => d.isPrimary)).toBe(false);
    await expect(removeDomain(db, 'AURORA', 'apex.test', settings, NOW, failing)).rejects.toThrow('not writable');
    expect((await rowsOf('apex.test'))[0]).toMatchObject({ status: 'verified' });

    const seen: [string | null, string | null][] = [];
    await makePrimaryDomain(db, 'AURORA', 'apex.test', settings, NOW, async (_tx, change) => {
      const primary = (record: typeof change.before) => (record && 'isPrimary' in record ? record.isPrimary : null);
      seen.push([String(primary(change.before)), String(primary(change.after))]);
    });
    expect(seen).toEqual([['false', 'true']]);
    expect(await publicHostOf(db, await aurora(), settings, NOW)).toBe('apex.test');
  });
});

describe('removing a domain', () => {
  it('stops serving it at once, and lets another channel add it afresh', async () => {
    expect(await routeHost(db, 'apex.test', settings, NOW)).toEqual({ key: 'AURORA', domain: 'apex.test' });
    const removed = await removeDomain(db, 'AURORA', 'apex.test', settings, NOW);
    expect(removed).toMatchObject({ status: 'removed', isPrimary: false, served: false });
    // Read through the cache just before: the removal dropped it (no wait for the cache to run out).
    expect(await routeHost(db, 'apex.test', settings, NOW)).toEqual({ key: '', domain: null });

    const taken = await addDomain(db, 'LUMEN', 'apex.test', settings, NOW);
    expect(taken).toMatchObject({ status: 'pending', host: 'apex.test' });
    expect(taken.records.find((r) => r.type === 'TXT')!.value).not.toBe(zone.txt.get('_storefront-verify.apex.test')![0]);
    expect(await rowsOf('apex.test')).toHaveLength(1);
  });
});

describe('routing a host', () => {
  it('serves a verified domain, not a pending or removed one, and keeps the key rule for key hosts', async () => {
    expect(await routeHost(db, 'SHOP.example.test:3000', settings, NOW)).toEqual({ key: 'AURORA', domain: 'shop.example.test' });
    expect(await routeHost(db, 'xn--bcher-kva.example.test', settings, NOW)).toEqual({ key: '', domain: null });
    expect(await routeHost(db, 'apex.test', settings, NOW)).toEqual({ key: '', domain: null });
    expect(await routeHost(db, 'lumen.localhost:3000', settings, NOW)).toEqual({ key: 'LUMEN', domain: null });
    expect(await routeHost(db, 'nothinghere.test', settings, NOW)).toEqual({ key: 'NOTHINGHERETEST', domain: null });
  });
});

describe('the re-check and its grace period', () => {
  it('keeps a failing verified domain served for the grace period with an alert, then stops, and takes it back once fixed', async () => {
    const added = await addDomain(db, 'GIFT', 'gift-shop.test', settings, NOW);
    publish(added);
    await verifyDomain(db, 'GIFT', 'gift-shop.test', settings, checker, NOW);
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);

    zone.txt.delete('_storefront-verify.gift-shop.test');
    const failedAt = new Date(NOW.getTime() + HOUR);
    await recheckDomains(db, settings, checker, failedAt, log);
    const failing = (await listDomains(db, 'GIFT', settings, failedAt))[0]!;
    expect(failing).toMatchObject({ status: 'misconfigured', problem: 'txt_missing', served: true, failingSince: failedAt });
    expect(failing.servedUntil).toEqual(new Date(failedAt.getTime() + 72 * HOUR));
    expect(lines.filter((l) => l.includes('gift-shop.test'))).toEqual([
      `[alert] domain gift-shop.test fails its DNS check (txt_missing); still served until ${failing.servedUntil!.toISOString()}, then it stops`,
    ]);

    const within = new Date(failedAt.getTime() + 71 * HOUR);
    await recheckDomains(db, settings, checker, within, log);
    expect(await routeHost(db, 'gift-shop.test', settings, within)).toEqual({ key: 'GIFT', domain: 'gift-shop.test' });
    // The grace period counts from the first failure, not the last check.
    expect((await listDomains(db, 'GIFT', settings, within))[0]!.failingSince).toEqual(failedAt);

    const after = new Date(failedAt.getTime() + 72 * HOUR);
    expect(await routeHost(db, 'gift-shop.test', settings, after)).toEqual({ key: '', domain: null });
    lines.length = 0;
    await recheckDomains(db, settings, checker, after, log);
    expect(lines.filter((l) => l.includes('gift-shop.test'))).toEqual([
      '[alert] domain gift-shop.test failed its DNS check (txt_missing) for the whole grace period: no longer served',
    ]);
    expect((await listDomains(db, 'GIFT', settings, after))[0]).toMatchObject({
      status: 'misconfigured',
      served: false,
      verifiedSince: null,
    });

    publish(added);
    const fixed = new Date(after.getTime() + HOUR);
    await recheckDomains(db, settings, checker, fixed, log);
    expect((await listDomains(db, 'GIFT', settings, fixed))[0]).toMatchObject({ status: 'verified', served: true, verifiedSince: fixed });
  });

  it('leaves a domain as it is when the DNS does not answer, and never checks a removed one', async () => {
    const before = (await rowsOf('shop.example.test'))[0]!;
    zone.failing.add('_storefront-verify.shop.example.test');
    const lines: string[] = [];
    const report = await recheckDomains(db, settings, checker, new Date(NOW.getTime() + 2 * HOUR), (l) => lines.push(l));
    zone.failing.delete('_storefront-verify.shop.example.test');
    expect(report.lookupFailed).toBe(1);
    expect((await rowsOf('shop.example.test'))[0]).toEqual(before);
    expect(lines.some((l) => l.includes('shop.example.test') && l.includes('left as it is'))).toBe(true);
    expect(lines.some((l) => l.includes('apex.test') && l.startsWith('[alert]'))).toBe(false);
  });
});
