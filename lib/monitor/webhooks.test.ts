import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { createTestDb } from '@/test/db';
import { startFakeHttp, type FakeAnswer, type FakeRequest } from '@/test/fake-http';
import { AppError } from '@/lib/procedure/errors';
import { fieldOf } from '@/lib/procedure/messages';
import { alertDeliveries, channelAlertWebhooks, channels } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { ALERT_RETRY_DELAYS_MS, listAlerts, raiseAlert, retryAlertDeliveries, sendTestAlert } from './alerts';
import {
  channelWebhook,
  maskedUrl,
  readChannelWebhook,
  removeChannelWebhook,
  setChannelWebhook,
  webhookSealKey,
  type WebhookAudit,
  type WebhookChange,
} from './webhooks';
import { guardedPost, isInternalAddress, WebhookAddressError } from './webhook-post';

/**
 * issue 32, "Reports": alerts go "to a webhook the owner sets (WeCom, DingTalk, Feishu, or any URL)". A channel's own
 * webhook is checked as hostile input, its secret sealed at rest and never audited, and each alert's post to it is
 * signed as the vendor checks it (the fake receiver below checks the signature itself, as the vendor's robot does),
 * retried after a failure with backoff (1, 5, 30 minutes) and given up after the fourth try.
 */

let db: Db;
let close: () => Promise<void>;
let channelId = 0;
let otherId = 0;
const NOW = new Date('2026-05-01T10:00:00Z');
const KEY = webhookSealKey('a test deployment secret of 32+ characters!!');
const DING_SECRET = 'SECdingtalk0123456789abcdef';
const FEISHU_SECRET = 'feishu-signing-secret';
const DEV = { production: false };
const PROD = { production: true };

/** What the robots check, as their documentation says; a wrong signature is a 200 with the vendor's error code. */
function robot(request: FakeRequest, origin: string): FakeAnswer {
  const url = new URL(request.url, origin);
  const body = JSON.parse(request.body) as Record<string, unknown>;
  if (url.pathname === '/dingtalk') {
    const timestamp = url.searchParams.get('timestamp') ?? '';
    const sign = createHmac('sha256', DING_SECRET).update(`${timestamp}\n${DING_SECRET}`).digest('base64');
    const fresh = Math.abs(Number(timestamp) - NOW.getTime()) < 3_600_000;
    return url.searchParams.get('sign') === sign && fresh
      ? { status: 200, body: '{"errcode":0,"errmsg":"ok"}' }
      : { status: 200, body: '{"errcode":310000,"errmsg":"sign not match"}' };
  }
  if (url.pathname === '/feishu') {
    const timestamp = String(body.timestamp);
    const sign = createHmac('sha256', `${timestamp}\n${FEISHU_SECRET}`).update('').digest('base64');
    return body.sign === sign
      ? { status: 200, body: '{"code":0,"msg":"success"}' }
      : { status: 200, body: '{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time"}' };
  }
  if (url.pathname === '/cgi-bin/webhook/send') {
    // WeCom's robot is its key: an unknown key is a 200 with errcode 93000.
    return url.searchParams.get('key') === 'wecom-robot-key-0001'
      ? { status: 200, body: '{"errcode":0,"errmsg":"ok"}' }
      : { status: 200, body: '{"errcode":93000,"errmsg":"invalid webhook url"}' };
  }
  return { status: 404, body: 'no such robot' };
}

let receiver: Awaited<ReturnType<typeof startFakeHttp>>;

beforeAll(async () => {
  ({ db, close } = await createTestDb());
  const made = await db
    .insert(channels)
    .values([
      { key: 'HOOKS', host: 'hooks.localhost', name: 'Hooks', brandName: 'Hooks', labelList: '1' },
      { key: 'OTHER', host: 'other.localhost', name: 'Other', brandName: 'Other', labelList: '1' },
    ])
    .returning({ id: channels.id });
  channelId = made[0]!.id;
  otherId = made[1]!.id;
  receiver = await startFakeHttp((request) => robot(request, receiver.origin));
});
afterAll(async () => {
  await receiver.close();
  await close();
});
beforeEach(() => {
  receiver.requests.splice(0);
  jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

/** An audit hook that keeps what it was given, as the trail would. */
function trail(): { audit: WebhookAudit; entries: unknown[] } {
  const entries: unknown[] = [];
  return { entries, audit: async (_tx, change) => void entries.push(change) };
}

const set = (change: Partial<WebhookChange> & Pick<WebhookChange, 'format'>, audit: WebhookAudit = trail().audit, id = channelId) =>
  setChannelWebhook(db, { channelId: id, now: NOW, rules: DEV, key: KEY, ...change }, audit);

/** The refusal a call makes: its HTTP-like code and the field it names. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; field: string | null; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, field: fieldOf(error.text!), message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

let subjects = 0;
const alertOf = (id = channelId) => ({ kind: 'soldOut' as const, channelId: id, subject: `sale ${++subjects}`, detail: 'sold out' });

describe('setting a channel webhook', () => {
  it('refuses hostile URLs naming the field, and changes nothing', async () => {
    const cases: [string, typeof DEV, string][] = [
      ['not a url', DEV, 'alertWebhookUrlInvalid'],
      ['ftp://hooks.example/x', DEV, 'alertWebhookUrlInvalid'],
      ['https://user:pass@hooks.example/x', DEV, 'alertWebhookUrlCredentials'],
      ['http://hooks.example/x', PROD, 'alertWebhookUrlHttps'],
      ['https://10.1.2.3/x', PROD, 'alertWebhookUrlInternal'],
      ['https://169.254.169.254/latest/meta-data', PROD, 'alertWebhookUrlInternal'],
      ['https://100.100.100.200/x', PROD, 'alertWebhookUrlInternal'],
      ['https://[::1]/x', PROD, 'alertWebhookUrlInternal'],
      ['https://[fd00:ec2::254]/x', PROD, 'alertWebhookUrlInternal'],
      ['https://[::ffff:127.0.0.1]/x', PROD, 'alertWebhookUrlInternal'],
      ['https://localhost/x', PROD, 'alertWebhookUrlInternal'],
    ];
    for (const [url, rules, key] of cases) {
      const refused = await refusal(setChannelWebhook(db, { channelId, url, format: 'json', now: NOW, rules, key: KEY }, trail().audit));
      expect({ url, code: refused.code, field: refused.field }).toEqual({ url, code: 400, field: 'url' });
      expect(refused.message).toEqual(
        (
          {
            alertWebhookUrlInvalid: 'The webhook URL must be a full web address starting with https://.',
            alertWebhookUrlCredentials: 'The webhook URL must not carry a user name or password. Put the signing secret in its own field.',
            alertWebhookUrlHttps: 'The webhook URL must start with https://: alerts are sent only over an encrypted connection.',
            alertWebhookUrlInternal: expect.stringContaining('points inside this deployment’s network'),
          } as Record<string, unknown>
        )[key] as string,
      );
    }
    // Loopback over http is what the tests' receivers need out of production.
    expect(await refusal(set({ url: 'http://127.0.0.1:1/x', format: 'wecom', secret: 'a secret here' }))).toMatchObject({
      code: 400,
      field: 'secret',
    });
    expect(await refusal(set({ format: 'json' }))).toMatchObject({ code: 400, field: 'url' });
    expect(await db.select().from(channelAlertWebhooks)).toEqual([]);
  });

  it('seals the secret at rest, audits the change without it, masks the robot key, and keeps the secret when not retyped', async () => {
    const first = trail();
    const url = `${receiver.origin}/dingtalk?access_token=abcdef0123456789`;
    const view = await set({ url, format: 'dingtalk', secret: DING_SECRET }, first.audit);
    expect(view).toMatchObject({ url: `${receiver.origin}/dingtalk?access_token=…6789`, format: 'dingtalk', signed: true });
    const [row] = await db.select().from(channelAlertWebhooks).where(eq(channelAlertWebhooks.channelId, channelId));
    expect(row!.secretSealed).not.toContain(DING_SECRET);
    expect(Buffer.from(row!.secretSealed!.split('.')[2]!, 'base64').toString('utf8')).not.toContain('SEC');
    // Sealed for this channel: the same ciphertext on another channel's row does not open.
    await db
      .insert(channelAlertWebhooks)
      .values({ channelId: otherId, url, format: 'dingtalk', secretSealed: row!.secretSealed, updatedAt: NOW });
    await expect(channelWebhook(db, otherId, KEY)).rejects.toThrow();
    await db.delete(channelAlertWebhooks).where(eq(channelAlertWebhooks.channelId, otherId));
    expect(first.entries).toEqual([
      { channelId, before: { webhook: null }, after: { webhook: expect.objectContaining({ signed: true, format: 'dingtalk' }) } },
    ]);
    expect(JSON.stringify(first.entries)).not.toContain(DING_SECRET);
    expect(JSON.stringify(first.entries)).not.toContain('abcdef0123456789');
    expect(await channelWebhook(db, channelId, KEY)).toEqual({ url, format: 'dingtalk', secret: DING_SECRET });
    await expect(channelWebhook(db, channelId, webhookSealKey('another deployment secret of 32+ characters'))).rejects.toThrow();

    // A change of URL only keeps the secret set; switching to WeCom drops it (its robot does not sign).
    await set({ url: `${receiver.origin}/dingtalk?access_token=second0123456789`, format: 'dingtalk' });
    expect((await channelWebhook(db, channelId, KEY))!.secret).toBe(DING_SECRET);
    const toWecom = trail();
    await set({ url: `${receiver.origin}/cgi-bin/webhook/send?key=wecom-robot-key-0001`, format: 'wecom' }, toWecom.audit);
    expect(toWecom.entries).toEqual([
      {
        channelId,
        before: { webhook: expect.objectContaining({ format: 'dingtalk', signed: true }) },
        after: { webhook: expect.objectContaining({ format: 'wecom', signed: false, url: expect.stringContaining('key=…0001') }) },
      },
    ]);
    expect((await db.select().from(channelAlertWebhooks).where(eq(channelAlertWebhooks.channelId, channelId)))[0]!.secretSealed).toBeNull();

    const removed = trail();
    await removeChannelWebhook(db, channelId, removed.audit);
    expect(removed.entries).toEqual([{ channelId, before: { webhook: expect.objectContaining({ format: 'wecom' }) }, after: null }]);
    expect(await readChannelWebhook(db, channelId)).toBeNull();
    expect(await refusal(removeChannelWebhook(db, channelId, trail().audit))).toMatchObject({ code: 404 });
  });

  it('masks query values and long path parts of a robot URL', () => {
    expect(maskedUrl('https://open.feishu.cn/open-apis/bot/v2/hook/6a1c2b3d-aaaa-bbbb-cccc-0123456789ab')).toBe(
      'https://open.feishu.cn/open-apis/bot/v2/hook/…89ab',
    );
    expect(maskedUrl('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx')).toBe(
      'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…7xxx',
    );
  });
});

describe("posting to a channel's webhook", () => {
  it('signs DingTalk, Feishu and WeCom posts so that each robot takes them, and records each as delivered', async () => {
    for (const [url, format, secret] of [
      [`${receiver.origin}/dingtalk?access_token=t`, 'dingtalk', DING_SECRET],
      [`${receiver.origin}/feishu`, 'feishu', FEISHU_SECRET],
      [`${receiver.origin}/cgi-bin/webhook/send?key=wecom-robot-key-0001`, 'wecom', undefined],
    ] as const) {
      await set({ url, format, secret: secret ?? null });
      const alert = alertOf();
      expect(await raiseAlert(db, alert, NOW, { webhook: null, sealKey: KEY })).toBe(true);
      const [listed] = (await listAlerts(db, channelId, new Date(NOW.getTime() - 1))).filter((a) => a.subject === alert.subject);
      expect({ format, deliveries: listed!.deliveries }).toEqual({
        format,
        deliveries: [{ target: 'channel', state: 'delivered', tries: 1, nextTryAt: null, lastError: null }],
      });
    }
    expect(receiver.requests).toHaveLength(3);
    expect(JSON.parse(receiver.requests[2]!.body)).toEqual({ msgtype: 'text', text: { content: '[alert] soldOut HOOKS: sold out' } });
  });

  it("counts the vendor's error code in a 200 as a failure (a wrong DingTalk secret), and answers it to the test alert", async () => {
    await set({ url: `${receiver.origin}/dingtalk?access_token=t`, format: 'dingtalk', secret: 'SECnot-the-robots-secret' });
    const test = await sendTestAlert(db, { id: channelId, key: 'HOOKS' }, NOW, { sealKey: KEY, post: guardedPost(DEV) });
    expect(test).toMatchObject({ taken: false, status: 200, problem: 'errcode 310000: sign not match' });
    await set({ format: 'dingtalk', secret: DING_SECRET });
    const good = await sendTestAlert(db, { id: channelId, key: 'HOOKS' }, NOW, { sealKey: KEY, post: guardedPost(DEV) });
    expect(good).toMatchObject({ taken: true, status: 200, said: '{"errcode":0,"errmsg":"ok"}', problem: null });
    expect(JSON.parse(receiver.requests[1]!.body)).toEqual({
      msgtype: 'text',
      text: { content: '[alert] test HOOKS: a test alert from the console: this webhook works.' },
    });
  });

  it('retries a post the receiver refused with a 500 after a minute, and it is delivered then', async () => {
    let down = true;
    const flaky = await startFakeHttp(() => (down ? { status: 500, body: 'upstream down' } : { status: 200, body: 'ok' }));
    try {
      await set({ url: `${flaky.origin}/hook`, format: 'json', secret: 'our json secret' });
      const alert = alertOf();
      await raiseAlert(db, alert, NOW, { webhook: null, sealKey: KEY });
      const stateOf = async () =>
        (await listAlerts(db, channelId, new Date(NOW.getTime() - 1))).find((a) => a.subject === alert.subject)!.deliveries;
      expect(await stateOf()).toEqual([
        {
          target: 'channel',
          state: 'retrying',
          tries: 1,
          nextTryAt: new Date(NOW.getTime() + ALERT_RETRY_DELAYS_MS[0]),
          lastError: 'HTTP 500: upstream down',
        },
      ]);
      down = false;
      // Not before it is due.
      expect(await retryAlertDeliveries(db, new Date(NOW.getTime() + 59_999), { webhook: null, sealKey: KEY })).toEqual({
        tried: 0,
        delivered: 0,
        givenUp: 0,
      });
      expect(flaky.requests).toHaveLength(1);
      // Two processes' passes at once: one post.
      const passes = await Promise.all(
        [1, 2].map(() => retryAlertDeliveries(db, new Date(NOW.getTime() + 60_000), { webhook: null, sealKey: KEY })),
      );
      expect(passes.map((p) => p.delivered).sort()).toEqual([0, 1]);
      expect(flaky.requests).toHaveLength(2);
      const signed = flaky.requests[1]!;
      expect(signed.headers['x-storefront-signature']).toBe(
        createHmac('sha256', 'our json secret')
          .update(`${String(signed.headers['x-storefront-timestamp'])}.${signed.body}`)
          .digest('hex'),
      );
      expect(await stateOf()).toEqual([{ target: 'channel', state: 'delivered', tries: 2, nextTryAt: null, lastError: null }]);
    } finally {
      await flaky.close();
    }
  });

  it('gives a post up after its fourth try (1, 5 and 30 minutes apart) and shows it failed', async () => {
    const broken = await startFakeHttp(() => ({ status: 502, body: '' }));
    try {
      await set({ url: `${broken.origin}/hook`, format: 'json', secret: null });
      const alert = alertOf();
      await raiseAlert(db, alert, NOW, { webhook: null, sealKey: KEY });
      let at = NOW.getTime();
      for (const delay of ALERT_RETRY_DELAYS_MS) {
        at += delay;
        await retryAlertDeliveries(db, new Date(at), { webhook: null, sealKey: KEY });
      }
      expect(broken.requests).toHaveLength(4);
      expect(await retryAlertDeliveries(db, new Date(at + 86_400_000), { webhook: null, sealKey: KEY })).toMatchObject({ tried: 0 });
      expect(broken.requests).toHaveLength(4);
      const listed = (await listAlerts(db, channelId, new Date(NOW.getTime() - 1))).find((a) => a.subject === alert.subject)!;
      expect(listed.deliveries).toEqual([{ target: 'channel', state: 'failed', tries: 4, nextTryAt: null, lastError: 'HTTP 502' }]);
      expect(listed.delivered).toBe(false);
      expect(console.error).toHaveBeenCalledWith(
        expect.stringMatching(/^\[alert\] the channel's alert webhook did not take alert \d+ \(HTTP 502\); given up after 4 tries$/),
      );
    } finally {
      await broken.close();
    }
  });

  it("sends every alert to the deployment's webhook too, and another channel's alerts not to this channel's", async () => {
    const deployment = await startFakeHttp(() => ({ status: 200, body: '' }));
    try {
      await set({ url: `${receiver.origin}/cgi-bin/webhook/send?key=wecom-robot-key-0001`, format: 'wecom', secret: null });
      await raiseAlert(db, alertOf(otherId), NOW, { webhook: { url: `${deployment.origin}/all`, format: 'json' }, sealKey: KEY });
      await raiseAlert(db, alertOf(), NOW, { webhook: { url: `${deployment.origin}/all`, format: 'json' }, sealKey: KEY });
      expect(deployment.requests).toHaveLength(2);
      expect(receiver.requests).toHaveLength(1);
      const rows = await db
        .select({ target: alertDeliveries.target })
        .from(alertDeliveries)
        .where(sql`${alertDeliveries.deliveredAt} = ${NOW.toISOString()}::timestamptz`);
      expect(rows.map((r) => r.target).sort()).toEqual(expect.arrayContaining(['channel', 'deployment']));
    } finally {
      await deployment.close();
    }
  });

  it('gives up the retries of a webhook removed since', async () => {
    const refusing = await startFakeHttp(() => ({ status: 500, body: '' }));
    try {
      await set({ url: `${refusing.origin}/hook`, format: 'json', secret: null });
      const alert = alertOf();
      await raiseAlert(db, alert, NOW, { webhook: null, sealKey: KEY });
      await removeChannelWebhook(db, channelId, trail().audit);
      expect(await retryAlertDeliveries(db, new Date(NOW.getTime() + 60_000), { webhook: null, sealKey: KEY })).toEqual({
        tried: 1,
        delivered: 0,
        givenUp: 1,
      });
      expect(refusing.requests).toHaveLength(1);
      const listed = (await listAlerts(db, channelId, new Date(NOW.getTime() - 1))).find((a) => a.subject === alert.subject)!;
      expect(listed.deliveries[0]).toMatchObject({ state: 'failed', lastError: 'the webhook was removed' });
    } finally {
      await refusing.close();
    }
  });
});

describe('where a post may go', () => {
  it('knows the addresses that reach inside', () => {
    for (const inside of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
    ])
      expect({ inside, internal: isInternalAddress(inside) }).toEqual({ inside, internal: true });
    for (const outside of ['1.1.1.1', '203.119.1.1', '172.32.0.1', '2400:3200::1', '240e::1'])
      expect({ outside, internal: isInternalAddress(outside) }).toEqual({ outside, internal: false });
  });

  it('refuses, in production, a name that resolves inside at the moment of posting, without connecting', async () => {
    const resolveInside = async () => [{ address: '169.254.169.254', family: 4 }];
    const post = guardedPost(PROD, resolveInside);
    await expect(post('https://hooks.example.com/alerts', { headers: {}, body: '{}' })).rejects.toThrow(
      new WebhookAddressError('hooks.example.com resolves to an internal address (169.254.169.254)'),
    );
    await expect(post('http://hooks.example.com/hook', { headers: {}, body: '{}' })).rejects.toThrow('http: is not allowed');
    await expect(post('https://127.0.0.1:1/hook', { headers: {}, body: '{}' })).rejects.toThrow('127.0.0.1 is an internal address');
    expect(receiver.requests).toHaveLength(0);
  });

  it('does not follow a redirect: a 3xx is a failed post', async () => {
    const mover = await startFakeHttp(() => ({ status: 302, body: '' }));
    try {
      await set({ url: `${mover.origin}/hook`, format: 'json', secret: null });
      const test = await sendTestAlert(db, { id: channelId, key: 'HOOKS' }, NOW, { sealKey: KEY, post: guardedPost(DEV) });
      expect(test).toMatchObject({ taken: false, status: 302, problem: 'HTTP 302' });
      expect(mover.requests).toHaveLength(1);
    } finally {
      await mover.close();
    }
  });
});
