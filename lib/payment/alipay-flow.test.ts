import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { makeSale, makeUsers } from '@/test/buying';
import { createSession } from '@/lib/auth/sessions';
import { channels, holdings, payments } from '@/lib/db/schema';
import { alipayEnv, alipayNotification, APP_ID, appKeys, rsa2Verify, signContent, startFakeAlipay, type FakeAlipay } from '@/test/alipay';
import { POST } from '@/app/api/pay/notify/[provider]/route';
import { PAYMENT_STATUS } from './service';
import { USER_AGENTS } from '@/test/user-agents';

// Making RSA keys blocks the event loop for a second or more: the buy call's shedding would read it as overload.
process.env.BUY_MAX_LAG_MS = '60000';

// Alipay through the storefront: pay/create opens mobile web pay for a phone browser (never inside WeChat), and
// Alipay's form-encoded notifications arrive at the HTTP route (POST /api/pay/notify/alipay) and are applied once.

const mockDbRef: { db?: Db } = {};
jest.mock('@/lib/db/client', () => ({ ...jest.requireActual('@/lib/db/client'), getDb: () => mockDbRef.db }));

let fake: FakeAlipay;
// Before the database and the first env(): the deployment runs the sandbox and Alipay, against the local fake gateway.
beforeAll(async () => {
  fake = await startFakeAlipay();
  Object.assign(process.env, { PAYMENT_PROVIDERS: 'sandbox,alipay', ...alipayEnv(fake.url) });
});
afterAll(() => fake.close());

const now = new Date();
const db = seededTestDb(now);
beforeAll(async () => {
  mockDbRef.db = db;
  await db
    .update(channels)
    .set({ paymentProviders: ['sandbox', 'alipay'] })
    .where(eq(channels.key, 'AURORA'));
});

const { phone: PHONE, wechat: WECHAT, desktop: DESKTOP } = USER_AGENTS;

let seq = 0;
/** A buyer of AURORA with an unpaid order on a fresh sale. */
async function buyerWithOrder(quantity = 1) {
  seq++;
  const sale = await makeSale(db, { channelKey: 'AURORA', code: `ali-${seq}`, amount: 10, limitPerUser: 5, price: 19900, now });
  const [userId] = await makeUsers(db, 1, String(4300 + seq));
  const token = (await createSession(db, { userId: userId!, channelId: sale.channelId, now, ip: null })).token;
  const call = (path: string, body: unknown, headers: Record<string, string> = { 'user-agent': PHONE }) =>
    apiCall(db, path, body, { token, host: 'aurora.localhost:3000', headers, now });
  const order = await call('/market/api/order/create', { saleId: String(sale.saleId), quantity, idempotencyKey: `ali-key-${seq}` });
  expect(order.code).toBe(200);
  return { sale, call, orderNo: (order.data as { orderNo: string }).orderNo };
}

function notifyRequest(n: { body: string; headers: Headers }) {
  return POST(new Request('http://aurora.localhost/api/pay/notify/alipay', { method: 'POST', body: n.body, headers: n.headers }), {
    params: Promise.resolve({ provider: 'alipay' }),
  });
}

describe('pay/create with Alipay', () => {
  it('opens mobile web pay from a phone browser: a signed pay URL on the gateway that comes back to the result page', async () => {
    const { call, orderNo } = await buyerWithOrder(2);
    const unchosen = await call('/market/api/pay/create', { orderNo });
    expect(unchosen).toMatchObject({ code: 400, data: { reason: 'provider', offered: ['sandbox', 'alipay'] } });
    const started = await call('/market/api/pay/create', { orderNo, provider: 'alipay' });
    expect(started.code).toBe(200);
    const data = started.data as { provider: string; payUrl: string; paymentNo: string; amount: number };
    expect(data).toMatchObject({ provider: 'alipay', amount: 39800 });
    const url = new URL(data.payUrl);
    expect(`${url.origin}${url.pathname}`).toBe(fake.url);
    const params = Object.fromEntries(url.searchParams);
    expect(rsa2Verify(signContent(params, ['sign']), params.sign!, appKeys.publicKey)).toBe(true);
    expect(params).toMatchObject({
      app_id: APP_ID,
      method: 'alipay.trade.wap.pay',
      return_url: `http://aurora.localhost:3000/pay/success?orderNo=${orderNo}`,
    });
    expect(JSON.parse(params.biz_content!)).toMatchObject({ out_trade_no: data.paymentNo, total_amount: '398.00' });
    expect(await (await fetch(data.payUrl)).text()).toBe('cashier');
    // "Continue paying" keeps Alipay on the phone.
    expect((await call('/market/api/pay/create', { orderNo })).data).toMatchObject({ provider: 'alipay' });
  });

  it("is refused inside WeChat's browser and on a computer, naming provider (in Chinese for a Chinese caller)", async () => {
    const { call, orderNo } = await buyerWithOrder();
    const alipayPayments = async () => (await db.select().from(payments).where(eq(payments.provider, 'alipay'))).length;
    const before = await alipayPayments();
    const inWechat = await call('/market/api/pay/create', { orderNo, provider: 'alipay' }, { 'user-agent': WECHAT });
    expect(inWechat).toMatchObject({
      code: 400,
      message: 'Paying with alipay does not work in this browser (wechat). Choose one of: sandbox.',
      data: { field: 'provider', reason: 'provider', offered: ['sandbox'] },
    });
    const zh = await call('/market/api/pay/create', { orderNo, provider: 'alipay' }, { 'user-agent': WECHAT, 'accept-language': 'zh-CN' });
    expect(zh.message).toBe('这种支付方式不支持在当前浏览器中付款，请选择其他支付方式');
    const desktop = await call('/market/api/pay/create', { orderNo, provider: 'alipay' }, { 'user-agent': DESKTOP });
    expect(desktop.message).toMatch(/^Paying with alipay does not work in this browser \(desktop\)/);
    // No payment was opened for any of them.
    expect(await alipayPayments()).toBe(before);
  });
});

describe('POST /api/pay/notify/alipay', () => {
  it('answers success and pays once; a repeat is success with nothing more; a tampered one is fail and changes nothing', async () => {
    const { sale, call, orderNo } = await buyerWithOrder();
    const started = await call('/market/api/pay/create', { orderNo, provider: 'alipay' });
    const { paymentNo } = started.data as { paymentNo: string };
    const genuine = alipayNotification({ out_trade_no: paymentNo, trade_no: '2026112522001', total_amount: '199.00' });

    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const tampered = await notifyRequest({ ...genuine, body: genuine.body.replace('total_amount=199.00', 'total_amount=0.01') });
    expect([tampered.status, await tampered.text()]).toEqual([400, 'fail']);
    const cheap = await notifyRequest(alipayNotification({ out_trade_no: paymentNo, trade_no: '2026112522001', total_amount: '0.01' }));
    expect([cheap.status, await cheap.text()]).toEqual([400, 'fail']);
    warn.mockRestore();
    expect((await db.select().from(payments).where(eq(payments.paymentNo, paymentNo)))[0]).toMatchObject({
      status: PAYMENT_STATUS.created,
      notifications: 0,
    });

    const first = await notifyRequest(genuine);
    expect([first.status, await first.text(), first.headers.get('content-type')]).toEqual([200, 'success', 'text/plain; charset=utf-8']);
    const again = await Promise.all([notifyRequest(genuine), notifyRequest(alipayNotification({ ...genuineFields(paymentNo) }))]);
    expect(await Promise.all(again.map((a) => a.text()))).toEqual(['success', 'success']);
    expect(await db.select().from(holdings).where(eq(holdings.commodityId, sale.commodityId))).toHaveLength(1);
    expect((await db.select().from(payments).where(eq(payments.paymentNo, paymentNo)))[0]).toMatchObject({
      status: PAYMENT_STATUS.paid,
      notifications: 3,
      providerTradeNo: '2026112522001',
    });
    expect((await call('/market/api/order/detail', { orderNo })).data).toMatchObject({ statusTrade: 1 });
  });
});

/** The same trade notified again (Alipay's retry: a fresh notify_id, signed again). */
function genuineFields(paymentNo: string) {
  return { out_trade_no: paymentNo, trade_no: '2026112522001', total_amount: '199.00' };
}
