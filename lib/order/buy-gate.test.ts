import { and, eq, gt, lte } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { channels, orders, sales } from '@/lib/db/schema';
import { makeSale } from '@/test/buying';
import { signedInOperator } from '@/test/operator-fixtures';
import { lotteryStory } from '@/test/lottery-fixtures';
import { signAdmission } from '@/lib/sale/queue';
import { gateBuyCall } from './buy-gate';

// The buy lane's gate (issue 29, finding 2): a buy of a sale that has not opened is answered at the door exactly as
// order/create answers it, so it never waits in the line for the opening; anything else goes in.

// Shedding by event-loop lag has its own test (lib/server/load-shedding.test.ts); a loaded machine must not shed these buys.
process.env.BUY_MAX_LAG_MS = '60000';

const BUY = '/market/api/order/create';

let api: TestApi;
let buyer: TestBuyer;
let comingSoon: number;
let onSale: number;
let otherChannelsSale: number;

const channelSale = async (key: string, open: boolean) => {
  const [row] = await api.db
    .select({ id: sales.id })
    .from(sales)
    .innerJoin(channels, eq(channels.id, sales.channelId))
    .where(and(eq(channels.key, key), open ? lte(sales.saleStartTime, api.now) : gt(sales.saleStartTime, api.now)))
    .limit(1);
  return row!.id;
};

beforeAll(async () => {
  api = await createTestApi();
  buyer = await api.buyer('13912340101');
  comingSoon = await channelSale('AURORA', false);
  onSale = await channelSale('AURORA', true);
  otherChannelsSale = await channelSale('LUMEN', true);
});
afterAll(() => api.close());

const gate = (body: unknown, headers: Record<string, string> = {}) =>
  gateBuyCall(
    {
      headers: { host: 'aurora.localhost:3000', authorization: buyer.token, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    { db: api.db, now: api.now },
  );

it.each(['en', 'zh-CN'])('answers a buy of a sale that has not opened as the buy itself does (%s)', async (language) => {
  const body = { saleId: String(comingSoon), quantity: 1, idempotencyKey: 'gate-test-key-0001' };
  const answer = await gate(body, { 'accept-language': language });
  const buy = await api.callApi(BUY, body, { token: buyer.token, headers: { 'accept-language': language } });
  expect(buy.code).toBe(409);
  expect(answer).toEqual({ status: 200, body: buy.text });
  expect(JSON.parse(answer!.body)).toMatchObject({ code: 409, data: { reason: 'notOpen' } });
});

it('answers with the session cookie as the only credential too', async () => {
  const cookie = await api.webCookie(buyer.token, buyer, 'AURORA');
  const answer = await gateBuyCall(
    {
      headers: { host: 'aurora.localhost:3000', cookie: `next-auth.session-token=${cookie}` },
      body: JSON.stringify({ saleId: comingSoon }),
    },
    { db: api.db, now: api.now },
  );
  expect(JSON.parse(answer!.body)).toMatchObject({ code: 409, data: { reason: 'notOpen' } });
});

it('lets in everything it is not sure of, for the buy to answer', async () => {
  // An open sale, a sale of another channel, one that does not exist.
  expect(await gate({ saleId: String(onSale) })).toBeNull();
  expect(await gate({ saleId: String(otherChannelsSale) })).toBeNull();
  expect(await gate({ saleId: '999999' })).toBeNull();
  // Not a buy: no JSON, no object, no sale id, a bad one.
  for (const body of ['', 'nope', '[]', 'null', '{}', '{"saleId":"x"}', '{"saleId":-1}']) expect(await gate(body)).toBeNull();
  // A host that is no channel.
  expect(await gate({ saleId: String(comingSoon) }, { host: 'nowhere.localhost:3000' })).toBeNull();
  // No credential: the dispatcher answers 401 before anything about the payload (security finding 15).
  expect(
    await gateBuyCall(
      { headers: { host: 'aurora.localhost:3000' }, body: JSON.stringify({ saleId: comingSoon }) },
      { db: api.db, now: api.now },
    ),
  ).toBeNull();
});

it('lets the buy in from the opening on', async () => {
  const [row] = await api.db.select({ start: sales.saleStartTime }).from(sales).where(eq(sales.id, comingSoon));
  const answer = await gateBuyCall(
    { headers: { host: 'aurora.localhost:3000', authorization: buyer.token }, body: JSON.stringify({ saleId: comingSoon }) },
    { db: api.db, now: row!.start },
  );
  expect(answer).toBeNull();
});

// issue 35, the waiting room: a buy of an open sale through a waiting room without a valid admission is answered at the
// door as order/create answers it (missing, not this store's, another sale's), so a crowd without admissions takes no
// place in the line; what the door cannot tell without the buyer (another buyer's, an expired one) goes in.
describe('a sale through a waiting room', () => {
  let queued: number;
  let otherQueued: number;
  let open: Date;
  let keys = 0;

  beforeAll(async () => {
    const owner = await signedInOperator(api.db, { name: 'gate.owner', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
    const story = lotteryStory(api, owner, '192.0.2.211');
    const opening = new Date(api.now.getTime() + 60 * 60_000);
    open = new Date(opening.getTime() + 10_000);
    const queueSale = async (code: string) => {
      const { saleId } = await makeSale(api.db, { code, amount: 3, limitPerUser: 1, now: api.now });
      await api.db.update(sales).set({ saleStartTime: opening }).where(eq(sales.id, saleId));
      expect(await story.ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: code, joinMinutes: 10 })).toMatchObject({ code: 200 });
      return saleId;
    };
    queued = await queueSale('gate-queue');
    otherQueued = await queueSale('gate-queue-other');
  }, 120_000);

  const buyBody = (admission?: string, extra: Record<string, unknown> = {}) => ({
    saleId: String(queued),
    quantity: 1,
    idempotencyKey: `gate-queue-key-${++keys}`,
    ...(admission === undefined ? {} : { admission }),
    ...extra,
  });
  const atDoor = (body: unknown, language = 'en', who: TestBuyer = buyer) =>
    gateBuyCall(
      {
        headers: { host: 'aurora.localhost:3000', authorization: who.token, 'accept-language': language },
        body: JSON.stringify(body),
      },
      { db: api.db, now: open },
    );
  const buy = (body: unknown, language = 'en', who: TestBuyer = buyer) =>
    api.callApi(BUY, body, { token: who.token, now: open, headers: { 'accept-language': language } });
  const live = () => new Date(open.getTime() + 60_000);

  it.each([
    ['missing', 'missing', () => undefined, 'This sale goes through a waiting room: join it on the sale’s page', '本商品需排队购买'],
    ['malformed', 'forged', () => 'anything', 'This admission was not given by this store', '该购买资格并非本店发放'],
    [
      'signed wrongly',
      'forged',
      () => `${signAdmission(queued, buyer.userId, live()).slice(0, -2)}AA`,
      'This admission was not given by this store',
      '该购买资格并非本店发放',
    ],
    [
      'signed with another secret',
      'forged',
      () => signAdmission(queued, buyer.userId, live(), 'another store’s secret'),
      'This admission was not given by this store',
      '该购买资格并非本店发放',
    ],
    [
      'of another sale',
      'otherSale',
      () => signAdmission(otherQueued, buyer.userId, live()),
      'This admission is for another sale',
      '该购买资格属于其他商品',
    ],
  ])(
    'refuses at the door a buy whose admission is %s (%s), as the buy itself does, in both languages',
    async (_, why, admission, en, zh) => {
      for (const [language, words] of [
        ['en', en],
        ['zh-CN', zh],
      ] as const) {
        const body = buyBody(admission());
        const answer = await atDoor(body, language);
        const bought = await buy(body, language);
        expect(bought).toMatchObject({ code: 409, data: { reason: 'notAdmitted', queue: why, field: 'admission' } });
        expect(bought.message.startsWith(words)).toBe(true);
        expect(answer).toEqual({ status: 200, body: bought.text });
      }
      expect(await api.db.select().from(orders).where(eq(orders.saleId, queued))).toHaveLength(0);
    },
  );

  it('lets in a valid admission, and what it cannot tell without the buyer: another buyer’s, an expired one', async () => {
    const other = await api.buyer('13912340102');
    expect(await atDoor(buyBody(signAdmission(queued, buyer.userId, live())))).toBeNull();
    // Another buyer's: told apart by the buyer, whom the door does not read.
    const othersBody = buyBody(signAdmission(queued, other.userId, live()));
    expect(await atDoor(othersBody)).toBeNull();
    expect(await buy(othersBody)).toMatchObject({ code: 409, data: { queue: 'otherBuyer' } });
    // Expired: the buy names another buyer's admission before its expiry, and a retried tap that made its order with it
    // gets that order.
    const expiredBody = buyBody(signAdmission(queued, buyer.userId, open));
    expect(await atDoor(expiredBody)).toBeNull();
    expect(await buy(expiredBody)).toMatchObject({ code: 409, data: { queue: 'expired' } });
  });

  it('lets in a retried tap whose admission ran out since its order was made, and the buy answers that order', async () => {
    const tapper = await api.buyer('13912340103');
    const body = buyBody(signAdmission(queued, tapper.userId, new Date(open.getTime() + 1_000)));
    const made = await buy(body, 'en', tapper);
    expect(made).toMatchObject({ code: 200, data: { saleId: String(queued), quantity: 1 } });
    const later = new Date(open.getTime() + 5_000);
    const again = await gateBuyCall(
      { headers: { host: 'aurora.localhost:3000', authorization: tapper.token }, body: JSON.stringify(body) },
      { db: api.db, now: later },
    );
    expect(again).toBeNull();
    const retried = await api.callApi(BUY, body, { token: tapper.token, now: later });
    expect(retried).toMatchObject({ code: 200, data: { orderNo: (made.data as { orderNo: string }).orderNo } });
  });

  it('lets in a lottery sale’s buy: its refusals need the buyer’s rank, a read, so the buy answers them', async () => {
    const owner = await signedInOperator(api.db, { name: 'gate.lottery', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
    const story = lotteryStory(api, owner, '192.0.2.212');
    const { saleId } = await makeSale(api.db, { code: 'gate-lottery', amount: 3, limitPerUser: 1, now: api.now });
    expect(await story.ops('/ops/api/sale/lottery/set', story.settings('gate-lottery'))).toMatchObject({ code: 200 });
    const body = { saleId: String(saleId), quantity: 1, idempotencyKey: `gate-lottery-key-${++keys}` };
    const when = story.at(2.5);
    const answer = await gateBuyCall(
      { headers: { host: 'aurora.localhost:3000', authorization: buyer.token }, body: JSON.stringify(body) },
      { db: api.db, now: when },
    );
    expect(answer).toBeNull();
    expect(await api.callApi(BUY, body, { token: buyer.token, now: when })).toMatchObject({ code: 409, data: { reason: 'notAdmitted' } });
  });

  it('lets in a buy the buy answers before the admission: a bad input, over the limit, before the opening', async () => {
    // No idempotency key, a quantity that is no number: the buy's 400 naming the field.
    expect(await atDoor({ saleId: String(queued) })).toBeNull();
    expect(await atDoor(buyBody(undefined, { quantity: 'two' }))).toBeNull();
    // Over the per-buyer limit: the buy's 400 on the quantity comes first.
    const over = buyBody(undefined, { quantity: 2 });
    expect(await atDoor(over)).toBeNull();
    expect(await buy(over)).toMatchObject({ code: 400, data: { field: 'quantity' } });
    // Before the opening the door answers "not open yet", whatever the admission.
    const early = await gateBuyCall(
      { headers: { host: 'aurora.localhost:3000', authorization: buyer.token }, body: JSON.stringify(buyBody()) },
      { db: api.db, now: api.now },
    );
    expect(JSON.parse(early!.body)).toMatchObject({ code: 409, data: { reason: 'notOpen' } });
  });
});
