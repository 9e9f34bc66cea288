import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { makeSale, makeUsers, stockLeft } from '@/test/buying';
import { createSession } from '@/lib/auth/sessions';

// The buying calls through the API dispatcher: sessions, field errors, the sandbox cashier, load shedding.

process.env.BUY_MAX_IN_FLIGHT = '3';
// Only the in-flight limit here; shedding by event-loop lag has its own test (lib/server/load-shedding.test.ts).
process.env.BUY_MAX_LAG_MS = '60000';

const now = new Date('2026-11-22T08:00:00Z');

const db = seededTestDb(now);

const call = (path: string, body: unknown, token?: string, host = 'aurora.localhost:3000') =>
  apiCall(db, path, body, { token, host, ip: '10.0.0.9', now });

async function buyerToken(channelId: number, prefix: string): Promise<string> {
  const [userId] = await makeUsers(db, 1, prefix);
  return (await createSession(db, { userId: userId!, channelId, now, ip: null })).token;
}

it('needs a session for every buying call', async () => {
  for (const path of [
    '/market/api/order/create',
    '/market/api/order/list',
    '/market/api/channel/queryTreasureSku',
    '/market/api/channel/queryBox',
    '/market/api/pay/create',
    '/market/api/box/open',
  ]) {
    const body =
      path.endsWith('create') && path.includes('order')
        ? { saleId: '1', idempotencyKey: 'abcdefgh' }
        : path.endsWith('pay/create')
          ? { orderNo: '2026112208000012345678' }
          : path.endsWith('open')
            ? { id: '1' }
            : {};
    expect((await call(path, body)).body).toMatchObject({ code: 401 });
  }
});

it('names each bad field and why', async () => {
  const sale = await makeSale(db, { code: 'fields', amount: 5, limitPerUser: 1, now });
  const token = await buyerToken(sale.channelId, '3601');
  const bad = await call('/market/api/order/create', { saleId: 'x', quantity: 0, idempotencyKey: 'no' }, token);
  expect(bad.status).toBe(200);
  expect(bad.body.code).toBe(400);
  expect(bad.body.message).toContain('saleId: must be a positive whole-number id');
  expect(bad.body.message).toContain('quantity: must be 1 or more');
  expect(bad.body.message).toContain('idempotencyKey: must be 8 to 64 letters');
  expect((await call('/market/api/order/create', { saleId: '99999999999', idempotencyKey: 'abcdefgh' }, token)).body).toMatchObject({
    code: 400,
  });
  expect((await call('/market/api/order/create', { saleId: '2147483647', idempotencyKey: 'abcdefgh' }, token)).body).toMatchObject({
    code: 404,
  });
  expect((await call('/market/api/order/detail', { orderNo: '1' }, token)).body.message).toContain('orderNo: is not an order number');
});

it('buys, pays at the sandbox cashier, and shows the numbered holding in the collection', async () => {
  const sale = await makeSale(db, { code: 'cashier', amount: 5, limitPerUser: 2, price: 5000, now });
  const token = await buyerToken(sale.channelId, '3602');
  const created = await call(
    '/market/api/order/create',
    { saleId: String(sale.saleId), quantity: 2, idempotencyKey: 'tap-cashier-1' },
    token,
  );
  expect(created.body).toMatchObject({ code: 200, data: { quantity: 2, amount: 10_000, statusTrade: 0 } });
  const orderNo = created.body.data!.orderNo as string;
  const pay = await call('/market/api/pay/create', { orderNo }, token);
  const paymentNo = pay.body.data!.paymentNo as string;
  expect(pay.body.data!.payUrl).toBe(`/sandbox/cashier/${paymentNo}`);
  // Another buyer cannot see or settle this payment.
  const stranger = await buyerToken(sale.channelId, '3603');
  expect((await call('/market/api/pay/sandbox/complete', { paymentNo, outcome: 'paid' }, stranger)).body).toMatchObject({ code: 404 });
  const done = await call('/market/api/pay/sandbox/complete', { paymentNo, outcome: 'paid' }, token);
  expect(done.body).toMatchObject({ code: 200, data: { outcome: 'paid', order: { statusTrade: 1 } } });
  const collection = await call('/market/api/channel/queryTreasureSku', { pageCount: 1, pageSize: 10 }, token);
  const records = collection.body.data!.records as { commoditySku: { number: number; amountNumber: number }; chainStatus: number }[];
  expect(records.map((r) => r.commoditySku)).toEqual([
    { number: 2, amountNumber: 5 },
    { number: 1, amountNumber: 5 },
  ]);
  expect(records.every((r) => r.chainStatus === 0)).toBe(true);
  // A second tap on "pay" at the cashier changes nothing.
  expect((await call('/market/api/pay/sandbox/complete', { paymentNo, outcome: 'paid' }, token)).body.data).toMatchObject({
    outcome: 'duplicate',
  });
});

it('sheds buy calls beyond the in-flight limit with a fast HTTP 503 and code 1001, and still never oversells', async () => {
  const sale = await makeSale(db, { code: 'shed', amount: 30, limitPerUser: 1, now });
  const tokens = [];
  for (let i = 0; i < 30; i++) tokens.push(await buyerToken(sale.channelId, String(3610 + i)));
  const results = await Promise.all(
    tokens.map((t, i) => call('/market/api/order/create', { saleId: String(sale.saleId), idempotencyKey: `shed-tap-${i}` }, t)),
  );
  const shed = results.filter((r) => r.status === 503);
  const bought = results.filter((r) => r.status === 200 && r.body.code === 200);
  expect(shed.length).toBeGreaterThan(0);
  expect(shed.every((r) => r.body.code === 1001)).toBe(true);
  expect(bought.length + shed.length).toBe(30);
  expect(await stockLeft(db, sale.saleId)).toBe(30 - bought.length);
});
