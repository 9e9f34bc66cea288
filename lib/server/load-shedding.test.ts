import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers, stockLeft } from '@/test/buying';
import { dispatch } from '@/lib/server/dispatcher';
import { createSession } from '@/lib/auth/sessions';

// Load shedding by event-loop lag (DESIGN §5): when this process answers slower than buyers arrive, buy calls get a
// fast "busy" instead of a place in a long line; when the line is gone, they are served again.

process.env.BUY_MAX_IN_FLIGHT = '1000';
process.env.BUY_MAX_LAG_MS = '200';

const now = new Date('2026-11-22T08:00:00Z');

const db = seededTestDb(now);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop busy, as a queue of requests does. */
function blockLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}

it('sheds buy calls while the event loop runs late, with HTTP 503 and code 1001, and serves them again after', async () => {
  const sale = await makeSale(db, { code: 'lag', amount: 10, limitPerUser: 1, now });
  const [a, b] = await makeUsers(db, 2, '3690');
  const tokens = await Promise.all(
    [a!, b!].map(async (userId) => (await createSession(db, { userId, channelId: sale.channelId, now, ip: null })).token),
  );
  const buy = (token: string, key: string) =>
    dispatch(
      {
        method: 'POST',
        path: '/market/api/order/create',
        host: 'aurora.localhost:3000',
        body: JSON.stringify({ saleId: String(sale.saleId), idempotencyKey: key }),
        headers: new Headers({ authorization: token }),
        ip: '10.0.0.1',
      },
      { db, now },
    );

  expect((await buy(tokens[0]!, 'lag-tap-0001')).body.code).toBe(200);
  await sleep(150);

  blockLoop(400);
  const shed = await buy(tokens[1]!, 'lag-tap-0002');
  expect(shed.status).toBe(503);
  expect(shed.body.code).toBe(1001);
  expect(shed.headers?.['retry-after']).toBe('1');
  expect(await stockLeft(db, sale.saleId)).toBe(9);

  // Once the loop is on time again, the same tap goes through.
  let again = await buy(tokens[1]!, 'lag-tap-0002');
  for (let i = 0; again.status === 503 && i < 20; i++) {
    await sleep(100);
    again = await buy(tokens[1]!, 'lag-tap-0002');
  }
  expect(again.status).toBe(200);
  expect(again.body.code).toBe(200);
  expect(await stockLeft(db, sale.saleId)).toBe(8);
});
