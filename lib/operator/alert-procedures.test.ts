import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { startFakeHttp } from '@/test/fake-http';
import { channelAlertWebhooks, channels, operatorAudit } from '@/lib/db/schema';
import { raiseAlert } from '@/lib/monitor/alerts';

// A channel's alert webhook in the console (issue 32, "Reports"): owners only (a manager of the channel is refused),
// the secret never answered nor in the trail, refusals naming the field, "send a test alert" answering what the
// receiver said, and the alerts list showing where each alert's posts stand.

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let receiver: Awaited<ReturnType<typeof startFakeHttp>>;
const SECRET = 'SECconsole-dingtalk-secret-01';

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'alerts.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'lumen.alerts', role: 'manager', channels: ['LUMEN'], now: before });
  receiver = await startFakeHttp((request) => {
    const url = new URL(request.url, 'http://x');
    const timestamp = url.searchParams.get('timestamp') ?? '';
    const sign = createHmac('sha256', SECRET).update(`${timestamp}\n${SECRET}`).digest('base64');
    return url.searchParams.get('sign') === sign
      ? { status: 200, body: '{"errcode":0,"errmsg":"ok"}' }
      : { status: 200, body: '{"errcode":310000,"errmsg":"sign not match"}' };
  });
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });

describe('/ops/api/alert/webhook*', () => {
  it("refuses the channel's manager every call, and changes nothing", async () => {
    for (const path of [
      '/ops/api/alert/webhook',
      '/ops/api/alert/webhook/set',
      '/ops/api/alert/webhook/test',
      '/ops/api/alert/webhook/remove',
    ]) {
      const answer = await as(manager)(path, { channel: 'LUMEN', url: `${receiver.origin}/robot/send`, format: 'dingtalk' });
      expect({ path, code: answer.code }).toEqual({ path, code: 403 });
    }
    expect(await api.db.select().from(channelAlertWebhooks)).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a bad URL or an unknown format naming the field', async () => {
    const bad = await as(owner)('/ops/api/alert/webhook/set', { channel: 'LUMEN', url: 'hooks.example.com/x', format: 'json' });
    expect(bad).toMatchObject({ code: 400, data: { field: 'url' } });
    const format = await as(owner)('/ops/api/alert/webhook/set', { channel: 'LUMEN', url: `${receiver.origin}/x`, format: 'slack' });
    expect(format.code).toBe(400);
    expect(format.message).toMatch(/^format: /);
    const secret = await as(owner)('/ops/api/alert/webhook/set', {
      channel: 'LUMEN',
      url: `${receiver.origin}/x`,
      format: 'wecom',
      secret: 'a secret WeCom never checks',
    });
    expect(secret).toMatchObject({ code: 400, data: { field: 'secret' } });
    expect(await api.db.select().from(channelAlertWebhooks)).toEqual([]);
  });

  it('lets the owner set, read, test and remove it; the secret is in no answer and not in the trail', async () => {
    const url = `${receiver.origin}/robot/send?access_token=lumen0123456789`;
    const set = await as(owner)('/ops/api/alert/webhook/set', { channel: 'LUMEN', url, format: 'dingtalk', secret: SECRET });
    expect(set).toMatchObject({
      code: 200,
      data: { url: `${receiver.origin}/robot/send?access_token=…6789`, format: 'dingtalk', signed: true },
    });
    const read = await as(owner)('/ops/api/alert/webhook', { channel: 'LUMEN' });
    expect(read.data).toMatchObject({ webhook: { format: 'dingtalk', signed: true }, deploymentWebhook: false });

    const test = await as(owner)('/ops/api/alert/webhook/test', { channel: 'LUMEN' });
    expect(test).toMatchObject({ code: 200, data: { taken: true, status: 200, said: '{"errcode":0,"errmsg":"ok"}' } });
    expect(JSON.parse(receiver.requests.at(-1)!.body)).toMatchObject({ text: { content: expect.stringContaining('[alert] test LUMEN') } });

    // A wrong secret: the receiver's refusal is the answer.
    await as(owner)('/ops/api/alert/webhook/set', { channel: 'LUMEN', format: 'dingtalk', secret: 'SECnot-the-robots-secret' });
    const refused = await as(owner)('/ops/api/alert/webhook/test', { channel: 'LUMEN' });
    expect(refused.data).toEqual({ taken: false, status: 200, said: 'errcode 310000: sign not match' });

    const removed = await as(owner)('/ops/api/alert/webhook/remove', { channel: 'LUMEN' });
    expect(removed).toMatchObject({ code: 200, data: { removed: true } });
    expect((await as(owner)('/ops/api/alert/webhook/test', { channel: 'LUMEN' })).code).toBe(404);

    const [lumen] = await api.db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
    const entries = await api.db.select().from(operatorAudit).where(eq(operatorAudit.channelId, lumen!.id));
    expect(entries.map((e) => e.procedure)).toEqual([
      'alert/webhook/set',
      'alert/webhook/test',
      'alert/webhook/set',
      'alert/webhook/test',
      'alert/webhook/remove',
      'alert/webhook/test',
    ]);
    const written = JSON.stringify(entries);
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain('SECnot-the-robots-secret');
    expect(written).not.toContain('lumen0123456789');
    expect(entries[0]).toMatchObject({ before: { webhook: null }, after: { webhook: { format: 'dingtalk', signed: true } } });
    expect(entries[4]).toMatchObject({ before: { webhook: { format: 'dingtalk' } }, after: null });
    for (const answer of [set, read, test]) expect(JSON.stringify(answer)).not.toContain(SECRET);
  });

  it("shows on the Reports tab's alerts where each alert's post to the store's webhook stands", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    await as(owner)('/ops/api/alert/webhook/set', {
      channel: 'LUMEN',
      url: `${receiver.origin}/robot/send?access_token=t`,
      format: 'dingtalk',
      secret: SECRET,
    });
    const [lumen] = await api.db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
    await raiseAlert(api.db, { kind: 'soldOut', channelId: lumen!.id, subject: 'sale z', detail: 'lumen sold out' }, api.now, {
      webhook: null,
    });
    const answer = await as(manager)('/ops/api/report/alerts', { channel: 'LUMEN' });
    const alert = (answer.data as { alerts: { detail: string; deliveries: unknown[] }[] }).alerts.find(
      (a) => a.detail === 'lumen sold out',
    );
    expect(alert!.deliveries).toEqual([{ target: 'channel', state: 'delivered', tries: 1, nextTryAt: null, lastError: null }]);
    expect(JSON.parse(receiver.requests.at(-1)!.body)).toEqual({
      msgtype: 'text',
      text: { content: '[alert] soldOut LUMEN: lumen sold out' },
    });
  });
});
