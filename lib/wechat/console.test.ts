import { desc, eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { channels, operatorAudit } from '../db/schema';

// The WeChat share card's account in the console's Settings tab (issue 36; docs/wechat.md): owners and the channel's
// managers set the AppID in one audited write; a malformed one is refused by name in the operator's language; the
// secret is never part of it; and a store without an account answers the page's wx.config ask with a plain 404.

let api: TestApi;
let manager: TestOperator;
let lumenManager: TestOperator;
let support: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  manager = await signedInOperator(api.db, { name: 'wx.aurora', role: 'manager', channels: ['AURORA'], now: before });
  lumenManager = await signedInOperator(api.db, { name: 'wx.lumen', role: 'manager', channels: ['LUMEN'], now: before });
  support = await signedInOperator(api.db, { name: 'wx.help', role: 'support', channels: ['AURORA'], now: before });
});
afterAll(() => api.close());

const as = (op: TestOperator, path: string, body: unknown, locale = 'en') =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie, 'accept-language': locale } });
const row = async (key: string) => (await api.db.select().from(channels).where(eq(channels.key, key)))[0]!;

describe('the WeChat account in the Settings tab', () => {
  it('reads as none on the demo channels', async () => {
    const read = await as(support, '/ops/api/channel/settings', { channel: 'AURORA' });
    expect(read.body).toMatchObject({ code: 200, data: { wechat: { appId: null, secretKnown: false } } });
  });

  it('a manager sets the AppID, audited with before and after; the secret is nowhere in the answer; empty clears it', async () => {
    const saved = await as(manager, '/ops/api/channel/saveWechatAccount', { channel: 'AURORA', wechatAppId: ' wx1234567890abcdef ' });
    expect(saved.body).toMatchObject({ code: 200, data: { wechat: { appId: 'wx1234567890abcdef', secretKnown: false } } });
    expect(JSON.stringify(saved.body)).not.toMatch(/secret"?\s*:\s*"/i);
    expect((await row('AURORA')).wechatAppId).toBe('wx1234567890abcdef');
    const [entry] = await api.db
      .select()
      .from(operatorAudit)
      .where(eq(operatorAudit.procedure, 'channel/saveWechatAccount'))
      .orderBy(desc(operatorAudit.id));
    expect(entry).toMatchObject({ operatorName: 'wx.aurora', before: { wechatAppId: null }, after: { wechatAppId: 'wx1234567890abcdef' } });

    const cleared = await as(manager, '/ops/api/channel/saveWechatAccount', { channel: 'AURORA', wechatAppId: '' });
    expect(cleared.body).toMatchObject({ code: 200, data: { wechat: { appId: null } } });
    expect((await row('AURORA')).wechatAppId).toBeNull();
  });

  it.each([['wx123'], ['gh_1234567890abcdef'], [12]])('refuses %p by name, in Chinese too, and changes nothing', async (wechatAppId) => {
    const before = await row('AURORA');
    const answer = await as(manager, '/ops/api/channel/saveWechatAccount', { channel: 'AURORA', wechatAppId });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(/^wechatAppId: must be/);
    const zh = await as(manager, '/ops/api/channel/saveWechatAccount', { channel: 'AURORA', wechatAppId }, 'zh-CN');
    expect(zh.message).toMatch(/^公众号应用编号：/);
    expect(await row('AURORA')).toEqual(before);
  });

  it('is refused to support and to a manager of another channel', async () => {
    const body = { channel: 'AURORA', wechatAppId: 'wx1234567890abcdef' };
    expect((await as(support, '/ops/api/channel/saveWechatAccount', body)).code).toBe(403);
    expect((await as(lumenManager, '/ops/api/channel/saveWechatAccount', body)).code).toBe(404);
    expect((await row('AURORA')).wechatAppId).toBeNull();
  });
});

describe("a page's wx.config ask on a store without an account", () => {
  it('is a 404 in the buyer’s language, and a page of another site is refused naming the url first', async () => {
    const none = await api.callApi('/market/api/wechat/jsConfig', { url: 'http://aurora.localhost/' }, { host: 'aurora.localhost' });
    expect(none.body).toMatchObject({ code: 404, message: 'This store has no WeChat account for share cards.' });
    const zh = await api.callApi(
      '/market/api/wechat/jsConfig',
      { url: 'ftp://aurora.localhost/' },
      { host: 'aurora.localhost', headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.code).toBe(400);
    expect(zh.message).toMatch(/^网址：/);
  });
});
