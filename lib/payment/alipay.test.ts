import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import {
  alipayConfig,
  alipayEnv,
  alipayKeys,
  alipayNotification as notification,
  APP_ID,
  appKeys,
  pem,
  rsa2Verify,
  signContent,
  startFakeAlipay,
  strangerKeys,
  type FakeAlipay,
} from '@/test/alipay';
import { holdings, orders, payments } from '@/lib/db/schema';
import { createOrder, getOrder } from '@/lib/order/service';
import { ORDER_STATUS } from '@/lib/order/status';
import { parseEnv } from '@/lib/env';
import type { UserScope } from '@/lib/procedure/scope';
import { NotificationError, NotificationIgnored, PaymentProviderError, type PaymentRequest } from './provider';
import { handleNotification } from './notify';
import { applyNotification, queryPayment, receiveNotification, startPayment, PAYMENT_STATUS } from './service';
import { alipayConfigFromEnv, alipayProvider, beijingTime, fenToYuan, yuanToFen, type AlipayConfig } from './alipay';

// Alipay mobile web pay (DESIGN §7) against a fake gateway that checks our signatures on its own and signs its answers.

const t0 = new Date('2026-11-22T08:00:00Z');
const FIVE_MIN = 5 * 60_000;

const db = seededTestDb(t0);
let gateway: FakeAlipay;
let keyDir: string;
beforeAll(async () => {
  gateway = await startFakeAlipay();
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alipay-keys-'));
});
afterAll(async () => {
  await gateway.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});
beforeEach(() => {
  gateway.script = null;
  gateway.appPublicKey = appKeys.publicKey;
});

const provider = (overrides: Partial<AlipayConfig> = {}) => alipayProvider({ ...alipayConfig(gateway.url), ...overrides }, () => t0);

let seq = 0;
/** A buyer with an unpaid order on a fresh sale, and an Alipay payment opened for it through the service from a phone. */
async function orderWithPayment(quantity = 1, price = 19_990) {
  seq++;
  const sale = await makeSale(db, { code: `alipay-${seq}`, amount: 10, limitPerUser: 5, price, now: t0 });
  const [buyer] = await makeUsers(db, 1, String(4700 + seq));
  const ctx: UserScope = { db, now: t0, channelId: sale.channelId, userId: buyer! };
  const order = await createOrder(ctx, { saleId: sale.saleId, quantity, idempotencyKey: `alipay-key-${seq}` }, FIVE_MIN);
  const payment = await startPayment(
    {
      ...ctx,
      channelKey: 'AURORA',
      provider: provider(),
      payer: { client: 'mobile', ip: '203.0.113.7' },
      origin: 'https://aurora.shop.example',
    },
    order.orderNo,
  );
  return { sale, ctx, order, payment };
}

/** The payment and its order as the database has them. */
async function stateOf(paymentNo: string) {
  const [row] = await db
    .select({ status: payments.status, notifications: payments.notifications, orderStatus: orders.statusTrade, orderId: orders.id })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.paymentNo, paymentNo));
  const minted = await db.select({ id: holdings.id }).from(holdings).where(eq(holdings.orderId, row!.orderId));
  return { status: row!.status, notifications: row!.notifications, orderStatus: row!.orderStatus, holdings: minted.length };
}

function request(extra: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    paymentNo: `P17639990000000000${String(++seq).padStart(3, '0')}`,
    amount: 1,
    subject: 'x',
    channelKey: 'DARK',
    client: 'mobile',
    clientIp: '203.0.113.7',
    returnUrl: 'https://dark.shop.example/pay/success?orderNo=2026112200000000000001',
    expiresAt: new Date(t0.getTime() + FIVE_MIN),
    ...extra,
  };
}

/** The PaymentProviderError a call fails with. */
async function fails(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

describe('amounts and times', () => {
  it('converts fen to yuan and back by digits, exactly', () => {
    expect(fenToYuan(1)).toBe('0.01');
    expect(fenToYuan(10)).toBe('0.10');
    expect(fenToYuan(19_990)).toBe('199.90');
    expect(fenToYuan(123_456_789)).toBe('1234567.89');
    expect(fenToYuan(10_000_000_000)).toBe('100000000.00');
    // Floating point would give 1.1500000000000001 * 100 = 115.00000000000001 and the like.
    expect(yuanToFen('1.15')).toBe(115);
    expect(yuanToFen('0.07')).toBe(7);
    expect(yuanToFen('4.35')).toBe(435);
    expect(yuanToFen('12')).toBe(1200);
    expect(yuanToFen('12.5')).toBe(1250);
    for (const bad of ['', '1.005', '-1.00', '1e3', '01.00', ' 1.00', '1,000.00', '1.', '.5', 'NaN']) expect(yuanToFen(bad)).toBeNull();
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), (fen) => yuanToFen(fenToYuan(fen)) === fen));
    for (const bad of [0, -1, 1.5, 10_000_000_001, Number.NaN]) expect(() => fenToYuan(bad)).toThrow(PaymentProviderError);
  });

  it('writes Beijing time whatever the server zone', () => {
    expect(beijingTime(new Date('2026-11-22T16:30:05.999Z'))).toBe('2026-11-23 00:30:05');
  });
});

describe('configuration from the environment', () => {
  it('reads PKCS#1 PEM with literal \\n, bare base64 and file keys, and the gateway', () => {
    const fromEnv = alipayConfigFromEnv(parseEnv({ PAYMENT_PROVIDERS: 'alipay', ...alipayEnv(gateway.url) }));
    expect(fromEnv).toMatchObject({ appId: APP_ID, gateway: gateway.url, notifyUrl: 'https://pay.shop.example/api/pay/notify/alipay' });
    expect(fromEnv.privateKey.equals(appKeys.privateKey)).toBe(true);
    expect(fromEnv.alipayPublicKey.equals(alipayKeys.publicKey)).toBe(true);
    const keyFile = path.join(keyDir, 'app-private.pem');
    fs.writeFileSync(keyFile, pem(appKeys.privateKey, 'pkcs8'));
    const withoutGateway: Record<string, string | undefined> = { ...alipayEnv(gateway.url), ALIPAY_GATEWAY: undefined };
    const fromFile = alipayConfigFromEnv(parseEnv({ PAYMENT_PROVIDERS: 'alipay', ...withoutGateway, ALIPAY_PRIVATE_KEY: keyFile }));
    expect(fromFile.privateKey.equals(appKeys.privateKey)).toBe(true);
    expect(fromFile.gateway).toBe('https://openapi.alipay.com/gateway.do');
  });
});

describe('start: the wap pay URL', () => {
  it('is signed with our key and carries the payment number, the amount in yuan, the result page and the order expiry', async () => {
    const { order, payment } = await orderWithPayment(2, 19_990);
    expect(payment.amount).toBe(39_980);
    const url = new URL(payment.payUrl);
    expect(`${url.origin}${url.pathname}`).toBe(gateway.url);
    const params = Object.fromEntries(url.searchParams);
    // Our own check of the signature, with the app public key Alipay holds.
    expect(rsa2Verify(signContent(params, ['sign']), params.sign!, appKeys.publicKey)).toBe(true);
    expect(params).toMatchObject({
      app_id: APP_ID,
      method: 'alipay.trade.wap.pay',
      sign_type: 'RSA2',
      charset: 'utf-8',
      timestamp: '2026-11-22 16:00:00',
      notify_url: 'https://pay.shop.example/api/pay/notify/alipay',
      return_url: `https://aurora.shop.example/pay/success?orderNo=${order.orderNo}`,
    });
    expect(JSON.parse(params.biz_content!)).toEqual({
      out_trade_no: payment.paymentNo,
      total_amount: '399.80',
      subject: order.commodity.name,
      product_code: 'QUICK_WAP_WAY',
      quit_url: `https://aurora.shop.example/pay/success?orderNo=${order.orderNo}`,
      time_expire: beijingTime(new Date(order.expireTime)),
    });
    expect(beijingTime(new Date(order.expireTime))).toBe('2026-11-22 16:05:00');
    // A tampered URL no longer verifies.
    const cheaper = { ...params, biz_content: params.biz_content!.replace('399.80', '0.01') };
    expect(rsa2Verify(signContent(cheaper, ['sign']), params.sign!, appKeys.publicKey)).toBe(false);
    // And the fake gateway's own check takes the URL as the buyer's browser opens it.
    const opened = await fetch(payment.payUrl);
    expect(await opened.text()).toBe('cashier');
  });

  it('keeps the subject within Alipay rules; refuses an amount Alipay does not take and browsers other than a phone', async () => {
    const { payUrl } = await provider().start(request({ subject: 'A/B = C & D' }));
    const biz = JSON.parse(new URL(payUrl).searchParams.get('biz_content')!) as Record<string, string>;
    expect(biz).toMatchObject({ subject: 'A B C D', total_amount: '0.01' });
    expect(provider().clients).toEqual(['mobile']);
    expect(await fails(provider().start(request({ amount: 0 })))).toMatchObject({ providerCode: 'AMOUNT', busy: false });
    for (const client of ['wechat', 'mini-program', 'desktop'] as const) {
      expect(await fails(provider().start(request({ client })))).toMatchObject({ providerCode: 'CLIENT', busy: false });
    }
  });
});

describe('query and refund through the gateway', () => {
  it('reads paid, waiting, closed and unknown trades, with signed requests and signed answers', async () => {
    gateway.trades.set('PQ1', { tradeNo: '2026112222001', status: 'TRADE_SUCCESS', totalAmount: '1.15' });
    gateway.trades.set('PQ2', { tradeNo: '2026112222002', status: 'WAIT_BUYER_PAY', totalAmount: '10.00' });
    gateway.trades.set('PQ3', { tradeNo: '2026112222003', status: 'TRADE_CLOSED', totalAmount: '10.00' });
    gateway.trades.set('PQ4', { tradeNo: '2026112222004', status: 'TRADE_FINISHED', totalAmount: '100000000.00' });
    const p = provider();
    expect(await p.query('PQ1')).toEqual({ paymentNo: 'PQ1', providerTradeNo: '2026112222001', amount: 115, paid: true });
    expect(await p.query('PQ2')).toBeNull();
    expect(await p.query('PQ3')).toEqual({ paymentNo: 'PQ3', providerTradeNo: '2026112222003', amount: 1000, paid: false });
    expect(await p.query('PQ4')).toMatchObject({ amount: 10_000_000_000, paid: true });
    expect(await p.query('PQ-none')).toBeNull();
    const queries = gateway.requests.filter((r) => r.method === 'alipay.trade.query');
    expect(queries.length).toBeGreaterThanOrEqual(5);
    expect(queries.every((r) => r.signed && r.params.timestamp === '2026-11-22 16:00:00')).toBe(true);
  });

  it('closes a trade waiting for the buyer; says when there is no trade yet (the buyer never opened the pay URL) or it cannot be closed (issue 29)', async () => {
    const p = provider();
    const waiting = request();
    const { payUrl } = await p.start(waiting);
    expect(await p.close!(waiting.paymentNo)).toBe('unopened');
    // The buyer opens the pay URL: Alipay opens the trade, which can then be closed, and its cashier no longer takes it.
    expect(await (await fetch(payUrl)).text()).toBe('cashier');
    expect(await p.close!(waiting.paymentNo)).toBe('closed');
    const close = gateway.requests.filter((r) => r.method === 'alipay.trade.close').at(-1)!;
    expect(close.signed).toBe(true);
    expect(JSON.parse(close.params.biz_content!)).toEqual({ out_trade_no: waiting.paymentNo });
    expect(await (await fetch(payUrl)).text()).toBe('closed');
    expect(await p.query(waiting.paymentNo)).toMatchObject({ paid: false });
    gateway.trades.set('PC-paid', { tradeNo: '2026112222031', status: 'TRADE_SUCCESS', totalAmount: '10.00' });
    expect(await fails(p.close!('PC-paid'))).toMatchObject({ providerCode: 'ACQ.TRADE_STATUS_ERROR', busy: false });
  });

  it('refunds a payment once, however often it is asked', async () => {
    gateway.trades.set('PR1', { tradeNo: '2026112222011', status: 'TRADE_SUCCESS', totalAmount: '199.90' });
    const p = provider();
    await p.refund('PR1', 19_990);
    await p.refund('PR1', 19_990);
    await Promise.all([p.refund('PR1', 19_990), p.refund('PR1', 19_990)]);
    expect([...gateway.refunds]).toEqual([['PR1-refund', { outTradeNo: 'PR1', amount: '199.90' }]]);
    // The repeats were confirmed through the refund query (fund_change N).
    expect(gateway.requests.filter((r) => r.method === 'alipay.trade.fastpay.refund.query')).toHaveLength(3);
  });

  it('turns vendor errors, bad answers, a dead network and a silent gateway into provider errors, busy or refused', async () => {
    gateway.trades.set('PE1', { tradeNo: '2026112222021', status: 'TRADE_SUCCESS', totalAmount: '10.00' });
    const p = provider();
    gateway.script = () => ({
      kind: 'answer',
      body: { code: '20000', msg: 'Service Currently Unavailable', sub_code: 'aop.ACQ.SYSTEM_ERROR', sub_msg: '系统错误' },
    });
    let error = await fails(p.query('PE1'));
    expect(error).toMatchObject({ provider: 'alipay', providerCode: 'ACQ.SYSTEM_ERROR', busy: true });
    expect(error.message).toBe('alipay: ACQ.SYSTEM_ERROR: the query of PE1 was refused: 系统错误');

    gateway.script = (method) =>
      method === 'alipay.trade.refund'
        ? {
            kind: 'answer',
            body: { code: '40004', msg: 'Business Failed', sub_code: 'aop.ACQ.SELLER_BALANCE_NOT_ENOUGH', sub_msg: '卖家余额不足' },
          }
        : undefined;
    error = await fails(p.refund('PE1', 1000));
    expect(error).toMatchObject({ providerCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', busy: false });
    expect(error.message).toBe('alipay: ACQ.SELLER_BALANCE_NOT_ENOUGH: the refund of PE1 was refused: 卖家余额不足');
    expect(gateway.refunds.has('PE1-refund')).toBe(false);

    // Alipay holds another app public key than ours: it refuses our signature, and the log names the setting to check.
    gateway.script = null;
    gateway.appPublicKey = strangerKeys.publicKey;
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    error = await fails(p.query('PE1'));
    expect(error).toMatchObject({ providerCode: 'isv.invalid-signature', busy: false });
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/isv.invalid-signature: ALIPAY_PRIVATE_KEY does not match the app public key/));
    log.mockRestore();
    gateway.appPublicKey = appKeys.publicKey;

    // Answers signed with another key than Alipay's, or not signed at all, are not believed.
    gateway.script = () => ({
      kind: 'answer',
      sign: 'stranger',
      body: { code: '10000', msg: 'Success', out_trade_no: 'PE1', trade_no: 'X', trade_status: 'TRADE_SUCCESS', total_amount: '0.01' },
    });
    error = await fails(p.query('PE1'));
    expect(error).toMatchObject({ providerCode: 'ANSWER_NOT_SIGNED', busy: false });
    expect(error.message).toMatch(/signature check/);
    gateway.script = () => ({
      kind: 'answer',
      sign: 'none',
      body: { code: '10000', msg: 'Success', out_trade_no: 'PE1', trade_no: 'X', trade_status: 'TRADE_SUCCESS', total_amount: '0.01' },
    });
    expect(await fails(p.query('PE1'))).toMatchObject({ providerCode: 'ANSWER_NOT_SIGNED' });
    gateway.script = () => ({
      kind: 'answer',
      body: {
        code: '10000',
        msg: 'Success',
        out_trade_no: 'PE-other',
        trade_no: 'X',
        trade_status: 'TRADE_SUCCESS',
        total_amount: '10.00',
      },
    });
    expect(await fails(p.query('PE1'))).toMatchObject({ providerCode: 'BAD_ANSWER' });
    gateway.script = () => ({
      kind: 'answer',
      body: { code: '10000', msg: 'Success', out_trade_no: 'PE1', trade_no: 'X', trade_status: 'TRADE_SUCCESS', total_amount: '10.005' },
    });
    expect(await fails(p.query('PE1'))).toMatchObject({ providerCode: 'BAD_ANSWER' });

    gateway.script = () => ({ kind: 'status', status: 502 });
    error = await fails(p.query('PE1'));
    expect(error).toMatchObject({ providerCode: 'HTTP_502', busy: true });
    expect(error.message).toBe('alipay: HTTP_502: the gateway answered the query of PE1 with HTTP 502');

    gateway.script = () => ({ kind: 'hang' });
    const started = Date.now();
    error = await fails(provider({ timeoutMs: 300 }).query('PE1'));
    expect(error).toMatchObject({ providerCode: 'TIMEOUT', busy: true });
    expect(error.message).toBe('alipay: TIMEOUT: no answer to the query of PE1 within 300 ms');
    expect(Date.now() - started).toBeLessThan(3000);

    // Nothing listens there any more.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    error = await fails(provider({ gateway: `http://127.0.0.1:${deadPort}/gateway.do` }).refund('PE1', 1000));
    expect(error).toMatchObject({ providerCode: 'NETWORK', busy: true });
    expect(error.message).toBe('alipay: NETWORK: could not reach the gateway for the refund of PE1 (ECONNREFUSED)');
  });
});

describe('notifications through the payment service', () => {
  /** Delivered as the notify route does (lib/payment/notify.ts): the answer Alipay reads. */
  const deliver = async (body: string, headers: Headers, at: Date) => {
    const answer = await handleNotification({ provider: provider(), name: 'alipay', body, headers }, db, at);
    return { status: answer.status, text: await answer.text(), contentType: answer.headers.get('content-type') };
  };

  it('pays once and mints once when a genuine notification arrives 20 times at once, answering success to each', async () => {
    const { ctx, order, payment } = await orderWithPayment(2, 19_990);
    const { body, headers } = notification({ out_trade_no: payment.paymentNo, trade_no: '2026112222100', total_amount: '399.80' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(body, headers, new Date(t0.getTime() + 1000))));
    expect(answers).toEqual(Array(20).fill({ status: 200, text: 'success', contentType: 'text/plain; charset=utf-8' }));
    expect(await stateOf(payment.paymentNo)).toEqual({
      status: PAYMENT_STATUS.paid,
      notifications: 20,
      orderStatus: ORDER_STATUS.paid,
      holdings: 2,
    });
    const [row] = await db.select().from(payments).where(eq(payments.paymentNo, payment.paymentNo));
    expect(row!.providerTradeNo).toBe('2026112222100');
    expect((await getOrder(ctx, order.orderNo)).editions).toHaveLength(2);
    // Once more, later: a repeat, still success (or Alipay would send it for a day).
    expect((await deliver(body, headers, new Date(t0.getTime() + 60_000))).text).toBe('success');
    expect((await stateOf(payment.paymentNo)).holdings).toBe(2);
  });

  it('refuses tampered, unsigned, wrongly signed, wrong-amount and wrong-app notifications, changing nothing', async () => {
    const { payment } = await orderWithPayment(1, 19_990);
    const genuine = { out_trade_no: payment.paymentNo, trade_no: '2026112222200', total_amount: '199.90' };
    const at = new Date(t0.getTime() + 1000);
    const refuse = async (body: string, headers: Headers, reason: RegExp) => {
      await expect(receiveNotification(db, provider(), body, headers, at)).rejects.toThrow(NotificationError);
      await expect(receiveNotification(db, provider(), body, headers, at)).rejects.toThrow(reason);
    };
    const good = notification(genuine);
    // Tampered: the amount changed after Alipay signed.
    await refuse(good.body.replace('total_amount=199.90', 'total_amount=0.01'), good.headers, /^sign: the signature does not match/);
    await refuse(good.body.replace('trade_status=TRADE_SUCCESS', 'trade_status=TRADE_FINISHED'), good.headers, /^sign: /);
    // Unsigned, or signed with another key, or with RSA (SHA-1).
    await refuse(good.body.replace(/&?sign=[^&]*/, ''), good.headers, /^sign: the notification is not signed/);
    await refuse(notification(genuine, strangerKeys.privateKey).body, good.headers, /^sign: the signature does not match/);
    await refuse(notification({ ...genuine, sign_type: 'RSA' }).body, good.headers, /^sign_type: must be RSA2/);
    // Genuinely signed, but for another amount: the service's amount check refuses it.
    const cheap = notification({ ...genuine, total_amount: '0.01' });
    await refuse(cheap.body, cheap.headers, /amount: 1 does not match the payment's 19990/);
    // Genuinely signed, but for another app of Alipay's.
    const otherApp = notification({ ...genuine, app_id: '2021000999999999' });
    await refuse(otherApp.body, otherApp.headers, /^app_id: 2021000999999999 is not this shop's Alipay app/);
    // Not a form.
    await refuse(good.body, new Headers({ 'content-type': 'application/json' }), /^content-type: /);
    await refuse(`${good.body}&app_id=${APP_ID}`, good.headers, /^app_id: appears twice/);
    expect(await stateOf(payment.paymentNo)).toEqual({
      status: PAYMENT_STATUS.created,
      notifications: 0,
      orderStatus: ORDER_STATUS.toPay,
      holdings: 0,
    });
    // Alipay reads `fail` (and sends it again); nothing changed.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const tampered = await deliver(good.body.replace('total_amount=199.90', 'total_amount=0.01'), good.headers, at);
    expect(tampered).toMatchObject({ status: 400, text: 'fail' });
    expect(await deliver(cheap.body, cheap.headers, at)).toMatchObject({ status: 400, text: 'fail' });
    warn.mockRestore();
    expect((await stateOf(payment.paymentNo)).status).toBe(PAYMENT_STATUS.created);
    // The genuine one still pays.
    expect(await receiveNotification(db, provider(), good.body, good.headers, at)).toBe('paid');
  });

  it('fails a closed trade; answers success to a refund notice and a waiting trade without changing anything', async () => {
    const { payment } = await orderWithPayment(1, 1000);
    const at = new Date(t0.getTime() + 1000);
    const base = { out_trade_no: payment.paymentNo, trade_no: '2026112222300', total_amount: '10.00' };
    const waiting = notification({ ...base, trade_status: 'WAIT_BUYER_PAY' });
    await expect(receiveNotification(db, provider(), waiting.body, waiting.headers, at)).rejects.toThrow(NotificationIgnored);
    const refunded = notification({
      ...base,
      refund_fee: '10.00',
      gmt_refund: '2026-11-22 16:10:00.000',
      out_biz_no: `${payment.paymentNo}-refund`,
    });
    const info = jest.spyOn(console, 'info').mockImplementation(() => {});
    for (const n of [waiting, refunded]) expect(await deliver(n.body, n.headers, at)).toMatchObject({ status: 200, text: 'success' });
    info.mockRestore();
    expect(await stateOf(payment.paymentNo)).toEqual({
      status: PAYMENT_STATUS.created,
      notifications: 0,
      orderStatus: ORDER_STATUS.toPay,
      holdings: 0,
    });
    // A forged refund notice is not ignored but refused: the signature comes first.
    const forged = notification({ ...base, refund_fee: '10.00', out_biz_no: 'x' }, strangerKeys.privateKey);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await deliver(forged.body, forged.headers, at)).toMatchObject({ status: 400, text: 'fail' });
    warn.mockRestore();
    const closed = notification({ ...base, trade_status: 'TRADE_CLOSED' });
    expect(await receiveNotification(db, provider(), closed.body, closed.headers, at)).toBe('failed');
    expect(await stateOf(payment.paymentNo)).toMatchObject({ status: PAYMENT_STATUS.failed, orderStatus: ORDER_STATUS.toPay });
  });

  it('falls back to asking Alipay when the notification never came, and refunds a payment made after the order expired', async () => {
    const { ctx, order, payment } = await orderWithPayment(1, 1000);
    gateway.trades.set(payment.paymentNo, { tradeNo: '2026112222400', status: 'TRADE_SUCCESS', totalAmount: '10.00' });
    const view = await queryPayment({ ...ctx, now: new Date(t0.getTime() + 2000), providers: provider() }, order.orderNo);
    expect(view.statusTrade).toBe(ORDER_STATUS.paid);
    expect(view.editions).toHaveLength(1);

    const late = await orderWithPayment(1, 1000);
    gateway.trades.set(late.payment.paymentNo, { tradeNo: '2026112222401', status: 'TRADE_SUCCESS', totalAmount: '10.00' });
    const paid = notification({ out_trade_no: late.payment.paymentNo, trade_no: '2026112222401', total_amount: '10.00' });
    const n = await provider().verify(paid.body, paid.headers, t0);
    expect(await applyNotification(db, provider(), n, new Date(t0.getTime() + FIVE_MIN + 1000))).toBe('refunded');
    expect(gateway.refunds.get(`${late.payment.paymentNo}-refund`)).toEqual({ outTradeNo: late.payment.paymentNo, amount: '10.00' });
    expect(await stateOf(late.payment.paymentNo)).toMatchObject({ status: PAYMENT_STATUS.refunded, holdings: 0 });
  });
});
