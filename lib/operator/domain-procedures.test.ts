import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { startFakeDns } from '@/test/dns-server';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { channelDomains, operatorAudit } from '@/lib/db/schema';

// The Domains tab's calls (issue 31, "Domains"): the owner's journey through the procedures, against a DNS server on
// loopback (DNS_RESOLVER), every write in the audit trail once with before and after, and bad input refused by field
// with nothing stored. The environment is read on first use, so it is set before the first call.
const DNS_PORT = 5395;
process.env.DNS_RESOLVER = `127.0.0.1:${DNS_PORT}`;
process.env.DOMAIN_TARGET = 'stores.shop.example';

let api: TestApi;
let dns: Awaited<ReturnType<typeof startFakeDns>>;
let owner: TestOperator;
let manager: TestOperator;

beforeAll(async () => {
  dns = await startFakeDns(DNS_PORT);
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'domains.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'aurora.manager', role: 'manager', channels: ['AURORA'], now: before });
});
afterAll(async () => {
  await dns.close();
  await api.close();
});

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });

async function auditOf(procedure: string) {
  return api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure));
}

describe('an owner adds a domain, verifies it and makes it primary', () => {
  const call = (path: string, body: unknown) => as(owner)(path, body);
  type Wire = {
    host: string;
    status: string;
    problem: string | null;
    isPrimary: boolean;
    records: { type: string; name: string; value: string }[];
  };

  it('shows the records to set, misconfigured without the TXT record, verified with it, then primary everywhere', async () => {
    const added = await call('/ops/api/domain/add', { channel: 'AURORA', host: 'Shop.Example.test' });
    expect(added.code).toBe(200);
    const domain = added.data as Wire;
    expect(domain).toMatchObject({ host: 'shop.example.test', status: 'pending', isPrimary: false });
    expect(domain.records.map((r) => [r.type, r.name])).toEqual([
      ['CNAME', 'shop.example.test'],
      ['TXT', '_storefront-verify.shop.example.test'],
    ]);
    expect(domain.records[0]!.value).toBe('stores.shop.example');
    const txt = domain.records[1]!;

    dns.zone.cname.set('shop.example.test', 'stores.shop.example');
    const missing = await call('/ops/api/domain/verify', { channel: 'AURORA', host: 'shop.example.test' });
    expect(missing.data).toMatchObject({ status: 'misconfigured', problem: 'txt_missing' });

    dns.zone.txt.set(txt.name, [txt.value]);
    const verified = await call('/ops/api/domain/verify', { channel: 'AURORA', host: 'shop.example.test' });
    expect(verified.data).toMatchObject({ status: 'verified', problem: null });

    expect((await call('/ops/api/domain/makePrimary', { channel: 'AURORA', host: 'shop.example.test' })).data).toEqual({
      primary: 'shop.example.test',
    });
    expect((await call('/ops/api/domain/list', { channel: 'AURORA' })).data).toMatchObject({
      keyHost: 'aurora.localhost',
      primary: 'shop.example.test',
      domains: [{ host: 'shop.example.test', status: 'verified', isPrimary: true }],
    });
    // The channel list: the hosts from the domains, primary first, each with its status.
    const list = (await call('/ops/api/channel/list', {})).data as { channels: { key: string; hosts: string[]; domains: unknown[] }[] };
    const aurora = list.channels.find((c) => c.key === 'AURORA')!;
    expect(aurora.hosts).toEqual(['shop.example.test', 'aurora.localhost']);
    expect(aurora.domains).toEqual([
      { host: 'shop.example.test', status: 'verified', primary: true, served: true },
      { host: 'aurora.localhost', status: 'key', primary: false, served: true },
    ]);
  });

  it('records each write once, with the domain before and after, the operator and the channel', async () => {
    const verifies = await auditOf('domain/verify');
    expect(verifies).toHaveLength(2);
    expect(verifies.map((v) => [(v.before as Wire).status, (v.after as Wire).status])).toEqual([
      ['pending', 'misconfigured'],
      ['misconfigured', 'verified'],
    ]);
    const [add] = await auditOf('domain/add');
    expect(add).toMatchObject({ operatorName: 'domains.owner', channelId: await api.channelId('AURORA'), before: null });
    expect(add!.after).toMatchObject({ host: 'shop.example.test', status: 'pending' });
    const [primary] = await auditOf('domain/makePrimary');
    expect([(primary!.before as Wire).isPrimary, (primary!.after as Wire).isPrimary]).toEqual([false, true]);
  });

  it('makes the key host primary again, and refuses to remove it', async () => {
    expect((await call('/ops/api/domain/makePrimary', { channel: 'AURORA', host: 'aurora.localhost' })).data).toEqual({
      primary: 'aurora.localhost',
    });
    expect((await call('/ops/api/domain/list', { channel: 'AURORA' })).data).toMatchObject({
      primary: 'aurora.localhost',
      domains: [{ host: 'shop.example.test', isPrimary: false }],
    });
    const refused = await call('/ops/api/domain/remove', { channel: 'AURORA', host: 'aurora.localhost' });
    expect(refused).toMatchObject({ code: 400, data: { field: 'host' } });
    expect(refused.message).toContain('cannot be removed');
  });

  it('removes a domain: it shows as removed and is no longer the channel’s host', async () => {
    const removed = await call('/ops/api/domain/remove', { channel: 'AURORA', host: 'shop.example.test' });
    expect(removed.data).toMatchObject({ status: 'removed', isPrimary: false });
    const list = (await call('/ops/api/channel/list', {})).data as { channels: { key: string; hosts: string[] }[] };
    expect(list.channels.find((c) => c.key === 'AURORA')!.hosts).toEqual(['aurora.localhost']);
    expect(await auditOf('domain/remove')).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('is refused with the field named, and nothing is stored or recorded', async () => {
    await as(owner)('/ops/api/domain/add', { channel: 'LUMEN', host: 'lumen-shop.example.test' });
    const rowsBefore = await api.db.select().from(channelDomains);
    const auditBefore = await api.db.select().from(operatorAudit);
    const cases: [string, unknown, RegExp][] = [
      ['an IP', '203.0.113.7', /IP address/],
      ['a port', 'aurora-shop.example.test:8443', /port/],
      ['another channel’s domain', 'lumen-shop.example.test', /another store/],
      ['the operator host', 'ops.localhost', /operator console/],
      ['a malformed name', 'shop..example', /not a domain name/],
      ['a path', 'https://aurora-shop.example.test/x', /without “https:\/\/”/],
      ['nothing', '   ', /^host: /],
      ['not a string', 42, /^host: /],
    ];
    for (const [name, host, words] of cases) {
      const answer = await as(manager)('/ops/api/domain/add', { channel: 'AURORA', host });
      expect({ name, code: answer.code }).toEqual({ name, code: 400 });
      expect({ name, message: answer.message }).toEqual({ name, message: expect.stringMatching(words) });
      // A catalogue refusal names its field in `data`; a schema refusal in its words ("host: ...").
      if (!answer.message.startsWith('host: ')) expect({ name, data: answer.data }).toEqual({ name, data: { field: 'host' } });
    }
    expect(await api.db.select().from(channelDomains)).toEqual(rowsBefore);
    expect(await api.db.select().from(operatorAudit)).toEqual(auditBefore);
  });

  it('only a verified domain can be primary', async () => {
    await as(manager)('/ops/api/domain/add', { channel: 'AURORA', host: 'pending-shop.example.test' });
    const refused = await as(manager)('/ops/api/domain/makePrimary', { channel: 'AURORA', host: 'pending-shop.example.test' });
    expect(refused).toMatchObject({ code: 400, data: { field: 'host' } });
    expect((await as(manager)('/ops/api/domain/list', { channel: 'AURORA' })).data).toMatchObject({ primary: 'aurora.localhost' });
  });
});
