import crypto from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { startFakeHttp, type FakeAnswer, type FakeRequest } from '@/test/fake-http';
import { aliyunAnswer, aliyunSignatureProblem } from '@/test/aliyun-sms';
import { tencentError, tencentSignatureProblem, tencentStatus } from '@/test/tencent-sms';
import { channels, orderRefunds, smsOutbox } from '@/lib/db/schema';
import { createOrder, getOrder } from '@/lib/order/service';
import type { UserScope } from '@/lib/procedure/scope';
import { aliyunSmsProvider } from '@/lib/auth/sms-aliyun';
import { tencentSmsProvider } from '@/lib/auth/sms-tencent';
import { outboxProvider } from '@/lib/auth/sms';
import { OUTBOX_LIMITS, outboxSender, queueTexts, sendDueTexts, sendText, type OutboxSender } from '@/lib/auth/sms-outbox';
import type { Env } from '@/lib/env';
import { AUTH_LIMITS } from '@/lib/auth/limits';
import { hit } from '@/lib/rate-limit/rate-limit';
import { runJobsOnce } from '@/lib/jobs/runner';
import { sandboxProvider } from './sandbox';
import { applyNotification, startPayment } from './service';
import { refundOrder } from './refund';

// The refund's text through the real carriers (issue 32: a refunded buyer "gets a text"): queued in the refund's
// transaction, sent after commit through the carrier's approved refund template, kept in the outbox when the carrier
// fails and retried by the jobs' pass, counted against the channel's SMS budget. Against local fakes of Alibaba Cloud
// and Tencent Cloud SMS that check our signatures; the outbox's states on PGlite and, with DATABASE_URL, PostgreSQL.

const t0 = new Date('2026-12-03T08:00:00Z');
const SECRET = 'test-payment-secret-0123456789abcdef';
const db = seededTestDb(t0);
let seq = 0;

const ALIYUN = { accessKeyId: `LTAI${crypto.randomBytes(8).toString('hex')}`, accessKeySecret: crypto.randomBytes(24).toString('base64') };
const TENCENT = { secretId: `AKID${crypto.randomBytes(12).toString('hex')}`, secretKey: crypto.randomBytes(16).toString('hex') };
const REFUND_TEMPLATE = 'SMS_465090002';
const TENCENT_REFUND_TEMPLATE = '1111';

let aliyunNext: FakeAnswer = aliyunAnswer('OK', 'OK');
let tencentNext: FakeAnswer = tencentStatus('Ok', 'send success');
let aliyunFake: Awaited<ReturnType<typeof startFakeHttp>>;
let tencentFake: Awaited<ReturnType<typeof startFakeHttp>>;

beforeAll(async () => {
  aliyunFake = await startFakeHttp((request: FakeRequest) => {
    const problem = aliyunSignatureProblem(request, ALIYUN);
    if (problem) return aliyunAnswer('SignatureDoesNotMatch', problem, 400);
    return aliyunNext;
  });
  tencentFake = await startFakeHttp((request: FakeRequest) => {
    const problem = tencentSignatureProblem(request, TENCENT);
    if (problem) return tencentError('AuthFailure.SignatureFailure', problem);
    return tencentNext;
  });
});
afterAll(async () => {
  await aliyunFake.close();
  await tencentFake.close();
});

let logs: jest.SpyInstance[] = [];
beforeEach(() => {
  aliyunNext = aliyunAnswer('OK', 'OK');
  tencentNext = tencentStatus('Ok', 'send success');
  aliyunFake.requests.length = 0;
  tencentFake.requests.length = 0;
  logs = (['error', 'warn', 'info'] as const).map((level) => jest.spyOn(console, level).mockImplementation(() => {}));
});
afterEach(() => logs.forEach((log) => log.mockRestore()));
const logged = () => logs.flatMap((log) => log.mock.calls.map((call) => String(call[0]))).join('\n');

const aliyun = (): OutboxSender => ({
  provider: aliyunSmsProvider({ ...ALIYUN, signName: '极光数藏', templateId: 'SMS_465090001', endpoint: aliyunFake.origin }),
  signName: '极光数藏',
  templates: { refund: { id: REFUND_TEMPLATE, setting: 'SMS_ALIYUN_REFUND_TEMPLATE' }, lottery: null },
});
const tencent = (): OutboxSender => ({
  provider: tencentSmsProvider({
    ...TENCENT,
    sdkAppId: '1400006666',
    region: 'ap-guangzhou',
    signName: '极光数藏',
    templateId: '1110',
    endpoint: tencentFake.origin,
  }),
  signName: '极光数藏',
  templates: { refund: { id: TENCENT_REFUND_TEMPLATE, setting: 'SMS_TENCENT_REFUND_TEMPLATE_ID' }, lottery: null },
});

const sandbox = () => sandboxProvider(db, SECRET);

/** A buyer's paid order of one copy at 12,345 fen on AURORA. */
async function paidOrder() {
  const n = ++seq;
  const sale = await makeSale(db, { code: `refund-text-${n}`, amount: 10, limitPerUser: 5, price: 12345, now: t0 });
  const [buyer] = await makeUsers(db, 1, String(7100 + n));
  const ctx: UserScope = { db, now: t0, channelId: sale.channelId, userId: buyer! };
  const order = await createOrder(ctx, { saleId: sale.saleId, quantity: 1, idempotencyKey: `rt-${n}` }, 5 * 60_000);
  const payment = await startPayment({ ...ctx, channelKey: 'AURORA', provider: sandbox() }, order.orderNo);
  const settled = await sandbox().settle({ paymentNo: payment.paymentNo, amount: payment.amount, outcome: 'paid', now: t0 });
  const tradeNo = (JSON.parse(settled.body) as { tradeNo: string }).tradeNo;
  await applyNotification(
    db,
    sandbox(),
    { paymentNo: payment.paymentNo, providerTradeNo: tradeNo, amount: payment.amount, paid: true },
    t0,
  );
  return { ctx, order: await getOrder(ctx, order.orderNo) };
}

/** Refunds the order whole, with `texts` sending the buyer's text after commit; answers the refund and its text row. */
async function refund(texts: OutboxSender | undefined, now = t0) {
  const o = await paidOrder();
  const made = await refundOrder(
    db,
    {
      channelId: o.ctx.channelId,
      orderNo: o.order.orderNo,
      holdingIds: 'all',
      reason: 'price typo',
      idempotencyKey: `k-${seq}`,
      operatorId: null,
      now,
    },
    { providers: sandbox(), ...(texts ? { texts } : {}) },
  );
  const [text] = await db.select().from(smsOutbox).where(eq(smsOutbox.kind, 'refund')).orderBy(desc(smsOutbox.id)).limit(1);
  return { ...o, made, text: text! };
}

const rowOf = async (id: number) => (await db.select().from(smsOutbox).where(eq(smsOutbox.id, id)))[0]!;

describe("the refund's text through a real carrier (issue 32)", () => {
  it("goes out through Alibaba Cloud's refund template after commit: the order's last 6 characters and the amount in yuan", async () => {
    const { order, made, text } = await refund(aliyun());
    expect(made.refund.status).toBe('done');
    expect(aliyunFake.requests).toHaveLength(1);
    const form = Object.fromEntries(new URLSearchParams(aliyunFake.requests[0]!.body));
    expect(form).toEqual({
      PhoneNumbers: text.phone,
      SignName: '极光数藏',
      TemplateCode: REFUND_TEMPLATE,
      TemplateParam: JSON.stringify({ order: order.orderNo.slice(-6), amount: '123.45' }),
    });
    expect(await rowOf(text.id)).toMatchObject({ status: 'sent', attempts: 1, sentAt: t0, lastError: null });
    // The outbox keeps the same message in the channel's language, as the demo shows it, and the parameters in the
    // template's order (Tencent Cloud numbers them).
    expect(text.text).toContain(order.orderNo);
    expect(text.params).toEqual([
      ['order', order.orderNo.slice(-6)],
      ['amount', '123.45'],
    ]);
  });

  it("goes out through Tencent Cloud's refund template, its parameters in the template's order, with the channel's own sign name", async () => {
    const channelId = (await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'AURORA')))[0]!.id;
    await db.update(channels).set({ smsSignName: 'Aurora' }).where(eq(channels.id, channelId));
    try {
      const { order, text } = await refund(tencent());
      expect(tencentFake.requests).toHaveLength(1);
      expect(JSON.parse(tencentFake.requests[0]!.body)).toEqual({
        PhoneNumberSet: [`+86${text.phone}`],
        SmsSdkAppId: '1400006666',
        SignName: 'Aurora',
        TemplateId: TENCENT_REFUND_TEMPLATE,
        TemplateParamSet: [order.orderNo.slice(-6), '123.45'],
      });
      expect((await rowOf(text.id)).status).toBe('sent');
    } finally {
      await db.update(channels).set({ smsSignName: null }).where(eq(channels.id, channelId));
    }
  });

  it('keeps the text when the carrier refuses, never failing the refund; the jobs pass sends it once due', async () => {
    aliyunNext = aliyunAnswer('isv.AMOUNT_NOT_ENOUGH', '账户余额不足');
    const { made, text } = await refund(aliyun());
    // The refund is made and its money back; only the text waits.
    expect(made.refund.status).toBe('done');
    expect((await db.select().from(orderRefunds).where(eq(orderRefunds.refundNo, made.refund.refundNo)))[0]!.status).toBe('done');
    expect(await rowOf(text.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'isv.AMOUNT_NOT_ENOUGH: balance',
      nextAttemptAt: new Date(t0.getTime() + OUTBOX_LIMITS.firstRetryMs),
    });
    expect(logged()).toMatch(/isv\.AMOUNT_NOT_ENOUGH .*no balance/);

    // A pass before its time leaves it alone; the carrier is topped up; the pass after it sends it.
    aliyunNext = aliyunAnswer('OK', 'OK');
    await runJobsOnce(db, new Date(t0.getTime() + 30_000), { providers: sandbox(), texts: aliyun() });
    expect(aliyunFake.requests).toHaveLength(1);
    const pass = await runJobsOnce(db, new Date(t0.getTime() + OUTBOX_LIMITS.firstRetryMs), {
      providers: sandbox(),
      texts: aliyun(),
    });
    expect(pass.texts.sent).toBe(1);
    expect(aliyunFake.requests).toHaveLength(2);
    expect(await rowOf(text.id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });

  it('gives a text up after its last try, and at once for a number the carrier refuses, each with an [alert]', async () => {
    tencentNext = tencentError('FailedOperation.InsufficientBalanceInSmsPackage', 'package used up');
    const { text } = await refund(tencent());
    let now = t0.getTime();
    for (let attempt = 2; attempt <= OUTBOX_LIMITS.maxAttempts; attempt++) {
      now = (await rowOf(text.id)).nextAttemptAt!.getTime();
      await sendText(db, tencent(), text.id, new Date(now));
    }
    expect(tencentFake.requests).toHaveLength(OUTBOX_LIMITS.maxAttempts);
    expect(await rowOf(text.id)).toMatchObject({ status: 'failed', attempts: OUTBOX_LIMITS.maxAttempts, nextAttemptAt: null });
    expect(logged()).toMatch(
      new RegExp(`\\[alert\\] \\[sms outbox\\] refund text ${text.id} to channel \\d+, 1\\d\\d\\*\\*\\*\\*\\d{4} given up after 8 tries`),
    );
    // Nothing is tried again.
    await sendDueTexts(db, tencent(), new Date(now + 24 * 3600_000));
    expect(tencentFake.requests).toHaveLength(OUTBOX_LIMITS.maxAttempts);

    aliyunNext = aliyunAnswer('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号');
    const refused = await refund(aliyun());
    expect(await rowOf(refused.text.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'isv.MOBILE_NUMBER_ILLEGAL: phoneRefused',
    });
  });

  it('sends a text once when the request and a jobs pass reach it at the same moment', async () => {
    const { text } = await refund(undefined);
    expect((await rowOf(text.id)).status).toBe('pending');
    const outcomes = await Promise.all([sendText(db, aliyun(), text.id, t0), sendText(db, aliyun(), text.id, t0)]);
    expect(outcomes.sort()).toEqual(['notDue', 'sent']);
    expect(aliyunFake.requests).toHaveLength(1);
  });

  it("counts against the channel's hourly SMS budget: spent, the text waits for the next hour with the budget's alert", async () => {
    const { text, ctx } = await refund(undefined);
    const bucket = { bucket: `sms:channel:${ctx.channelId}`, max: AUTH_LIMITS.channelPerHour, windowMs: 3600_000 };
    const used = (await hit(db, bucket, t0, 0)).count;
    expect(await sendText(db, aliyun(), text.id, t0)).toBe('sent');
    // The text took one of the hour's texts, as a login code does.
    expect((await hit(db, bucket, t0, 0)).count).toBe(used + 1);

    const next = await refund(undefined);
    await hit(db, bucket, t0, AUTH_LIMITS.channelPerHour);
    expect(await sendText(db, aliyun(), next.text.id, t0)).toBe('deferred');
    expect(aliyunFake.requests).toHaveLength(1);
    const hourEnd = new Date(Math.floor(t0.getTime() / 3600_000) * 3600_000 + 3600_000);
    expect(await rowOf(next.text.id)).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: hourEnd });
    expect(logged()).toMatch(/\[alert\] channel \d+ used its SMS budget of 2000 texts this hour; refund texts wait until/);
    // The next hour it goes.
    expect(await sendText(db, aliyun(), next.text.id, hourEnd)).toBe('sent');
  });

  it('keeps the text and sends nothing with the demo outbox, and with a carrier that has no refund template ([alert])', async () => {
    const demo = await refund({ provider: outboxProvider, signName: null, templates: { refund: null, lottery: null } });
    expect(await rowOf(demo.text.id)).toMatchObject({ status: 'kept', attempts: 0 });
    expect(logged()).toMatch(/\[sms outbox\] to channel \d+, 1\d\d\*\*\*\*\d{4}: /);

    const untemplated = await refund({ ...aliyun(), templates: { refund: null, lottery: null } });
    expect(await rowOf(untemplated.text.id)).toMatchObject({ status: 'kept', lastError: 'no template for this kind of text' });
    expect(logged()).toMatch(
      /\[alert\] \[sms outbox\] refund text to channel \d+, .* kept, not sent: set SMS_ALIYUN_REFUND_TEMPLATE to send it/,
    );
    expect(aliyunFake.requests).toHaveLength(0);
  });
});

describe("the lottery's text through a real carrier (issue 35)", () => {
  const LOTTERY_TEMPLATE = 'SMS_465090003';
  const lotterySender = (): OutboxSender => ({
    ...aliyun(),
    templates: { refund: null, lottery: { id: LOTTERY_TEMPLATE, setting: 'SMS_ALIYUN_LOTTERY_TEMPLATE' } },
  });
  // Two hours on: the budget test above spent the channel's hour.
  const later = new Date(t0.getTime() + 2 * 3_600_000);
  const queued = async () => {
    const channelId = (await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'AURORA')))[0]!.id;
    const params: [string, string][] = [
      ['goods', '星河漫游者'],
      ['until', '12-01 21:00'],
    ];
    await queueTexts(
      db,
      [{ channelId, phone: '13912345678', text: '恭喜您抽中星河漫游者！请于12-01 21:00前在商城完成购买。', params }],
      'lottery',
      t0,
    );
    const [row] = await db.select().from(smsOutbox).where(eq(smsOutbox.kind, 'lottery')).orderBy(desc(smsOutbox.id)).limit(1);
    return row!;
  };

  it("goes out through Alibaba Cloud's lottery template with the goods and the end of the buyer's turn", async () => {
    const row = await queued();
    expect(await sendText(db, lotterySender(), row.id, later)).toBe('sent');
    expect(Object.fromEntries(new URLSearchParams(aliyunFake.requests[0]!.body))).toEqual({
      PhoneNumbers: '13912345678',
      SignName: '极光数藏',
      TemplateCode: LOTTERY_TEMPLATE,
      TemplateParam: JSON.stringify({ goods: '星河漫游者', until: '12-01 21:00' }),
    });
  });

  it('is kept with an alert naming the setting when the carrier has no lottery template', async () => {
    const row = await queued();
    expect(await sendText(db, aliyun(), row.id, later)).toBe('kept');
    expect(logged()).toMatch(
      /\[alert\] \[sms outbox\] lottery text to channel \d+, .* kept, not sent: set SMS_ALIYUN_LOTTERY_TEMPLATE to send it/,
    );
    expect(aliyunFake.requests).toHaveLength(0);
  });

  it("takes the template from the carrier's setting", () => {
    const e = {
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: ALIYUN.accessKeyId,
      ALIYUN_SMS_ACCESS_KEY_SECRET: ALIYUN.accessKeySecret,
      SMS_SIGN_NAME: '极光数藏',
      SMS_TEMPLATE_ID: 'SMS_465090001',
      ALIYUN_SMS_ENDPOINT: aliyunFake.origin,
      SMS_ALIYUN_LOTTERY_TEMPLATE: LOTTERY_TEMPLATE,
    } as unknown as Env;
    expect(outboxSender(e).templates.lottery).toEqual({ id: LOTTERY_TEMPLATE, setting: 'SMS_ALIYUN_LOTTERY_TEMPLATE' });
    expect(outboxSender({ ...e, SMS_ALIYUN_LOTTERY_TEMPLATE: undefined }).templates.lottery).toBeNull();
  });
});
