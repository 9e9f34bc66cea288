import { and, eq } from 'drizzle-orm';
import { createTestApi, type ApiAnswer, type TestApi } from '@/test/api';
import { campaignOffers, campaigns, sales } from '@/lib/db/schema';
import { demoCode } from '@/lib/demo/seed-data';

// An idempotency key names one request of one user (security review, finding 8): the same user sending a key again for
// another request (on another channel's host, or a gift's key for an exchange and back) gets a 409 naming the field,
// never an HTTP 500, and nothing is taken, spent or sold by the refused call.

process.env.BUY_MAX_LAG_MS = '60000';

const REUSED = {
  status: 200,
  code: 409,
  message: 'This request key was already used for another request. Please refresh the page and try again.',
  data: { field: 'idempotencyKey', reason: 'keyReused' },
};

let api: TestApi;
let tokens: Record<string, string>;

beforeAll(async () => {
  api = await createTestApi();
  const user = await api.buyer('13612340003', 'AURORA');
  tokens = { AURORA: user.token };
  for (const key of ['BAZAAR', 'GIFT', 'PERKS', 'SWAP']) tokens[key] = await api.session(user.userId, key);
});
afterAll(() => api.close());

const hostOf = (channel: string) => `${channel.toLowerCase()}.localhost:3000`;
const as = (channel: string, path: string, body: Record<string, unknown>) =>
  api.callApi(path, body, { host: hostOf(channel), token: tokens[channel] });

function ok(answer: ApiAnswer): Record<string, unknown> {
  expect({ status: answer.status, code: answer.code, message: answer.message }).toEqual({ status: 200, code: 200, message: 'ok' });
  return answer.data as Record<string, unknown>;
}

const refusal = (answer: ApiAnswer) => ({ status: answer.status, code: answer.code, message: answer.message, data: answer.data });

async function saleId(channel: string, code: string): Promise<string> {
  const [row] = await api.db
    .select({ id: sales.id })
    .from(sales)
    .where(and(eq(sales.channelId, await api.channelId(channel)), eq(sales.code, code)));
  return String(row!.id);
}

async function offer(channel: string, code: string): Promise<{ id: string; exchangeId: string }> {
  const [row] = await api.db
    .select({ campaignId: campaigns.id, offerId: campaignOffers.id })
    .from(campaigns)
    .innerJoin(campaignOffers, eq(campaignOffers.campaignId, campaigns.id))
    .where(and(eq(campaigns.channelId, await api.channelId(channel)), eq(campaigns.code, code)))
    .orderBy(campaignOffers.sort)
    .limit(1);
  return { id: String(row!.campaignId), exchangeId: String(row!.offerId) };
}

const stockOf = async (channel: string, id: string) => ok(await as(channel, '/market/api/saleRecord/detail/v2', { id })).amountAvailable;
const giftLeft = async (channel: string, gift: { id: string; exchangeId: string }) =>
  (ok(await as(channel, '/market/api/channel/getGiftConfit', gift)).offer as { remaining: number }).remaining;
const exchangeState = async (channel: string, ex: { id: string; exchangeId: string }) => {
  const detail = ok(await as(channel, '/market/api/exchange/detail', ex)) as {
    offer: { remaining: number };
    mine: { taken: number; inputs: { have: number }[] };
  };
  return { remaining: detail.offer.remaining, taken: detail.mine.taken, have: detail.mine.inputs.map((i) => i.have) };
};

async function buyPaid(channel: string, code: string, quantity: number, key: string): Promise<string> {
  const order = ok(await as(channel, '/market/api/order/create', { saleId: await saleId(channel, code), quantity, idempotencyKey: key }));
  const payment = ok(await as(channel, '/market/api/pay/create', { orderNo: order.orderNo }));
  ok(await as(channel, '/market/api/pay/sandbox/complete', { paymentNo: payment.paymentNo, outcome: 'paid' }));
  return String(order.orderNo);
}

it('refuses an order key the user already used on another channel, and sells nothing for it', async () => {
  const first = ok(
    await as('AURORA', '/market/api/order/create', { saleId: await saleId('AURORA', 'star-fox'), idempotencyKey: 'tap-key-orders-1' }),
  );
  const marketFox = await saleId('BAZAAR', 'bazaar-fox');
  const before = await stockOf('BAZAAR', marketFox);

  // BAZAAR's locale is zh-CN, and this caller names no language: the refusal is in Chinese (docs/api.md, "Languages").
  expect(refusal(await as('BAZAAR', '/market/api/order/create', { saleId: marketFox, idempotencyKey: 'tap-key-orders-1' }))).toEqual({
    ...REUSED,
    message: '请求编号已被其他请求使用，请刷新页面后重试',
  });
  expect(await stockOf('BAZAAR', marketFox)).toBe(before);
  expect(ok(await as('BAZAAR', '/market/api/order/list', {})).total).toBe(0);

  // The key still means its first order where it was used; a fresh key buys on the other channel.
  expect(
    ok(await as('AURORA', '/market/api/order/create', { saleId: await saleId('AURORA', 'star-fox'), idempotencyKey: 'tap-key-orders-1' }))
      .orderNo,
  ).toBe(first.orderNo);
  ok(await as('BAZAAR', '/market/api/order/create', { saleId: marketFox, idempotencyKey: 'tap-key-orders-2' }));
  expect(await stockOf('BAZAAR', marketFox)).toBe(Number(before) - 1);
});

it('refuses an order key the user already used for another sale or quantity in the same store, and sells nothing for it', async () => {
  const fox = await saleId('AURORA', 'star-fox');
  const first = ok(await as('AURORA', '/market/api/order/create', { saleId: fox, idempotencyKey: 'tap-key-orders-3' }));
  const dawn = await saleId('AURORA', 'aurora-dawn');
  const before = await stockOf('AURORA', dawn);

  expect(refusal(await as('AURORA', '/market/api/order/create', { saleId: dawn, idempotencyKey: 'tap-key-orders-3' }))).toEqual(REUSED);
  expect(refusal(await as('AURORA', '/market/api/order/create', { saleId: fox, quantity: 2, idempotencyKey: 'tap-key-orders-3' }))).toEqual(
    REUSED,
  );
  expect(await stockOf('AURORA', dawn)).toBe(before);
  // The same buy sent again is still answered with its order.
  expect(ok(await as('AURORA', '/market/api/order/create', { saleId: fox, idempotencyKey: 'tap-key-orders-3' })).orderNo).toBe(
    first.orderNo,
  );
});

it('refuses a gift key the user already used on another channel, and gives nothing for it', async () => {
  const welcome = await offer('GIFT', 'welcome');
  const first = ok(await as('GIFT', '/goods/api/giftReceive/receive', { ...welcome, idempotencyKey: 'tap-key-gifts-1' }));
  const perk = await offer('PERKS', 'member-perk');
  const before = await giftLeft('PERKS', perk);

  expect(refusal(await as('PERKS', '/goods/api/giftReceive/receive', { ...perk, idempotencyKey: 'tap-key-gifts-1' }))).toEqual(REUSED);
  expect(await giftLeft('PERKS', perk)).toBe(before);
  expect(ok(await as('PERKS', '/market/api/channel/userGiftReceivePage', {})).total).toBe(0);

  expect(ok(await as('GIFT', '/goods/api/giftReceive/receive', { ...welcome, idempotencyKey: 'tap-key-gifts-1' })).id).toBe(first.id);
  ok(await as('PERKS', '/goods/api/giftReceive/receive', { ...perk, idempotencyKey: 'tap-key-gifts-2' }));
  expect(await giftLeft('PERKS', perk)).toBe(before - 1);
});

it('refuses an exchange key the user already used on another channel, and spends nothing for it', async () => {
  const starter = await offer('SWAP', 'starter-cards');
  for (const key of ['tap-key-cards-1', 'tap-key-cards-2'])
    ok(await as('SWAP', '/goods/api/giftReceive/receive', { ...starter, idempotencyKey: key }));
  const badge = await offer('SWAP', 'starter-trade');
  const first = ok(await as('SWAP', '/market/api/exchange/create', { ...badge, idempotencyKey: 'tap-key-trade-1' }));

  await buyPaid('AURORA', 'star-fox', 2, 'tap-key-foxes-1');
  const constellation = await offer('AURORA', 'constellation');
  const before = await exchangeState('AURORA', constellation);
  expect(before.have).toEqual([2]);

  expect(refusal(await as('AURORA', '/market/api/exchange/create', { ...constellation, idempotencyKey: 'tap-key-trade-1' }))).toEqual(
    REUSED,
  );
  expect(await exchangeState('AURORA', constellation)).toEqual(before);

  expect(ok(await as('SWAP', '/market/api/exchange/create', { ...badge, idempotencyKey: 'tap-key-trade-1' })).id).toBe(first.id);
  ok(await as('AURORA', '/market/api/exchange/create', { ...constellation, idempotencyKey: 'tap-key-trade-2' }));
  expect(await exchangeState('AURORA', constellation)).toEqual({ remaining: before.remaining - 1, taken: 1, have: [0] });
});

it("refuses a gift claim with an exchange's key, and keeps the redeem code unused", async () => {
  const crane = await offer('GIFT', 'members-card');
  const code = demoCode('gift-member-crane', 1);
  const before = await giftLeft('GIFT', crane);

  // tap-key-trade-1 made the Swap Club badge above.
  expect(refusal(await as('GIFT', '/goods/api/giftReceive/receive', { ...crane, code, idempotencyKey: 'tap-key-trade-1' }))).toEqual(
    REUSED,
  );
  expect(
    refusal(
      await as('SWAP', '/goods/api/giftReceive/receive', { ...(await offer('SWAP', 'starter-cards')), idempotencyKey: 'tap-key-trade-1' }),
    ),
  ).toEqual(REUSED);
  expect(await giftLeft('GIFT', crane)).toBe(before);

  const claimed = ok(await as('GIFT', '/goods/api/giftReceive/receive', { ...crane, code, idempotencyKey: 'tap-key-crane-1' }));
  expect(claimed).toMatchObject({ byCode: true });
  expect(await giftLeft('GIFT', crane)).toBe(before - 1);
});

it("refuses an exchange with a gift's key", async () => {
  await buyPaid('AURORA', 'star-fox', 1, 'tap-key-foxes-2');
  const comet = await offer('AURORA', 'constellation').then(async (c) => {
    const [second] = await api.db
      .select({ id: campaignOffers.id })
      .from(campaignOffers)
      .where(eq(campaignOffers.campaignId, Number(c.id)))
      .orderBy(campaignOffers.sort)
      .offset(1)
      .limit(1);
    return { id: c.id, exchangeId: String(second!.id) };
  });
  const before = await exchangeState('AURORA', comet);
  // tap-key-gifts-1 received the welcome gift on GIFT, tap-key-cards-1 a starter card on SWAP.
  for (const key of ['tap-key-gifts-1', 'tap-key-cards-1']) {
    expect(
      refusal(await as('AURORA', '/market/api/exchange/create', { ...comet, code: demoCode('star-fox-comet', 1), idempotencyKey: key })),
    ).toEqual(REUSED);
  }
  expect(await exchangeState('AURORA', comet)).toEqual(before);
  ok(
    await as('AURORA', '/market/api/exchange/create', { ...comet, code: demoCode('star-fox-comet', 1), idempotencyKey: 'tap-key-comet-1' }),
  );
});
