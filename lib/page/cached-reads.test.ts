import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { channels, sales } from '@/lib/db/schema';
import { createOrder, expireOverdueOrders, cancelOrder } from '@/lib/order/service';
import { startPayment, receiveNotification } from '@/lib/payment/service';
import { sandboxProvider, SANDBOX_SIGNATURE_HEADER, signSandboxBody } from '@/lib/payment/sandbox';
import { SALE_STATUS } from '@/lib/sale/status';
import { seed } from '@/lib/demo/seed';
import { readSale, readSales } from './cached-reads';
import { readChannel } from '../channel/service';

// Each write that changes what a visitor sees of a sale or a channel drops its cached read at once (issue 15,
// docs/caching.md); without a write, the cached read is what is served.

const t0 = new Date('2026-11-22T08:00:00Z');
const FIVE_MIN = 5 * 60_000;
const SECRET = 'test-payment-secret-0123456789abcdef';
const db = seededTestDb(t0);
let seq = 0;
const key = () => `cache-key-${++seq}`;

async function oneCopySale(code: string) {
  const sale = await makeSale(db, { code, amount: 1, limitPerUser: 1, price: 9900, now: t0 });
  const [buyer] = await makeUsers(db, 1, String(5100 + ++seq));
  const scope = { db, now: t0, channelId: sale.channelId };
  return { sale, scope, buyer: { ...scope, userId: buyer! }, id: String(sale.saleId) };
}

describe('cached reads of sales', () => {
  it('serve the cached sale until a write: a change made behind the services is not seen', async () => {
    const { sale, scope, id } = await oneCopySale('cache-behind');
    expect((await readSale(scope, id))!.amountAvailable).toBe(1);
    await db.update(sales).set({ amountAvailable: 0 }).where(eq(sales.id, sale.saleId));
    expect((await readSale(scope, id))!.amountAvailable).toBe(1);
  });

  it('show sold out at once after the buy of the last copy, on the goods read and the home list', async () => {
    const { sale, scope, buyer, id } = await oneCopySale('cache-last-copy');
    expect(await readSale(scope, id)).toMatchObject({ statusSell: SALE_STATUS.ON_SALE, amountAvailable: 1 });
    const listed = async () => (await readSales(scope, { pageCount: 1, pageSize: 100 })).records.find((s) => s.id === id);
    expect(await listed()).toMatchObject({ statusSell: SALE_STATUS.ON_SALE });
    await createOrder(buyer, { saleId: sale.saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect(await readSale(scope, id)).toMatchObject({ statusSell: SALE_STATUS.SOLD_OUT, amountAvailable: 0 });
    expect(await listed()).toMatchObject({ statusSell: SALE_STATUS.SOLD_OUT, amountAvailable: 0 });
  });

  it('show the copy again at once when an unpaid order expires and gives it back', async () => {
    const { sale, scope, buyer, id } = await oneCopySale('cache-expiry');
    await createOrder(buyer, { saleId: sale.saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect((await readSale(scope, id))!.statusSell).toBe(SALE_STATUS.SOLD_OUT);
    expect(await expireOverdueOrders(db, new Date(t0.getTime() + FIVE_MIN + 1000), { saleId: sale.saleId })).toBe(1);
    expect(await readSale(scope, id)).toMatchObject({ statusSell: SALE_STATUS.ON_SALE, amountAvailable: 1 });
  });

  it('show the copy again at once when the buyer cancels', async () => {
    const { sale, scope, buyer, id } = await oneCopySale('cache-cancel');
    const order = await createOrder(buyer, { saleId: sale.saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    expect((await readSale(scope, id))!.statusSell).toBe(SALE_STATUS.SOLD_OUT);
    await cancelOrder(buyer, order.orderNo);
    expect(await readSale(scope, id)).toMatchObject({ statusSell: SALE_STATUS.ON_SALE, amountAvailable: 1 });
  });

  it('show the copy again at once when a payment comes too late and its order gives the copy back', async () => {
    const { sale, scope, buyer, id } = await oneCopySale('cache-paid-late');
    const provider = sandboxProvider(db, SECRET);
    const order = await createOrder(buyer, { saleId: sale.saleId, quantity: 1, idempotencyKey: key() }, FIVE_MIN);
    const payment = await startPayment({ ...buyer, channelKey: 'AURORA', provider }, order.orderNo);
    expect((await readSale(scope, id))!.statusSell).toBe(SALE_STATUS.SOLD_OUT);
    const body = JSON.stringify({
      paymentNo: payment.paymentNo,
      tradeNo: `T-${payment.paymentNo}`,
      amount: payment.amount,
      status: 'SUCCESS',
    });
    const headers = new Headers({ [SANDBOX_SIGNATURE_HEADER]: signSandboxBody(SECRET, body) });
    expect(await receiveNotification(db, provider, body, headers, new Date(t0.getTime() + FIVE_MIN + 1000))).toBe('refunded');
    expect(await readSale(scope, id)).toMatchObject({ statusSell: SALE_STATUS.ON_SALE, amountAvailable: 1 });
  });
});

describe('cached reads of channels', () => {
  it('serve the cached channel until the seed runs again, which drops every cached read', async () => {
    const before = await readChannel(db, 'AURORA');
    await db.update(channels).set({ brandName: 'Aurora Renamed' }).where(eq(channels.key, 'AURORA'));
    expect((await readChannel(db, 'AURORA'))!.brandName).toBe(before!.brandName);
    await seed(db, t0);
    expect((await readChannel(db, 'AURORA'))!.brandName).toBe('Aurora Renamed');
    await db.update(channels).set({ brandName: before!.brandName }).where(eq(channels.key, 'AURORA'));
  });

  it('answer an unknown channel with null, and cache that too', async () => {
    expect(await readChannel(db, 'NOSUCH')).toBeNull();
  });
});
