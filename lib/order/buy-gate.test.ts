import { and, eq, gt, lte } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { channels, sales } from '@/lib/db/schema';
import { gateBuyCall } from './buy-gate';

// The buy lane's gate (issue 29, finding 2): a buy of a sale that has not opened is answered at the door exactly as
// order/create answers it, so it never waits in the line for the opening; anything else goes in.

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
