import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers, stockLeft } from '@/test/buying';
import { randomDigits } from '@/lib/security/crypto';
import { sandboxProvider } from '@/lib/payment/sandbox';
import { startPayment } from '@/lib/payment/service';
import { createOrder } from './service';

// Order and payment numbers are the time plus 8 random digits: two drawn alike in the same second would violate their
// unique index. The second draws again rather than answer HTTP 500 (found by the security review's fuzzing).

jest.mock('@/lib/security/crypto', () => {
  const actual = jest.requireActual<typeof import('@/lib/security/crypto')>('@/lib/security/crypto');
  return { ...actual, randomDigits: jest.fn(actual.randomDigits) };
});
const draws = randomDigits as jest.MockedFunction<typeof randomDigits>;

const t0 = new Date('2026-11-22T08:00:00Z');

const db = seededTestDb(t0);

it('draws a new order number when two orders of the same second get the same one', async () => {
  const sale = await makeSale(db, { code: 'same-order-number', amount: 5, limitPerUser: 1, now: t0 });
  const [first, second] = await makeUsers(db, 2, '3917');
  draws.mockReturnValueOnce('00000000').mockReturnValueOnce('00000000');
  const a = await createOrder(
    { db, now: t0, channelId: sale.channelId, userId: first! },
    { saleId: sale.saleId, quantity: 1, idempotencyKey: 'numbers-key-1' },
    300_000,
  );
  const b = await createOrder(
    { db, now: t0, channelId: sale.channelId, userId: second! },
    { saleId: sale.saleId, quantity: 1, idempotencyKey: 'numbers-key-2' },
    300_000,
  );
  expect(a.orderNo).toMatch(/00000000$/);
  expect(b.orderNo).not.toBe(a.orderNo);
  // The refused draw took nothing: two copies are held, by two orders.
  expect(await stockLeft(db, sale.saleId)).toBe(3);
});

it('draws a new payment number when two payments of the same millisecond get the same one', async () => {
  const sale = await makeSale(db, { code: 'same-payment-number', amount: 5, limitPerUser: 1, now: t0 });
  const [first, second] = await makeUsers(db, 2, '3918');
  const ctx = (userId: number) => ({ db, now: t0, channelId: sale.channelId, userId });
  const a = await createOrder(ctx(first!), { saleId: sale.saleId, quantity: 1, idempotencyKey: 'numbers-key-3' }, 300_000);
  const b = await createOrder(ctx(second!), { saleId: sale.saleId, quantity: 1, idempotencyKey: 'numbers-key-4' }, 300_000);
  const provider = sandboxProvider(db, 'test-payment-secret-0123456789abcdef');
  draws.mockReturnValueOnce('11111111').mockReturnValueOnce('11111111');
  const payA = await startPayment({ ...ctx(first!), channelKey: 'AURORA', provider }, a.orderNo);
  const payB = await startPayment({ ...ctx(second!), channelKey: 'AURORA', provider }, b.orderNo);
  expect(payA.paymentNo).toMatch(/11111111$/);
  expect(payB.paymentNo).not.toBe(payA.paymentNo);
});
