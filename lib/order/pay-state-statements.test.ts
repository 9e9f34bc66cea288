import { countingTestDb, type CountingDb } from '@/test/statements';
import { makeSale, makeUsers } from '@/test/buying';
import { buyerIdentities, type ChannelRow, type IdentityPolicyJson } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { createOrder } from './service';
import { readPayState } from './pay-state';

// issue 34: `saleRecord/payState` is what every buyer of a drop calls once the pay page is in; it must cost about what
// a no-op call costs, so the buyer's part (quota, unpaid order, real-name standing) is read in ONE statement.

const now = new Date('2026-11-22T08:00:00Z');
let db: Db;
let channel: ChannelRow;
let statementsOf: CountingDb['statementsOf'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, channel, statementsOf, close } = await countingTestDb(now));
});
afterAll(() => close());

it('reads quota, unpaid order and real-name standing in one statement, whatever the channel asks', async () => {
  const sale = await makeSale(db, { code: 'pay-state-one', amount: 10, limitPerUser: 3, price: 500, now });
  const [userId] = (await makeUsers(db, 1, '3499')) as [number];
  const strict: IdentityPolicyJson = { realName: { buy: true }, minAge: 18 };
  const scope = (identityPolicy: IdentityPolicyJson) => ({
    db,
    now,
    channelId: channel.id,
    userId,
    channel: { ...channel, identityPolicy, timeZone: 'Asia/Shanghai' },
  });
  const ask = (identityPolicy: IdentityPolicyJson) =>
    readPayState(scope(identityPolicy), sale.saleId, { locale: 'zh-CN', cookieHeader: null });

  await ask({}); // the sale's terms come from the process's cache from here on
  expect(await statementsOf(() => ask({}))).toHaveLength(1);

  // Under the channel's real-name rule, unverified: still one statement, and the standing is right.
  let state!: Awaited<ReturnType<typeof readPayState>>;
  expect(await statementsOf(async () => (state = await ask(strict)))).toHaveLength(1);
  expect(state.identity.standing).toBe('unverified');

  // Verified but 16, with an unpaid order: one statement, every part of it read.
  await db.insert(buyerIdentities).values({
    userId,
    idHash: 'pay-state-one',
    nameSealed: 'sealed',
    idNumberSealed: 'sealed',
    keyId: 'test',
    birthDate: '2010-01-01',
    maskedName: '李*',
    maskedIdNumber: '1101**********0000',
    provider: 'demo',
    verifiedAt: now,
  });
  const order = await createOrder(
    { db, now, channelId: channel.id, userId },
    { saleId: sale.saleId, quantity: 2, idempotencyKey: 'pay-state-one' },
    300_000,
  );
  expect(await statementsOf(async () => (state = await ask(strict)))).toHaveLength(1);
  expect(state).toMatchObject({
    held: 2,
    left: 1,
    identity: { standing: 'underAge' },
    unpaidOrder: { orderNo: order.orderNo, quantity: 2, amount: 1000, expireTime: order.expireTime },
  });
  expect((await ask({})).identity.standing).toBe('ok');
});
