import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { makeSale, makeUsers } from '@/test/buying';
import { createSession } from '@/lib/auth/sessions';
import { channels, holdings, payments } from '@/lib/db/schema';
import { APPID, makeWechatKeys, startFakeWechatPay, wechatEnv, wechatNotification, type FakeWechatPay } from '@/test/wechatpay';
import { POST } from '@/app/api/pay/notify/[provider]/route';
import { PAYMENT_STATUS } from './service';
import { runJobsOnce } from '@/lib/jobs/runner';
import { USER_AGENTS } from '@/test/user-agents';
import { GET as oauthGET } from '@/app/api/pay/wechat/oauth/route';
import { signedOpenid } from './wechat-oauth';
import { env } from '@/lib/env';

// Making RSA keys blocks the event loop for a second or more: the buy call's shedding would read it as overload.
process.env.BUY_MAX_LAG_MS = '60000';

// WeChat Pay through the storefront: pay/create chooses a provider the channel offers that fits the buyer's browser,
// and WeChat Pay's notifications arrive at the HTTP route (POST /api/pay/notify/wechatpay) and are applied once.

const mockDbRef: { db?: Db } = {};
jest.mock('@/lib/db/client', () => ({ ...jest.requireActual('@/lib/db/client'), getDb: () => mockDbRef.db }));

const keys = makeWechatKeys();
let fake: FakeWechatPay;
// Before the database and the first env(): the deployment runs the sandbox and WeChat Pay, against the local fake.
beforeAll(async () => {
  fake = await startFakeWechatPay(keys);
  Object.assign(process.env, { PAYMENT_PROVIDERS: 'sandbox,wechatpay', ...wechatEnv(keys, fake.url) });
});
afterAll(() => fake.close());

// Real time: WeChat Pay's notifications are checked against the clock, and the route reads it.
const now = new Date();
const db = seededTestDb(now);
beforeAll(async () => {
  mockDbRef.db = db;
  await db
    .update(channels)
    .set({ paymentProviders: ['wechatpay', 'sandbox'] })
    .where(eq(channels.key, 'AURORA'));
  // LUMEN, the demo's real-name store (issue 33), stands here for a channel that does not offer WeChat Pay; its buyers
  // are not what this file is about.
  await db.update(channels).set({ identityPolicy: {} }).where(eq(channels.key, 'LUMEN'));
});

const { phone: PHONE, wechat: WECHAT, desktop: DESKTOP, miniProgram: MINI } = USER_AGENTS;

/** The openid cookie's value as /api/pay/wechat/oauth signs it for a channel. */
function openidCookie(openid: string, channelKey = 'AURORA') {
  return signedOpenid({ secret: env().PAYMENT_SECRET, appid: APPID, channelKey }, openid, now);
}

let seq = 0;
/** A buyer of `channelKey` with an unpaid order of `quantity` on a fresh sale. */
async function buyerWithOrder(quantity = 1, channelKey = 'AURORA') {
  seq++;
  const sale = await makeSale(db, { channelKey, code: `wx-${seq}`, amount: 10, limitPerUser: 5, price: 19900, now });
  const [userId] = await makeUsers(db, 1, String(4100 + seq));
  const token = (await createSession(db, { userId: userId!, channelId: sale.channelId, now, ip: null })).token;
  const host = `${channelKey.toLowerCase()}.localhost:3000`;
  const call = (path: string, body: unknown, headers: Record<string, string> = { 'user-agent': PHONE }) =>
    apiCall(db, path, body, { token, host, headers, now });
  const order = await call('/market/api/order/create', { saleId: String(sale.saleId), quantity, idempotencyKey: `wx-key-${seq}` });
  expect(order.code).toBe(200);
  return { sale, call, orderNo: (order.data as { orderNo: string }).orderNo };
}

function notifyRequest(n: { body: string; headers: Record<string, string> }, provider = 'wechatpay') {
  return POST(new Request(`http://aurora.localhost/api/pay/notify/${provider}`, { method: 'POST', body: n.body, headers: n.headers }), {
    params: Promise.resolve({ provider }),
  });
}

/** The transaction WeChat Pay reports once the buyer paid `paymentNo` at its cashier. */
function paidAtWechat(paymentNo: string, over: Record<string, unknown> = {}) {
  return { ...fake.pay(paymentNo), ...over };
}

describe('pay/create: the provider', () => {
  it("asks which provider when several fit the buyer's browser, and opens WeChat Pay H5 in a phone browser", async () => {
    const { call, orderNo } = await buyerWithOrder();
    const unchosen = await call('/market/api/pay/create', { orderNo });
    expect(unchosen).toMatchObject({ code: 400, data: { reason: 'provider', offered: ['wechatpay', 'sandbox'] } });
    expect(unchosen.message).toBe('Please choose how to pay: wechatpay, sandbox.');
    const started = await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' });
    expect(started.code).toBe(200);
    const data = started.data as { provider: string; payUrl: string; paymentNo: string };
    expect(data.provider).toBe('wechatpay');
    const payUrl = new URL(data.payUrl);
    expect(payUrl.origin).toBe('https://wx.tenpay.com');
    expect(payUrl.searchParams.get('redirect_url')).toBe(`http://aurora.localhost:3000/pay/success?orderNo=${orderNo}`);
    expect(fake.transactions.get(data.paymentNo)).toMatchObject({ amount: { total: 19900 } });
    // "Continue paying" (no provider asked) keeps the order's provider while it fits the browser.
    expect((await call('/market/api/pay/create', { orderNo })).data).toMatchObject({ provider: 'wechatpay' });
    const desktop = await call('/market/api/pay/create', { orderNo }, { 'user-agent': DESKTOP });
    expect(desktop.data).toMatchObject({ provider: 'sandbox' });
  });

  it('refuses a provider the channel does not offer, an unknown one, and one that does not fit the browser, naming the field', async () => {
    const lumen = await buyerWithOrder(1, 'LUMEN');
    const notOffered = await lumen.call('/market/api/pay/create', { orderNo: lumen.orderNo, provider: 'wechatpay' });
    expect(notOffered).toMatchObject({
      code: 400,
      message: 'Paying with wechatpay is not offered by this store. Choose one of: sandbox.',
      data: { field: 'provider', reason: 'provider' },
    });
    // The only provider that fits needs no choice.
    expect((await lumen.call('/market/api/pay/create', { orderNo: lumen.orderNo })).data).toMatchObject({ provider: 'sandbox' });

    const { call, orderNo } = await buyerWithOrder();
    const unknown = await call('/market/api/pay/create', { orderNo, provider: 'cash' });
    expect(unknown.code).toBe(400);
    expect(unknown.message).toMatch(/^provider: /);
    const desktop = await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' }, { 'user-agent': DESKTOP });
    expect(desktop).toMatchObject({
      code: 400,
      message: 'Paying with wechatpay does not work in this browser (desktop). Choose one of: sandbox.',
    });
    const mini = await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' }, { 'user-agent': MINI });
    expect(mini.message).toMatch(/^Paying with wechatpay does not work in this browser \(mini-program\)/);
    // On a computer only the sandbox fits: no choice needed.
    expect((await call('/market/api/pay/create', { orderNo }, { 'user-agent': DESKTOP })).data).toMatchObject({ provider: 'sandbox' });
  });

  it("inside WeChat opens JSAPI for the buyer's openid, and asks for the openid first when it is unknown", async () => {
    const { call, orderNo } = await buyerWithOrder();
    const noOpenid = await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' }, { 'user-agent': WECHAT });
    expect(noOpenid).toMatchObject({ code: 400, data: { reason: 'openid' } });
    expect(noOpenid.message).toMatch(/^Paying with WeChat Pay inside WeChat needs your WeChat identity first/);
    const started = await call(
      '/market/api/pay/create',
      { orderNo, provider: 'wechatpay' },
      { 'user-agent': WECHAT, cookie: `wxpay_openid=${openidCookie('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o')}` },
    );
    expect(started.code).toBe(200);
    const data = started.data as { payUrl: string; paymentNo: string; jsapi: { package: string; signType: string } };
    expect(data.jsapi).toMatchObject({ package: `prepay_id=wx${data.paymentNo}`, signType: 'RSA' });
    expect(data.payUrl).toBe(`http://aurora.localhost:3000/pay/success?orderNo=${orderNo}`);
    expect(fake.transactions.get(data.paymentNo)?.payer).toEqual({ openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' });
  });

  it("pays only as the identity this host's own signed cookie names: an unsigned, edited, sibling host's or malformed one is none (issue 29)", async () => {
    const { call, orderNo } = await buyerWithOrder();
    const openid = 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o';
    const inWechat = (cookie: string, https = false) =>
      call(
        '/market/api/pay/create',
        { orderNo, provider: 'wechatpay' },
        { 'user-agent': WECHAT, cookie, ...(https ? { 'x-forwarded-proto': 'https' } : {}) },
      );
    const prepays = () => fake.calls().prepay;
    const before = prepays();
    const refused = [
      // Before issue 29 the bare openid was believed: anyone could name the identity sent to WeChat.
      { cookie: `wxpay_openid=${openid}` },
      { cookie: `wxpay_openid=oAttacker${openidCookie(openid).slice(openid.length)}` },
      { cookie: `wxpay_openid=${openidCookie(openid, 'LUMEN')}` },
      { cookie: 'wxpay_openid=%E0%A4%A' },
      { cookie: 'wxpay_openid=%' },
      { cookie: `wxpay_openid=${openidCookie(openid)}`, https: true },
    ];
    for (const { cookie, https } of refused) {
      const answer = await inWechat(cookie, https);
      expect({ cookie, https, status: answer.status, code: answer.code, reason: (answer.data as { reason?: string }).reason }).toEqual({
        cookie,
        https,
        status: 200,
        code: 400,
        reason: 'openid',
      });
    }
    expect(prepays()).toBe(before);
    // Over HTTPS only `__Host-wxpay_openid` counts: a sibling host's `wxpay_openid` for the whole site beside it is ignored.
    const secure = await inWechat(
      `wxpay_openid=${openidCookie('oSiblingChose0000000000000')}; __Host-wxpay_openid=${openidCookie(openid)}`,
      true,
    );
    expect(secure.code).toBe(200);
    expect(fake.transactions.get((secure.data as { paymentNo: string }).paymentNo)?.payer).toEqual({ openid });
  });

  it('answers a malformed WeChat cookie on the OAuth route with 400 and the security headers, never a 500', async () => {
    const oauth = (cookie: string, https = false) =>
      oauthGET(
        new Request('http://aurora.localhost:3000/api/pay/wechat/oauth?code=good-code&state=0123456789abcdef0123456789abcdef', {
          headers: { host: 'aurora.localhost:3000', cookie, ...(https ? { 'x-forwarded-proto': 'https' } : {}) },
        }),
      );
    for (const [cookie, https] of [
      ['wxpay_oauth=0123456789abcdef0123456789abcdef.%E0%A4%A', false],
      ['__Host-wxpay_oauth=0123456789abcdef0123456789abcdef.%', true],
      ['wxpay_oauth=0123456789abcdef0123456789abcdef.%2Fpay', true],
    ] as const) {
      const answer = await oauth(cookie, https);
      expect({ cookie, status: answer.status }).toEqual({ cookie, status: 400 });
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('strict-transport-security') !== null).toBe(https);
    }
    // The start of the round over HTTPS sets the `__Host-` state cookie.
    const start = await oauthGET(
      new Request('http://aurora.localhost:3000/api/pay/wechat/oauth?return=%2Fpay%2F1', {
        headers: { host: 'aurora.localhost:3000', 'x-forwarded-proto': 'https' },
      }),
    );
    expect(start.headers.get('set-cookie')).toMatch(/^__Host-wxpay_oauth=[0-9a-f]{32}\./);
  });

  it("answers WeChat Pay's refusals as a clear busy or refused answer, never a 500, and closes the payment", async () => {
    const { call, orderNo } = await buyerWithOrder();
    fake.failNext(429, 'FREQUENCY_LIMITED', '频率超限');
    const busy = await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' });
    expect(busy).toMatchObject({ status: 200, code: 1001, data: { reason: 'provider', providerCode: 'FREQUENCY_LIMITED' } });
    expect(busy.message).toMatch(/^The payment service \(wechatpay\) is busy or cannot be reached right now \(FREQUENCY_LIMITED\)/);
    fake.failNext(401, 'SIGN_ERROR', '签名错误');
    const refused = await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' });
    expect(refused).toMatchObject({ status: 200, code: 409, data: { providerCode: 'SIGN_ERROR' } });
    fake.failNext(503);
    expect(await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' })).toMatchObject({ code: 1001 });
    const rows = await db.select({ status: payments.status }).from(payments).where(eq(payments.provider, 'wechatpay')).orderBy(payments.id);
    expect(rows.slice(-3).map((r) => r.status)).toEqual([PAYMENT_STATUS.failed, PAYMENT_STATUS.failed, PAYMENT_STATUS.failed]);
    // And the next try goes through.
    expect(await call('/market/api/pay/create', { orderNo, provider: 'wechatpay' })).toMatchObject({ code: 200 });
  });
});

describe('POST /api/pay/notify/wechatpay', () => {
  async function openWechatPayment(quantity = 1) {
    const buyer = await buyerWithOrder(quantity);
    const started = await buyer.call('/market/api/pay/create', { orderNo: buyer.orderNo, provider: 'wechatpay' });
    return { ...buyer, payment: started.data as { paymentNo: string; amount: number } };
  }

  it('pays once and mints once when the genuine notification arrives 20 times at once, answering 204 with no body each time', async () => {
    const { sale, call, orderNo, payment } = await openWechatPayment(2);
    const n = wechatNotification(keys, paidAtWechat(payment.paymentNo));
    const answers = await Promise.all(Array.from({ length: 20 }, () => notifyRequest(n)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(204));
    expect(await Promise.all(answers.map((a) => a.text()))).toEqual(Array(20).fill(''));
    expect(await db.select().from(holdings).where(eq(holdings.commodityId, sale.commodityId))).toHaveLength(2);
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(row).toMatchObject({ status: PAYMENT_STATUS.paid, notifications: 20, providerTradeNo: `4200${payment.paymentNo.slice(1)}` });
    const order = await call('/market/api/order/detail', { orderNo });
    expect(order.data).toMatchObject({ statusTrade: 1 });
  });

  it('refuses a tampered signature, a wrong amount, another merchant and an old notification replayed, with FAIL and nothing changed', async () => {
    const { sale, payment } = await openWechatPayment();
    const genuine = wechatNotification(keys, paidAtWechat(payment.paymentNo));
    const cases = [
      {
        ...genuine,
        headers: {
          ...genuine.headers,
          'wechatpay-signature': genuine.headers['wechatpay-signature']!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        },
      },
      wechatNotification(keys, paidAtWechat(payment.paymentNo, { amount: { total: 1, currency: 'CNY' } })),
      wechatNotification(keys, paidAtWechat(payment.paymentNo, { mchid: '1900000110' })),
      wechatNotification(keys, paidAtWechat(payment.paymentNo), { now: new Date(Date.now() - 10 * 60_000) }),
    ];
    const answers = await Promise.all(cases.map((n) => notifyRequest(n)));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as { code: string; message: string }[];
    expect(bodies.every((b) => b.code === 'FAIL')).toBe(true);
    expect(bodies.map((b) => b.message)).toEqual([
      expect.stringMatching(/^Wechatpay-Signature: does not match/),
      expect.stringMatching(/^amount: 1 does not match the payment's 19900/),
      expect.stringMatching(/^resource\.mchid: 1900000110 is not our merchant/),
      expect.stringMatching(/^Wechatpay-Timestamp: is more than 5 minutes/),
    ]);
    expect(bodies.every((b) => b.message.length <= 64)).toBe(true);
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(row).toMatchObject({ status: PAYMENT_STATUS.created, notifications: 0 });
    expect(await db.select().from(holdings).where(eq(holdings.commodityId, sale.commodityId))).toHaveLength(0);
    // A sandbox-signed body at WeChat Pay's address is not WeChat Pay's either; an unknown provider is 404.
    expect((await notifyRequest({ body: '{}', headers: { 'x-sandbox-signature': '0'.repeat(64) } })).status).toBe(400);
    expect((await notifyRequest(genuine, 'paypal')).status).toBe(404);
  });

  it('settles through WeChat Pay when the notification never came: the result page asks it, and the late money is refunded once', async () => {
    const { call, orderNo, payment } = await openWechatPayment();
    paidAtWechat(payment.paymentNo);
    const view = await call('/market/api/pay/query', { orderNo });
    expect(view.data).toMatchObject({ statusTrade: 1 });

    // Paid at WeChat after the order expired: the job finds it, closes the order and refunds through WeChat Pay.
    const late = await openWechatPayment();
    paidAtWechat(late.payment.paymentNo);
    const afterExpiry = new Date(now.getTime() + 6 * 60_000);
    await runJobsOnce(db, afterExpiry);
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, late.payment.paymentNo));
    expect(row!.status).toBe(PAYMENT_STATUS.refunded);
    expect([...fake.refunds.entries()].filter(([, r]) => r.out_trade_no === late.payment.paymentNo)).toEqual([
      [`R${late.payment.paymentNo.slice(1)}`, { out_trade_no: late.payment.paymentNo, amount: 19900, status: 'SUCCESS' }],
    ]);
    // Its notification, delivered late as well, is a repeat: accepted, nothing moves, nothing refunded twice.
    const n = wechatNotification(keys, fake.transactions.get(late.payment.paymentNo)!);
    expect((await notifyRequest(n)).status).toBe(204);
    await runJobsOnce(db, new Date(afterExpiry.getTime() + 120_000));
    const refundCalls = fake.requests.filter((r) => r.url === '/v3/refund/domestic/refunds' && r.body.includes(late.payment.paymentNo));
    expect(refundCalls).toHaveLength(1);
    expect((await db.select().from(payments).where(eq(payments.paymentNo, late.payment.paymentNo)))[0]!.status).toBe(
      PAYMENT_STATUS.refunded,
    );
  });
});
