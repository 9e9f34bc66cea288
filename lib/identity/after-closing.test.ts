import { and, eq, isNull } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { makeSale } from '@/test/buying';
import { signedInOperator } from '@/test/operator-fixtures';
import { lotteryStory, type LotteryStory } from '@/test/lottery-fixtures';
import { buyerBlocks, buyerIdentities, channels, orders } from '../db/schema';
import { residentIdCheckDigit } from '../format/resident-id';
import { IDENTITY_CONSENT_VERSION } from './consent';

// A busy machine's event loop must not shed these buys as a drop's would (lib/server/dispatcher.ts).
process.env.BUY_MAX_LAG_MS = '60000';

// Issue 36: "the phone may register anew, while a keyed hash of a verified identity is kept for the stated period so
// limits and blocklists still apply". A person who closed their account verifies a new one with the same identity, and
// is the same buyer there: the closed account's paid copies count towards the sale's per-buyer limit, its lottery
// registration is theirs, and a block of the identity still keeps them out. Runs on PGlite, and on PostgreSQL under
// scripts/with-postgres.sh.

let api: TestApi;
let story: LotteryStory;
beforeAll(async () => {
  api = await createTestApi({ now: new Date('2026-11-28T08:00:00Z') });
  await api.db
    .update(channels)
    .set({ identityPolicy: { realName: { buy: true } } })
    .where(eq(channels.key, 'AURORA'));
  const owner = await signedInOperator(api.db, { name: 'closing.owner', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
  story = lotteryStory(api, owner, '192.0.2.210');
}, 120_000);
afterAll(() => api.close());

const personOf = (first17: string, name: string) => ({ name, idNumber: first17 + residentIdCheckDigit(first17) });

const verify = (buyer: TestBuyer, person: { name: string; idNumber: string }, now = api.now) =>
  api.callApi('/market/api/identity/verify', { consentVersion: IDENTITY_CONSENT_VERSION, ...person }, { token: buyer.token, now });
const buy = (buyer: TestBuyer, saleId: number, key: string, now = api.now) =>
  api.callApi('/market/api/order/create', { saleId: String(saleId), quantity: 1, idempotencyKey: key }, { token: buyer.token, now });

/** The buyer's unpaid orders marked paid, as a payment's notification would. */
async function pay(buyer: TestBuyer): Promise<void> {
  await api.db
    .update(orders)
    .set({ statusTrade: 1, payTime: api.now, cancelTime: null })
    .where(and(eq(orders.userId, buyer.userId), eq(orders.statusTrade, 0)));
}

/** Closes the buyer's account with a closing code, as the closing page does. */
async function close(buyer: TestBuyer, now = api.now): Promise<void> {
  const sent = await api.callApi('/market/api/profile/closeCode', {}, { token: buyer.token, now });
  expect(sent.body.code).toBe(200);
  const code = (sent.data as { demoCode: string }).demoCode;
  const closed = await api.callApi('/market/api/profile/close', { code }, { token: buyer.token, now });
  expect(closed.data).toEqual({ closed: true });
}

it('a returning person verifies a new account, whose per-buyer limit counts the closed account’s paid copy', async () => {
  jest.spyOn(console, 'info').mockImplementation(() => {});
  const person = personOf('44030519900615124', '陈回来');
  const sale = await makeSale(api.db, { code: 'after-closing-limit', amount: 10, limitPerUser: 2, now: api.now });
  const first = await api.buyer('13912361001');
  expect((await verify(first, person)).code).toBe(200);
  expect((await buy(first, sale.saleId, 'after-closing-1')).code).toBe(200);
  await pay(first);
  await close(first);

  // The same phone signs up anew and verifies the same identity: allowed now (it was refused with identityInUse).
  const again = await api.buyer('13912361001');
  expect(again.userId).not.toBe(first.userId);
  const verified = await verify(again, person);
  expect({ code: verified.code, reason: verified.body.data?.reason }).toEqual({ code: 200, reason: undefined });

  // One copy is left of the limit of 2: the closed account's paid copy is the same person's.
  expect((await buy(again, sale.saleId, 'after-closing-2')).code).toBe(200);
  const over = await buy(again, sale.saleId, 'after-closing-3');
  expect({ code: over.code, reason: over.body.data?.reason }).toEqual({ code: 409, reason: 'limit' });

  // The closed account's row is kept (closed), the new one is the identity's open row.
  const rows = await api.db
    .select({ userId: buyerIdentities.userId, closed: buyerIdentities.closedAt })
    .from(buyerIdentities)
    .where(eq(buyerIdentities.maskedName, '陈**'));
  expect(rows.map((r) => ({ userId: r.userId, closed: r.closed !== null })).sort((a, b) => a.userId - b.userId)).toEqual([
    { userId: first.userId, closed: true },
    { userId: again.userId, closed: false },
  ]);

  // Another phone of the same person still cannot verify while an open account holds the identity.
  const other = await api.buyer('13912361002');
  const refused = await verify(other, person);
  expect({ code: refused.code, reason: refused.body.data?.reason }).toEqual({ code: 409, reason: 'identityInUse' });
});

it('a person who closes and comes back twice carries each count once', async () => {
  const person = personOf('11010519850302123', '王二回');
  const sale = await makeSale(api.db, { code: 'after-closing-twice', amount: 10, limitPerUser: 3, now: api.now });
  const first = await api.buyer('13912362001');
  expect((await verify(first, person)).code).toBe(200);
  expect((await buy(first, sale.saleId, 'after-closing-twice-1')).code).toBe(200);
  await pay(first);
  await close(first);

  const second = await api.buyer('13912362001');
  expect((await verify(second, person)).code).toBe(200);
  expect((await buy(second, sale.saleId, 'after-closing-twice-2')).code).toBe(200);
  await pay(second);
  // A minute later: one closing code a minute per phone, as for login codes.
  await close(second, new Date(api.now.getTime() + 120_000));

  // Two copies in all so far: one left of 3, not none (the first account's copy is not counted twice).
  const third = await api.buyer('13912362001');
  expect((await verify(third, person)).code).toBe(200);
  expect((await buy(third, sale.saleId, 'after-closing-twice-3')).code).toBe(200);
  expect((await buy(third, sale.saleId, 'after-closing-twice-4')).code).toBe(409);
});

it('a lottery registration made by the closed account keeps the new account of the same identity from registering', async () => {
  const person = personOf('31010419920817123', '李抽签');
  const { saleId } = await makeSale(api.db, { code: 'after-closing-lottery', amount: 1, limitPerUser: 1, now: api.now });
  expect((await story.ops('/ops/api/sale/lottery/set', story.settings('after-closing-lottery'))).code).toBe(200);
  const register = (buyer: TestBuyer) =>
    api.callApi('/market/api/lottery/register', { saleId: String(saleId) }, { token: buyer.token, now: story.at(1.1) });

  const first = await api.buyer('13912363001');
  expect((await verify(first, person)).code).toBe(200);
  expect((await register(first)).code).toBe(200);
  await close(first);

  const again = await api.buyer('13912363001');
  expect((await verify(again, person)).code).toBe(200);
  const refused = await register(again);
  expect({ code: refused.code, message: refused.message }).toEqual({
    code: 409,
    message: expect.stringMatching(/already registered/i),
  });
});

it('a blocked identity stays blocked on the new account', async () => {
  const person = personOf('51010719881123123', '赵被封');
  const sale = await makeSale(api.db, { code: 'after-closing-block', amount: 10, limitPerUser: 2, now: api.now });
  const first = await api.buyer('13912364001');
  expect((await verify(first, person)).code).toBe(200);
  await close(first);
  const [kept] = await api.db
    .select({ idHash: buyerIdentities.idHash })
    .from(buyerIdentities)
    .where(eq(buyerIdentities.userId, first.userId));
  // An operator's block of the identity, on every channel (as the console adds it from the buyer's page).
  await api.db
    .insert(buyerBlocks)
    .values({ kind: 'identity', value: kept!.idHash, userId: first.userId, reason: 'resale ring', blockedAt: api.now });

  const again = await api.buyer('13912364001');
  await verify(again, person);
  const refused = await buy(again, sale.saleId, 'after-closing-blocked-1');
  expect(refused.code).toBe(403);
  expect(
    await api.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, again.userId), isNull(orders.cancelTime))),
  ).toEqual([]);
});
