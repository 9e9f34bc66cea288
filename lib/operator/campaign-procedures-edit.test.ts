import { and, eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { campaigns, commodities, operatorAudit } from '@/lib/db/schema';

// issue 32, "the console edits what it made", through the calls: an owner edits a gift a buyer already received (the
// collectible given and the opening time refused naming the field, in the operator's language; the closing time
// moves), ends it now; each write is one audit entry with the record before and after. A manager of another channel
// finds nothing to edit or end, and support cannot write.

let api: TestApi;
let owner: TestOperator;
let lumenManager: TestOperator;
let support: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'edit.owner', role: 'owner', now: before });
  lumenManager = await signedInOperator(api.db, { name: 'edit.lumen', role: 'manager', channels: ['LUMEN'], now: before });
  support = await signedInOperator(api.db, { name: 'edit.support', role: 'support', channels: ['AURORA'], now: before });
}, 120_000);
afterAll(() => api.close());

const as =
  (op: TestOperator, lang = 'en') =>
  (path: string, body: unknown) =>
    api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie, 'accept-language': lang } });

function ok(answer: { code: number; message: string; data: unknown }) {
  expect({ code: answer.code, message: answer.message }).toEqual({ code: 200, message: 'ok' });
  return answer.data as Record<string, unknown>;
}

async function commodityId(code: string): Promise<number> {
  const [row] = await api.db.select({ id: commodities.id }).from(commodities).where(eq(commodities.code, code));
  return row!.id;
}

const entriesOf = (procedure: string) => api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure));

let gift: { id: number; startTime: string };
let offerId: number;
let chainId: number;

describe('an owner edits a gift a buyer already received', () => {
  const call = (path: string, body: unknown, lang?: string) => as(owner, lang)(path, body);
  const campaignEdit = (change: Record<string, unknown>) => ({
    channel: 'AURORA',
    campaignId: gift.id,
    code: 'edit-console',
    name: 'Edited gift',
    startTime: gift.startTime,
    endTime: null,
    ...change,
  });

  it('refuses what the buyer relied on, naming the field; moves the closing time; ends it now; one audit entry each', async () => {
    gift = ok(
      await call('/ops/api/campaign/create', {
        channel: 'AURORA',
        kind: 'gift',
        code: 'edit-console',
        name: 'Edited gift',
        startTime: new Date(api.now.getTime() - 3_600_000).toISOString(),
        endTime: null,
      }),
    ) as typeof gift;
    const offer = ok(
      await call('/ops/api/campaign/offer/create', {
        channel: 'AURORA',
        campaignId: gift.id,
        commodity: await commodityId('star-fox'),
        total: 10,
      }),
    );
    offerId = offer.id as number;
    const buyer = await api.buyer('13912340001', 'AURORA');
    const claimed = await api.callApi(
      '/goods/api/giftReceive/receive',
      { id: String(gift.id), exchangeId: String(offerId), idempotencyKey: 'edit-console-1' },
      { token: buyer.token },
    );
    expect(claimed.code).toBe(200);

    const gives = await call(
      '/ops/api/campaign/offer/update',
      { channel: 'AURORA', offerId, total: 10, limitPerUser: 1, commodity: await commodityId('crystal-owl') },
      'zh-CN',
    );
    expect({ code: gives.code, field: (gives.data as { field: string }).field, message: gives.message }).toEqual({
      code: 400,
      field: 'commodity',
      message: '赠送的藏品已不能修改：已有买家按这些条件领取或兑换。结束时间和数量仍可修改',
    });
    const opens = await call('/ops/api/campaign/update', campaignEdit({ startTime: api.now.toISOString() }));
    expect({ code: opens.code, field: (opens.data as { field: string }).field }).toEqual({ code: 400, field: 'startTime' });

    const closes = new Date(api.now.getTime() + 48 * 3_600_000).toISOString();
    expect(ok(await call('/ops/api/campaign/update', campaignEdit({ endTime: closes }))).endTime).toBe(closes);
    ok(await call('/ops/api/campaign/offer/update', { channel: 'AURORA', offerId, total: 20, limitPerUser: 1 }));
    const ended = ok(await call('/ops/api/campaign/end', { channel: 'AURORA', campaignId: gift.id }));
    expect(ended).toMatchObject({ endTime: api.now.toISOString(), taken: 1 });
    const [row] = await api.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, gift.id)));
    expect(row!.endTime).toEqual(api.now);

    const [update] = await entriesOf('campaign/update');
    expect(update).toMatchObject({ before: { endTime: null }, after: { endTime: closes } });
    const end = await entriesOf('campaign/end');
    expect(end).toHaveLength(1);
    expect(end[0]).toMatchObject({ operatorName: 'edit.owner', before: { endTime: closes }, after: { endTime: api.now.toISOString() } });
    // The refused edits left no entry: only the one count change.
    expect(await entriesOf('campaign/offer/update')).toHaveLength(1);
  });

  it('ends a chain-up campaign now, one audit entry', async () => {
    const chain = ok(
      await call('/ops/api/campaign/chain/create', {
        channel: 'AURORA',
        name: 'Edit chain',
        commodity: await commodityId('star-fox'),
        authorStageName: 'Artist',
        startTime: new Date(api.now.getTime() - 3_600_000).toISOString(),
        endTime: null,
      }),
    );
    chainId = chain.id as number;
    expect(ok(await call('/ops/api/campaign/chain/end', { channel: 'AURORA', campaignId: chainId })).endTime).toBe(api.now.toISOString());
    const again = await call('/ops/api/campaign/chain/end', { channel: 'AURORA', campaignId: chainId });
    expect({ code: again.code, field: (again.data as { field: string }).field }).toEqual({ code: 400, field: 'campaignId' });
    expect(await entriesOf('campaign/chain/end')).toHaveLength(1);
  });
});

describe('roles', () => {
  it('a manager of another channel cannot edit or end this channel’s campaigns, by its key or by their own', async () => {
    const lumen = as(lumenManager);
    const tries: [string, Record<string, unknown>][] = [
      ['/ops/api/campaign/update', { campaignId: gift.id, code: 'x', name: 'x', startTime: gift.startTime, endTime: null }],
      ['/ops/api/campaign/offer/update', { offerId, total: 1, limitPerUser: 1 }],
      ['/ops/api/campaign/end', { campaignId: gift.id }],
      ['/ops/api/campaign/chain/end', { campaignId: chainId }],
    ];
    for (const [path, body] of tries) {
      expect({ path, code: (await lumen(path, { channel: 'AURORA', ...body })).code }).toEqual({ path, code: 404 });
      expect({ path, code: (await lumen(path, { channel: 'LUMEN', ...body })).code }).toEqual({ path, code: 404 });
    }
    expect((await as(support)('/ops/api/campaign/end', { channel: 'AURORA', campaignId: gift.id })).code).toBe(403);
    const [row] = await api.db.select().from(campaigns).where(eq(campaigns.id, gift.id));
    expect(row).toMatchObject({ name: 'Edited gift', endTime: api.now });
  });
});
