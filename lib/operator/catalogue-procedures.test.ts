import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { operatorAudit, sales } from '@/lib/db/schema';

// The Catalogue and Sales tabs' calls (issue 32): who may do what, one audit entry per write, refusals naming the field.

process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let support: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'sales.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'aurora.manager', role: 'manager', channels: ['AURORA'], now: before });
  support = await signedInOperator(api.db, { name: 'aurora.support', role: 'support', channels: ['AURORA'], now: before });
});
afterAll(() => api.close());

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });
const auditOf = (procedure: string) => api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure));
const saleRow = async (code: string) => (await api.db.select().from(sales).where(eq(sales.code, code)))[0]!;

it("refuses a manager pausing another channel's sale, as if it did not exist, and changes nothing", async () => {
  const before = await saleRow('lumen-sunrise');
  const answer = await as(manager)('/ops/api/sale/pause', { channel: 'LUMEN', sale: 'lumen-sunrise', paused: true });
  expect(answer.code).toBe(404);
  expect(await saleRow('lumen-sunrise')).toEqual(before);
  expect(await auditOf('sale/pause')).toEqual([]);
  // A sale of the manager's own channel named with another channel's key is not found either.
  expect((await as(manager)('/ops/api/sale/pause', { channel: 'AURORA', sale: 'lumen-sunrise', paused: true })).code).toBe(404);
});

it('lets support read sales but not change them', async () => {
  const list = await as(support)('/ops/api/sale/list', { channel: 'AURORA' });
  expect(list.code).toBe(200);
  expect((list.data as { sales: { code: string; state: string }[] }).sales).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ code: 'star-fox', state: 'live' }),
      expect.objectContaining({ code: 'paper-crane', state: 'soldOut' }),
    ]),
  );
  expect((await as(support)('/ops/api/sale/addCopies', { channel: 'AURORA', sale: 'star-fox', copies: 1 })).code).toBe(403);
});

it("lets a manager run their channel's drop: pause, resume and add copies, each audited once with before and after", async () => {
  const call = as(manager);
  const paused = await call('/ops/api/sale/pause', { channel: 'AURORA', sale: 'star-fox', paused: true });
  expect(paused.data).toMatchObject({ state: 'paused' });
  expect((await call('/ops/api/sale/pause', { channel: 'AURORA', sale: 'star-fox', paused: false })).data).toMatchObject({ state: 'live' });
  const before = await saleRow('star-fox');
  const added = await call('/ops/api/sale/addCopies', { channel: 'AURORA', sale: 'star-fox', copies: 50 });
  expect(added.data).toMatchObject({ copies: before.amount + 50, copiesLeft: before.amountAvailable + 50 });
  const entries = await auditOf('sale/addCopies');
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ operatorName: 'aurora.manager', before: expect.objectContaining({ copies: before.amount }) });
  expect(await auditOf('sale/pause')).toHaveLength(2);
});

it('refuses odds of 9999 basis points with the field named, in both languages', async () => {
  const call = as(owner);
  const box = { channel: 'AURORA', box: 'aurora-mystery-box' };
  const prizes = [
    { collectible: 'crystal-owl', weight: 7000, value: 100 },
    { collectible: 'ember-phoenix', weight: 2500, value: 1000 },
    { collectible: 'frost-lynx', weight: 499, value: 10000 },
  ];
  const en = await call('/ops/api/catalogue/setPrizes', { ...box, prizes });
  expect(en).toMatchObject({ code: 400, data: { field: 'prizes' } });
  expect(en.message).toContain('99.99%');
  const zh = await api.callApi(
    '/ops/api/catalogue/setPrizes',
    { ...box, prizes },
    {
      host: OPS_HOST,
      headers: { cookie: owner.cookie, 'accept-language': 'zh-CN' },
    },
  );
  expect(zh.message).toContain('概率合计为 99.99%');
  expect(await auditOf('catalogue/setPrizes')).toEqual([]);
  prizes[2]!.weight = 500;
  const set = await call('/ops/api/catalogue/setPrizes', { ...box, prizes });
  expect(set.code).toBe(200);
  expect((set.data as { prizes: { percent: string }[] }).prizes.map((p) => p.percent)).toEqual(['70%', '25%', '5%']);
});

it('refuses a price change on a sale with orders, naming price and saying why', async () => {
  const detail = (await as(owner)('/ops/api/sale/detail', { channel: 'AURORA', sale: 'star-fox' })).data as Record<string, unknown>;
  // The demo's sales carry copies sold before it began, but no order rows: make one the way a buyer would.
  const buyer = await api.buyer('13912343401');
  const [row] = await api.db.select().from(sales).where(eq(sales.code, 'star-fox'));
  const bought = await api.callApi(
    '/market/api/order/create',
    { saleId: String(row!.id), quantity: 1, idempotencyKey: 'frozen-price-0001' },
    { token: buyer.token },
  );
  expect(bought.code).toBe(200);
  const terms = {
    channel: 'AURORA',
    sale: 'star-fox',
    price: (detail.price as number) + 100,
    copies: detail.copies,
    limitPerUser: detail.limitPerUser,
    saleStartTime: detail.saleStartTime,
    saleEndTime: detail.saleEndTime,
    listed: detail.listed,
    sort: detail.sort,
  };
  const refused = await as(owner)('/ops/api/sale/edit', terms);
  expect(refused).toMatchObject({ code: 400, data: { field: 'price' } });
  expect(refused.message).toMatch(/price cannot change.*already has orders/);
  expect((await saleRow('star-fox')).price).toBe(detail.price);
});
