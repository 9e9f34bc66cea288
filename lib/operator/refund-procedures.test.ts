import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { makeSale, makeUsers } from '@/test/buying';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { operatorAudit, orderRefunds } from '@/lib/db/schema';
import { createOrder, getOrder } from '@/lib/order/service';
import { sandboxOf } from '@/lib/payment/providers';
import { applyNotification, startPayment } from '@/lib/payment/service';
import { listCollection } from '@/lib/collection/service';
import type { UserScope } from '@/lib/procedure/scope';

// The console's refund and cancel calls (issue 32): who may call them, the audit entry each write leaves, another
// channel's order answering 404, and the buyer seeing the refund with the copy gone from their collection.

process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let owner: TestOperator;
let support: TestOperator;
let manager: TestOperator;
let seq = 0;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'refunds.owner', role: 'owner', now: before });
  support = await signedInOperator(api.db, { name: 'aurora.support', role: 'support', channels: ['AURORA'], now: before });
  manager = await signedInOperator(api.db, { name: 'aurora.manager', role: 'manager', channels: ['AURORA'], now: before });
}, 120_000);
afterAll(() => api.close());

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });

async function paidOrder(quantity = 1) {
  const n = ++seq;
  const sale = await makeSale(api.db, { code: `ops-refund-${n}`, amount: 10, limitPerUser: 5, price: 2500, now: api.now });
  const [buyer] = await makeUsers(api.db, 1, String(8100 + n));
  const ctx: UserScope = { db: api.db, now: api.now, channelId: sale.channelId, userId: buyer! };
  const order = await createOrder(ctx, { saleId: sale.saleId, quantity, idempotencyKey: `ops-${n}` }, 300_000);
  const sandbox = sandboxOf(api.db)!;
  const payment = await startPayment({ ...ctx, channelKey: 'AURORA', provider: sandbox }, order.orderNo);
  await sandbox.settle({ paymentNo: payment.paymentNo, amount: payment.amount, outcome: 'paid', now: api.now });
  await applyNotification(
    api.db,
    sandbox,
    { paymentNo: payment.paymentNo, providerTradeNo: `T${n}`, amount: payment.amount, paid: true },
    api.now,
  );
  return { ctx, sale, orderNo: order.orderNo };
}

const entriesOf = (procedure: string) => api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure));

describe('refunding from the console', () => {
  it('support previews and refunds a copy; the trail has one entry; the buyer sees the refund and the copy is gone', async () => {
    const o = await paidOrder(2);
    const preview = await as(support)('/ops/api/refund/preview', { channel: 'AURORA', orderNo: o.orderNo });
    expect(preview.code).toBe(200);
    const copies = (preview.data as { copies: { holdingId: number; refundable: boolean }[] }).copies;
    expect(copies.map((c) => c.refundable)).toEqual([true, true]);

    const body = {
      channel: 'AURORA',
      orderNo: o.orderNo,
      holdingIds: [copies[0]!.holdingId],
      reason: 'wrong size',
      idempotencyKey: 'click-0001',
    };
    const made = await as(support)('/ops/api/refund/create', body);
    expect(made).toMatchObject({ code: 200, data: { replayed: false, refund: { quantity: 1, amount: 2500, status: 'done' } } });
    const twice = await as(support)('/ops/api/refund/create', body);
    expect(twice).toMatchObject({ code: 200, data: { replayed: true } });
    const entries = (await entriesOf('refund/create')).filter((e) => (e.after as { orderNo?: string } | null)?.orderNo === o.orderNo);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ operatorName: 'aurora.support', before: null, after: expect.objectContaining({ amount: 2500 }) });

    const view = await getOrder(o.ctx, o.orderNo);
    expect(view.refunds).toEqual([expect.objectContaining({ amount: 2500, quantity: 1, status: 'done' })]);
    expect((await listCollection(o.ctx, { pageCount: 1, pageSize: 10 })).records.map((h) => h.id)).toEqual([String(copies[1]!.holdingId)]);
  });

  it('refuses a manager (managers read orders, never refund), and answers 404 for an order asked of another channel', async () => {
    const o = await paidOrder();
    const body = { channel: 'AURORA', orderNo: o.orderNo, reason: 'no', idempotencyKey: 'click-0002' };
    expect((await as(manager)('/ops/api/refund/create', body)).code).toBe(403);
    expect((await as(owner)('/ops/api/refund/create', { ...body, channel: 'LUMEN' })).code).toBe(404);
    const [order] = await api.db.select().from(orderRefunds).where(eq(orderRefunds.idempotencyKey, 'click-0002'));
    expect(order).toBeUndefined();
  });

  it('names the field on bad input, nothing stored', async () => {
    const o = await paidOrder();
    const answer = await as(owner)('/ops/api/refund/create', {
      channel: 'AURORA',
      orderNo: o.orderNo,
      reason: '',
      idempotencyKey: 'click-0003',
    });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(/reason/);
  });
});

describe('cancelling a sale from the console', () => {
  it('a manager cancels (support may not); the trail has one entry; progress counts the refunds as the jobs make them', async () => {
    const o = await paidOrder();
    const body = { channel: 'AURORA', saleId: o.sale.saleId };
    expect((await as(support)('/ops/api/refund/cancelSale', body)).code).toBe(403);
    const done = await as(manager)('/ops/api/refund/cancelSale', body);
    expect(done.code).toBe(200);
    expect((await as(manager)('/ops/api/refund/cancelSale', body)).code).toBe(409);
    const entries = (await entriesOf('refund/cancelSale')).filter((e) => (e.after as { saleId?: number } | null)?.saleId === o.sale.saleId);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.before).toMatchObject({ cancelledAt: null });

    const progress = await as(manager)('/ops/api/refund/cancelProgress', body);
    expect(progress).toMatchObject({ code: 200, data: { cancelled: true, paidOrders: 1, refunded: 0, finished: false } });
    const { refundCancelledSales } = await import('@/lib/payment/sale-cancel');
    await refundCancelledSales(api.db, sandboxOf(api.db)!, api.now);
    const after = await as(manager)('/ops/api/refund/cancelProgress', body);
    expect(after).toMatchObject({ code: 200, data: { paidOrders: 1, refunded: 1, failures: [], finished: true } });
  });
});
