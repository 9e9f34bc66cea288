import { desc, eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { channels, operatorAudit } from '../db/schema';
import { readChannel } from '../channel/service';
import { appLinkFor } from '../client/deep-link';

// issue 31, "Channels": an owner creates a channel that is served at once; an owner or a granted manager pauses it and
// edits its settings section by section; support only reads; every field out of range is refused with its name and
// nothing changed; every write is in the audit trail once with the fields before and after.

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let support: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'chan.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'aurora.boss', role: 'manager', channels: ['AURORA'], now: before });
  support = await signedInOperator(api.db, { name: 'aurora.help', role: 'support', channels: ['AURORA'], now: before });
});
afterAll(() => api.close());

const as = (op: TestOperator, path: string, body: unknown) => api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });
const row = async (key: string) => (await api.db.select().from(channels).where(eq(channels.key, key)))[0];
const auditOf = async (procedure: string) =>
  api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure)).orderBy(desc(operatorAudit.id));

const NEWSHOP = {
  key: 'NEWSHOP',
  name: 'New shop',
  brandName: 'Newshop',
  locale: 'zh-CN',
  timeZone: 'Asia/Shanghai',
  labels: [2, 1],
  attributes: { hideAmount: true },
  status: 1,
};

describe('creating a channel', () => {
  it('is served at once on its key host: the cached "no such channel" is dropped with the commit, and audited', async () => {
    expect(await readChannel(api.db, 'NEWSHOP')).toBeNull(); // a visitor tried the host before it existed: cached
    const answer = await as(owner, '/ops/api/channel/create', NEWSHOP);
    expect(answer.body).toMatchObject({ code: 200, data: { key: 'NEWSHOP', hosts: ['newshop.localhost'], labels: [1, 2], status: 1 } });
    const served = await readChannel(api.db, 'NEWSHOP');
    expect(served).toMatchObject({ host: 'newshop.localhost', labelList: '1,2', attributes: { hideAmount: true }, locale: 'zh-CN' });
    const [entry] = await auditOf('channel/create');
    expect(entry).toMatchObject({ operatorName: 'chan.owner', channelId: served!.id, before: null, after: { key: 'NEWSHOP' } });
  });

  it.each([
    ['an existing key', { key: 'AURORA' }, /^A store with this key already exists/],
    ['the operator host’s key', { key: 'OPS' }, /reserved for the operator console/],
    ['a key its host would not name', { key: 'LOCALHOSTSHOP' }, /its host localhostshop\.localhost would not lead to it/],
    ['a malformed key', { key: 'new-shop' }, /^key: must be 2 to 32 letters and digits/],
  ])('refuses %s with the field key, and creates nothing', async (_name, change, words) => {
    const count = (await api.db.select({ id: channels.id }).from(channels)).length;
    const answer = await as(owner, '/ops/api/channel/create', { ...NEWSHOP, ...change });
    expect(answer.message).toMatch(words);
    expect([400, 409]).toContain(answer.code);
    if (answer.code !== 400 || !answer.message.startsWith('key:')) expect(answer.data).toMatchObject({ field: 'key' });
    expect((await api.db.select({ id: channels.id }).from(channels)).length).toBe(count);
  });

  it.each([
    ['timeZone', { timeZone: 'Mars/Olympus' }],
    ['timeZone', { timeZone: 'CST' }],
    ['labels', { labels: [] }],
    ['labels', { labels: [1, 5] }],
    ['labels', { labels: [1, 1] }],
    ['name', { name: '' }],
    ['brandName', { brandName: 'x'.repeat(61) }],
    ['locale', { locale: 'fr' }],
    ['attributes', { attributes: { hideAmount: 'yes' } }],
    ['attributes', { attributes: { unknown: true } }],
    ['status', { status: 2 }],
  ])('refuses a bad %s by its name', async (field, change) => {
    const answer = await as(owner, '/ops/api/channel/create', { ...NEWSHOP, key: 'OTHERSHOP', ...change });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(new RegExp(`^${field}\\b`));
    expect(await row('OTHERSHOP')).toBeUndefined();
  });

  it('is an owner’s: a manager is refused', async () => {
    expect((await as(manager, '/ops/api/channel/create', { ...NEWSHOP, key: 'MANAGERS' })).code).toBe(403);
    expect(await row('MANAGERS')).toBeUndefined();
  });
});

describe('pausing and resuming', () => {
  it('hides the store at once for the manager of the channel, audited with the status before and after', async () => {
    expect((await readChannel(api.db, 'AURORA'))!.status).toBe(1);
    const paused = await as(manager, '/ops/api/channel/setStatus', { channel: 'AURORA', status: 0 });
    expect(paused.body).toMatchObject({ code: 200, data: { key: 'AURORA', status: 0 } });
    expect((await readChannel(api.db, 'AURORA'))!.status).toBe(0);
    const [entry] = await auditOf('channel/setStatus');
    expect(entry).toMatchObject({ operatorName: 'aurora.boss', before: { status: 1 }, after: { status: 0 } });
    await as(manager, '/ops/api/channel/setStatus', { channel: 'AURORA', status: 1 });
    expect((await readChannel(api.db, 'AURORA'))!.status).toBe(1);
  });

  it('is refused to support, and to a manager on a channel not granted', async () => {
    expect((await as(support, '/ops/api/channel/setStatus', { channel: 'AURORA', status: 0 })).code).toBe(403);
    expect((await as(manager, '/ops/api/channel/setStatus', { channel: 'LUMEN', status: 0 })).code).toBe(404);
    expect((await row('AURORA'))!.status).toBe(1);
    expect((await row('LUMEN'))!.status).toBe(1);
  });
});

describe('the settings sections', () => {
  const COMPLIANCE = {
    channel: 'AURORA',
    icpFiling: '京ICP备12345678号-1',
    publicSecurityFiling: '京公网安备11010502030143号',
    blockchainFiling: '京网信备11010519512345678901号',
  };

  it('support reads the settings but cannot save them', async () => {
    const read = await as(support, '/ops/api/channel/settings', { channel: 'AURORA' });
    expect(read.body).toMatchObject({ code: 200, data: { key: 'AURORA', profile: { name: expect.any(String) } } });
    expect((await as(support, '/ops/api/channel/saveCompliance', COMPLIANCE)).code).toBe(403);
    expect((await row('AURORA'))!.icpFiling).toBeNull();
  });

  it('saves the compliance numbers, audited with before and after, and read at once', async () => {
    const saved = await as(manager, '/ops/api/channel/saveCompliance', COMPLIANCE);
    expect(saved.body).toMatchObject({ code: 200, data: { compliance: { icpFiling: '京ICP备12345678号-1' } } });
    expect(await readChannel(api.db, 'AURORA')).toMatchObject({
      icpFiling: '京ICP备12345678号-1',
      publicSecurityFiling: '京公网安备11010502030143号',
      blockchainFiling: '京网信备11010519512345678901号',
    });
    const [entry] = await auditOf('channel/saveCompliance');
    expect(entry).toMatchObject({
      before: { icpFiling: null, publicSecurityFiling: null, blockchainFiling: null },
      after: { icpFiling: '京ICP备12345678号-1' },
    });
  });

  it.each([
    ['icpFiling', '京ICP备1234号'],
    ['icpFiling', 'ICP备12345678号'],
    ['icpFiling', '京ICP备 12345678号'],
    ['publicSecurityFiling', '京公网安备1101050203014号'],
    ['publicSecurityFiling', '<script>'],
    ['blockchainFiling', '京网信备123号'],
  ])('refuses %s %s by name and changes nothing (the other numbers of the call included)', async (field, value) => {
    const before = await row('AURORA');
    const answer = await as(manager, '/ops/api/channel/saveCompliance', {
      ...COMPLIANCE,
      icpFiling: '沪ICP备87654321号',
      [field]: value,
    });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(new RegExp(`^${field}: must be`));
    expect(await row('AURORA')).toEqual(before);
  });

  it('clears a number when it is left empty', async () => {
    await as(manager, '/ops/api/channel/saveCompliance', { ...COMPLIANCE, blockchainFiling: '' });
    expect((await row('AURORA'))!.blockchainFiling).toBeNull();
  });

  it('saves the Store section back unchanged as the settings read answers it for a seeded channel (issue 31)', async () => {
    const read = await as(manager, '/ops/api/channel/settings', { channel: 'AURORA' });
    const profile = (read.body.data as { profile: Record<string, unknown> }).profile;
    // What the demo seed stores: the app's link with its scheme, and no download page.
    expect(profile).toMatchObject({ appScheme: 'aurora://open', appDownloadUrl: null });
    const before = await row('AURORA');
    const saved = await as(manager, '/ops/api/channel/saveProfile', { channel: 'AURORA', ...profile });
    expect({ code: saved.code, message: saved.message }).toEqual({ code: 200, message: expect.any(String) });
    const after = await row('AURORA');
    expect(after).toMatchObject({ appScheme: 'aurora://open', appDownloadUrl: null, name: before!.name });
    // An empty download page is none, as null is.
    expect((await as(manager, '/ops/api/channel/saveProfile', { channel: 'AURORA', ...profile, appDownloadUrl: '' })).code).toBe(200);
    expect((await row('AURORA'))!.appDownloadUrl).toBeNull();
  });

  it.each([
    ['auroraapp', 'auroraapp://goods/detail/42'],
    ['aurora://open', 'aurora://open/goods/detail/42'],
    ['aurora://', 'aurora://goods/detail/42'],
  ])('gives the goods page a working app link for each scheme the console accepts: %s', async (appScheme, appUrl) => {
    const read = await as(manager, '/ops/api/channel/settings', { channel: 'AURORA' });
    const profile = (read.body.data as { profile: Record<string, unknown> }).profile;
    expect((await as(manager, '/ops/api/channel/saveProfile', { channel: 'AURORA', ...profile, appScheme })).code).toBe(200);
    const served = await readChannel(api.db, 'AURORA');
    expect(appLinkFor(served!, '/goods/detail/42')).toEqual({ appUrl, downloadUrl: null });
    await as(manager, '/ops/api/channel/saveProfile', { channel: 'AURORA', ...profile });
  });

  it.each(['aurora://open?x=1', 'aurora:open', 'https://aurora.example', 'a', 'aurora://open now'])(
    'refuses the app link %s by name: no goods page could open it',
    async (appScheme) => {
      const read = await as(manager, '/ops/api/channel/settings', { channel: 'AURORA' });
      const profile = (read.body.data as { profile: Record<string, unknown> }).profile;
      const answer = await as(manager, '/ops/api/channel/saveProfile', { channel: 'AURORA', ...profile, appScheme });
      expect({ code: answer.code, field: answer.message.split(':')[0] }).toEqual({ code: 400, field: 'appScheme' });
    },
  );

  it('saves the profile: labels in order, attributes, app links; refuses a script scheme and a bad time zone by name', async () => {
    const profile = {
      channel: 'AURORA',
      name: 'Aurora renamed',
      brandName: 'Aurora',
      locale: null,
      timeZone: 'Europe/London',
      labels: [4, 1],
      attributes: { noActive: true },
      appScheme: 'auroraapp',
      appDownloadUrl: 'https://example.com/app',
    };
    expect((await as(manager, '/ops/api/channel/saveProfile', profile)).code).toBe(200);
    expect(await row('AURORA')).toMatchObject({
      name: 'Aurora renamed',
      labelList: '1,4',
      timeZone: 'Europe/London',
      appScheme: 'auroraapp',
    });
    for (const [field, value] of [
      ['appScheme', 'javascript'],
      ['appDownloadUrl', 'http://example.com/app'],
      ['timeZone', 'Europe/Nowhere'],
      ['labels', []],
    ] as const) {
      const before = await row('AURORA');
      const answer = await as(manager, '/ops/api/channel/saveProfile', { ...profile, name: 'Not saved', [field]: value });
      expect({ field, code: answer.code, message: answer.message.split(':')[0] }).toEqual({ field, code: 400, message: field });
      expect(await row('AURORA')).toEqual(before);
    }
  });

  it('keeps the agreement templates as the default while a text is empty, and the operator’s own text once set', async () => {
    await as(manager, '/ops/api/channel/saveTexts', {
      channel: 'AURORA',
      marketText: 'Market',
      buyText: 'Buy',
      exchangeText: '',
      privacyText: '',
      salesStrategyText: 'Our own\nsales strategy',
    });
    const read = (await as(manager, '/ops/api/channel/settings', { channel: 'AURORA' })).data as {
      texts: Record<string, string>;
      defaultAgreements: Record<string, string>;
    };
    expect(read.texts).toMatchObject({ privacyText: '', salesStrategyText: 'Our own\nsales strategy' });
    expect(read.defaultAgreements.privacyText?.length).toBeGreaterThan(100);
    const detail = await api.callApi('/market/api/channel/detail', { key: 'AURORA' });
    expect(detail.data).toMatchObject({ salesStrategyText: 'Our own\nsales strategy' });
    expect((detail.data as { privacyText: string }).privacyText.length).toBeGreaterThan(100);
    const bad = await as(manager, '/ops/api/channel/saveTexts', {
      channel: 'AURORA',
      marketText: 'x'.repeat(1001),
      buyText: '',
      exchangeText: '',
      privacyText: '',
      salesStrategyText: '',
    });
    expect(bad.message).toMatch(/^marketText: must be 1000 characters or less/);
    expect((await row('AURORA'))!.marketText).toBe('Market');
  });

  it('saves the customer-service contact and refuses a bad phone, e-mail or address by name', async () => {
    const contact = { channel: 'AURORA', phone: '400-123-4567', hours: '9:00–21:00', email: 'help@example.com', url: '' };
    expect((await as(manager, '/ops/api/channel/saveCustomerService', contact)).code).toBe(200);
    expect((await row('AURORA'))!.customerService).toEqual({ phone: '400-123-4567', hours: '9:00–21:00', email: 'help@example.com' });
    for (const [field, value] of [
      ['phone', 'call us'],
      ['email', 'nobody'],
      ['url', 'javascript:alert(1)'],
    ] as const) {
      const answer = await as(manager, '/ops/api/channel/saveCustomerService', { ...contact, [field]: value });
      expect(answer.message.split(':')[0]).toBe(field);
    }
    expect((await row('AURORA'))!.customerService).toEqual({ phone: '400-123-4567', hours: '9:00–21:00', email: 'help@example.com' });
  });

  it('saves the SMS sender and the payment providers in order; refuses an unknown provider by name', async () => {
    const providersBefore = (await row('AURORA'))!.paymentProviders;
    expect(
      (await as(manager, '/ops/api/channel/saveSmsSender', { channel: 'AURORA', smsSignName: null, smsTemplateId: 'SMS_42' })).code,
    ).toBe(200);
    expect((await as(manager, '/ops/api/channel/savePayment', { channel: 'AURORA', paymentProviders: ['alipay', 'sandbox'] })).code).toBe(
      200,
    );
    expect(await row('AURORA')).toMatchObject({ smsSignName: null, smsTemplateId: 'SMS_42', paymentProviders: ['alipay', 'sandbox'] });
    const bad = await as(manager, '/ops/api/channel/savePayment', { channel: 'AURORA', paymentProviders: ['paypal'] });
    expect(bad.message).toMatch(/^paymentProviders/);
    expect((await row('AURORA'))!.paymentProviders).toEqual(['alipay', 'sandbox']);
    const [entry] = await auditOf('channel/savePayment');
    expect(entry).toMatchObject({ before: { paymentProviders: providersBefore }, after: { paymentProviders: ['alipay', 'sandbox'] } });
  });
});
