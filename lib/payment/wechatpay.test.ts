import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, verify } from 'node:crypto';
import {
  APIV3_KEY,
  APPID,
  makeWechatKeys,
  MCHID,
  NOTIFY_URL,
  startFakeWechatPay,
  wechatConfig,
  wechatNotification,
  type FakeTransaction,
  type FakeWechatPay,
} from '@/test/wechatpay';
import { PaymentProviderError, NotificationError, type PaymentRequest } from './provider';
import { refundNoOf, wechatPayProvider } from './wechatpay';

// WeChat Pay API v3 against a local fake of its API: signed requests, signed answers, vendor errors as refusals,
// notifications verified (signature, freshness, key, merchant, app) and decrypted.

const keys = makeWechatKeys();
let fake: FakeWechatPay;
beforeAll(async () => {
  fake = await startFakeWechatPay(keys);
});
afterAll(() => fake.close());

const provider = (overrides: Partial<ReturnType<typeof wechatConfig>> = {}) =>
  wechatPayProvider({ ...wechatConfig(keys, fake.url), ...overrides });

let seq = 0;
function request(client: PaymentRequest['client'], extra: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    paymentNo: `P17639990000000000${String(++seq).padStart(3, '0')}`,
    amount: 19900,
    subject: 'Aurora Dawn #1',
    channelKey: 'AURORA',
    client,
    clientIp: '203.0.113.7',
    returnUrl: 'https://aurora.shop.example/pay/success?orderNo=2026112200000000000001',
    expiresAt: new Date('2026-11-22T08:05:00Z'),
    ...extra,
  };
}

function lastRequest() {
  const last = fake.requests[fake.requests.length - 1]!;
  return { ...last, json: last.body ? (JSON.parse(last.body) as Record<string, unknown>) : null };
}

async function refusal(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

describe('WeChat Pay: opening a payment', () => {
  it('opens an H5 payment in a phone browser with a signed request, and sends the buyer back to the result page', async () => {
    const req = request('mobile');
    const started = await provider().start(req);
    const sent = lastRequest();
    expect(sent).toMatchObject({ method: 'POST', url: '/v3/pay/transactions/h5', signatureValid: true });
    expect(sent.json).toMatchObject({
      appid: APPID,
      mchid: MCHID,
      out_trade_no: req.paymentNo,
      notify_url: NOTIFY_URL,
      description: 'Aurora Dawn #1',
      time_expire: '2026-11-22T16:05:00+08:00',
      amount: { total: 19900, currency: 'CNY' },
      scene_info: { payer_client_ip: '203.0.113.7', h5_info: { type: 'Wap' } },
    });
    const url = new URL(started.payUrl);
    expect(url.origin).toBe('https://wx.tenpay.com');
    expect(url.searchParams.get('prepay_id')).toBe(`wx${req.paymentNo}`);
    expect(url.searchParams.get('redirect_url')).toBe(req.returnUrl);
    expect(started.jsapi).toBeUndefined();
  });

  it("opens a JSAPI payment inside WeChat for the buyer's openid, with a paySign made by the merchant key", async () => {
    const req = request('wechat', { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' });
    const started = await provider().start(req);
    expect(lastRequest()).toMatchObject({ url: '/v3/pay/transactions/jsapi', signatureValid: true });
    expect(lastRequest().json).toMatchObject({ payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' }, amount: { total: 19900 } });
    const sheet = started.jsapi!;
    expect(sheet).toMatchObject({ appId: APPID, package: `prepay_id=wx${req.paymentNo}`, signType: 'RSA' });
    expect(sheet.timeStamp).toMatch(/^\d{10}$/);
    const message = `${sheet.appId}\n${sheet.timeStamp}\n${sheet.nonceStr}\n${sheet.package}\n`;
    expect(verify('RSA-SHA256', Buffer.from(message), keys.merchant.publicKey, Buffer.from(sheet.paySign, 'base64'))).toBe(true);
    expect(started.payUrl).toBe(req.returnUrl);
  });

  it('refuses JSAPI without an openid, and a computer or a mini-program web view, before calling WeChat', async () => {
    const before = fake.requests.length;
    expect((await refusal(provider().start(request('wechat')))).providerCode).toBe('NO_OPENID');
    expect((await refusal(provider().start(request('desktop')))).providerCode).toBe('CLIENT');
    expect((await refusal(provider().start(request('mini-program')))).providerCode).toBe('CLIENT');
    expect(fake.requests.length).toBe(before);
    expect(provider().clients).toEqual(['wechat', 'mobile']);
    expect(provider({ jsapi: false }).clients).toEqual(['mobile']);
  });

  it('turns vendor errors, 5xx, a broken answer and a network cut into refusals that say what happened', async () => {
    fake.failNext(429, 'FREQUENCY_LIMITED', '频率超限');
    expect(await refusal(provider().start(request('mobile')))).toMatchObject({ providerCode: 'FREQUENCY_LIMITED', busy: true });
    fake.failNext(502);
    expect(await refusal(provider().start(request('mobile')))).toMatchObject({ providerCode: 'HTTP_502', busy: true });
    fake.failNext(500, 'SYSTEM_ERROR', '系统错误');
    expect(await refusal(provider().start(request('mobile')))).toMatchObject({ providerCode: 'SYSTEM_ERROR', busy: true });
    fake.failNext(403, 'NO_AUTH', '商户无权限');
    expect(await refusal(provider().start(request('mobile')))).toMatchObject({ providerCode: 'NO_AUTH', busy: false });
    // A merchant key WeChat does not know: the fake's own check of the signature refuses it.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const signError = await refusal(provider({ privateKey: stranger }).start(request('mobile')));
    expect(signError).toMatchObject({ providerCode: 'SIGN_ERROR', busy: false });
    expect(lastRequest().signatureValid).toBe(false);
    // An answer not signed by WeChat Pay's key is not believed.
    fake.answerWith(stranger);
    try {
      expect(await refusal(provider().start(request('mobile')))).toMatchObject({ providerCode: 'ANSWER_NOT_SIGNED' });
    } finally {
      fake.answerWith(keys.platform.privateKey);
    }
    // Nobody listening.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await refusal(provider({ endpoint: `http://127.0.0.1:${port}` }).start(request('mobile')))).toMatchObject({
      providerCode: 'NETWORK',
      busy: true,
    });
  });
});

describe('WeChat Pay: the order query and refunds', () => {
  it('answers nothing for a payment not paid yet or unknown, the capture once paid, and a failure once closed', async () => {
    const req = request('mobile');
    await provider().start(req);
    expect(await provider().query(req.paymentNo)).toBeNull();
    expect(lastRequest()).toMatchObject({
      method: 'GET',
      url: `/v3/pay/transactions/out-trade-no/${req.paymentNo}?mchid=${MCHID}`,
      signatureValid: true,
    });
    expect(await provider().query('P00000000000000000000000')).toBeNull();
    fake.pay(req.paymentNo);
    expect(await provider().query(req.paymentNo)).toEqual({
      paymentNo: req.paymentNo,
      providerTradeNo: `4200${req.paymentNo.slice(1)}`,
      amount: 19900,
      paid: true,
    });
    const closed = request('mobile');
    await provider().start(closed);
    fake.transactions.get(closed.paymentNo)!.trade_state = 'CLOSED';
    expect(await provider().query(closed.paymentNo)).toMatchObject({ paid: false });
    fake.failNext(500, 'SYSTEM_ERROR');
    expect(await refusal(provider().query(req.paymentNo))).toMatchObject({ busy: true });
  });

  it('refunds by a refund number derived from the payment, so asking twice gives the money back once', async () => {
    const req = request('mobile');
    await provider().start(req);
    fake.pay(req.paymentNo);
    await provider().refund(req.paymentNo, 19900);
    const made = fake.requests.filter((r) => r.method === 'POST' && r.url === '/v3/refund/domestic/refunds');
    expect(made).toHaveLength(1);
    expect(made[0]!.signatureValid).toBe(true);
    expect(JSON.parse(made[0]!.body)).toMatchObject({
      out_trade_no: req.paymentNo,
      out_refund_no: refundNoOf(req.paymentNo),
      amount: { refund: 19900, total: 19900, currency: 'CNY' },
    });
    // Asked again: the refund is read by its number, not made again.
    await provider().refund(req.paymentNo, 19900);
    expect(lastRequest()).toMatchObject({
      method: 'GET',
      url: `/v3/refund/domestic/refunds/${refundNoOf(req.paymentNo)}`,
      signatureValid: true,
    });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.url === '/v3/refund/domestic/refunds')).toHaveLength(1);
    expect([...fake.refunds.values()].filter((r) => r.out_trade_no === req.paymentNo)).toEqual([
      { out_trade_no: req.paymentNo, amount: 19900, status: 'SUCCESS' },
    ]);
    fake.failNext(403, 'NOT_ENOUGH', '基本账户余额不足');
    expect(await refusal(provider().refund(req.paymentNo, 19900))).toMatchObject({ providerCode: 'NOT_ENOUGH', busy: false });
  });

  it('counts a refund done only once WeChat Pay has given the money back, not while it is PROCESSING', async () => {
    const req = request('mobile');
    await provider().start(req);
    fake.pay(req.paymentNo);
    fake.refundsProcess();
    try {
      expect(await refusal(provider().refund(req.paymentNo, 19900))).toMatchObject({ providerCode: 'PROCESSING', busy: true });
      expect(await refusal(provider().refund(req.paymentNo, 19900))).toMatchObject({ providerCode: 'PROCESSING', busy: true });
      fake.finishRefunds();
      await provider().refund(req.paymentNo, 19900);
    } finally {
      fake.finishRefunds();
    }
    expect(
      fake.requests.filter((r) => r.method === 'POST' && r.url === '/v3/refund/domestic/refunds' && r.body.includes(req.paymentNo)),
    ).toHaveLength(1);
  });
});

describe('WeChat Pay: closing a payment (issue 29)', () => {
  it('closes an unpaid payment with a signed request, so the cashier no longer takes it; closed or unknown ones count as closed', async () => {
    const req = request('mobile');
    await provider().start(req);
    expect(await provider().close!(req.paymentNo)).toBe('closed');
    expect(lastRequest()).toMatchObject({
      method: 'POST',
      url: `/v3/pay/transactions/out-trade-no/${req.paymentNo}/close`,
      json: { mchid: MCHID },
      signatureValid: true,
    });
    expect(fake.transactions.get(req.paymentNo)?.trade_state).toBe('CLOSED');
    expect(() => fake.pay(req.paymentNo)).toThrow(/closed/);
    expect(await provider().query(req.paymentNo)).toMatchObject({ paid: false });
    // Never opened at WeChat Pay (its start failed): nothing can be paid either.
    expect(await provider().close!('P00000000000000000000001')).toBe('closed');
    fake.failNext(400, 'ORDER_CLOSED', '订单已关闭');
    expect(await provider().close!(req.paymentNo)).toBe('closed');
  });

  it('refuses to count a paid payment closed, and says when WeChat Pay is busy or the answer is not its own', async () => {
    const req = request('mobile');
    await provider().start(req);
    fake.pay(req.paymentNo);
    expect(await refusal(provider().close!(req.paymentNo))).toMatchObject({ providerCode: 'ORDERPAID', busy: false });
    const open = request('mobile');
    await provider().start(open);
    fake.failNext(500, 'SYSTEM_ERROR');
    expect(await refusal(provider().close!(open.paymentNo))).toMatchObject({ busy: true });
    fake.answerWith(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    try {
      expect(await refusal(provider().close!(open.paymentNo))).toMatchObject({ providerCode: 'ANSWER_NOT_SIGNED' });
    } finally {
      fake.answerWith(keys.platform.privateKey);
    }
  });

  it('signs the JSAPI sheet of a payment handed out again anew, for the same prepay, with no call', async () => {
    const req = request('wechat', { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' });
    const started = await provider().start(req);
    const calls = fake.requests.length;
    const threeMinutesOn = new Date('2026-11-22T08:03:00Z');
    const later = wechatPayProvider(wechatConfig(keys, fake.url), () => threeMinutesOn).reopen!(started);
    expect(fake.requests.length).toBe(calls);
    expect(later.payUrl).toBe(started.payUrl);
    expect(later.jsapi).toMatchObject({
      appId: APPID,
      package: started.jsapi!.package,
      timeStamp: String(threeMinutesOn.getTime() / 1000),
      signType: 'RSA',
    });
    const sheet = later.jsapi!;
    const message = `${sheet.appId}\n${sheet.timeStamp}\n${sheet.nonceStr}\n${sheet.package}\n`;
    expect(verify('RSA-SHA256', Buffer.from(message), keys.merchant.publicKey, Buffer.from(sheet.paySign, 'base64'))).toBe(true);
    // An H5 payment's URL is handed out as it was.
    const h5 = await provider().start(request('mobile'));
    expect(provider().reopen!(h5)).toEqual(h5);
  });
});

describe('WeChat Pay: notifications', () => {
  const now = new Date('2026-11-22T08:01:00Z');
  const paid = (over: Partial<FakeTransaction> = {}): FakeTransaction => ({
    mchid: MCHID,
    appid: APPID,
    out_trade_no: 'P1763999000000000000001',
    transaction_id: '4200001234202611220000000001',
    trade_state: 'SUCCESS',
    amount: { total: 19900, currency: 'CNY' },
    ...over,
  });
  const verifyOf = (n: { body: string; headers: Record<string, string> }, at = now) =>
    provider().verify(n.body, new Headers(n.headers), at);

  it('reads a genuine notification: signed by the platform key, decrypted with the APIv3 key', async () => {
    expect(await verifyOf(wechatNotification(keys, paid(), { now }))).toEqual({
      paymentNo: 'P1763999000000000000001',
      providerTradeNo: '4200001234202611220000000001',
      amount: 19900,
      paid: true,
    });
  });

  it.each([
    [
      'a tampered body',
      () => ({
        ...wechatNotification(keys, paid(), { now }),
        body: wechatNotification(keys, paid(), { now }).body.replace('"id":"EV-', '"id":"EW-'),
      }),
      /Wechatpay-Signature: does not match/,
    ],
    [
      'another key',
      () => wechatNotification(keys, paid(), { now, signWith: keys.merchant.privateKey }),
      /Wechatpay-Signature: does not match/,
    ],
    [
      'an unknown key id',
      () => wechatNotification(keys, paid(), { now, serial: 'PUB_KEY_ID_OTHER' }),
      /Wechatpay-Serial: PUB_KEY_ID_OTHER is not/,
    ],
    ['an old one replayed', () => wechatNotification(keys, paid(), { now: new Date(now.getTime() - 6 * 60_000) }), /more than 5 minutes/],
    ['one from the future', () => wechatNotification(keys, paid(), { now: new Date(now.getTime() + 6 * 60_000) }), /more than 5 minutes/],
    ['another APIv3 key', () => wechatNotification(keys, paid(), { now, apiV3Key: APIV3_KEY.replace('a1', 'ff') }), /does not decrypt/],
    ["another merchant's", () => wechatNotification(keys, paid({ mchid: '1900000110' }), { now }), /mchid: 1900000110 is not our merchant/],
    [
      "another app's",
      () => wechatNotification(keys, paid({ appid: 'wx0000000000000000' }), { now }),
      /appid: wx0000000000000000 is not our app/,
    ],
    [
      'one that is not an outcome',
      () => wechatNotification(keys, paid({ trade_state: 'USERPAYING' }), { now }),
      /USERPAYING is not an outcome/,
    ],
  ])('refuses %s', async (_, make, reason) => {
    const error = await verifyOf(make()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotificationError);
    expect((error as Error).message).toMatch(reason);
  });

  it('answers as WeChat Pay expects: 204 with no body, or the status with {code: FAIL, message}', async () => {
    const ok = provider().answerNotification({ ok: true, outcome: 'paid' });
    expect(ok.status).toBe(204);
    expect(await ok.text()).toBe('');
    const refused = provider().answerNotification({ ok: false, status: 400, message: 'amount: 1 does not match the payment' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: 'FAIL', message: 'amount: 1 does not match the payment' });
  });
});
