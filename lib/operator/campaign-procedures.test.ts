import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { commodities, operatorAudit } from '@/lib/db/schema';

// The Campaigns tab's calls (issue 32): an owner's journey through every write, each one audit entry with the record
// before and after (a batch's entry names its size, never a code); a buyer claims with an exported code and is refused
// one of a revoked batch in both languages; a manager of another channel finds nothing; support reads but cannot write.

let api: TestApi;
let owner: TestOperator;
let lumenManager: TestOperator;
let support: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'campaigns.owner', role: 'owner', now: before });
  lumenManager = await signedInOperator(api.db, { name: 'lumen.manager', role: 'manager', channels: ['LUMEN'], now: before });
  support = await signedInOperator(api.db, { name: 'aurora.support', role: 'support', channels: ['AURORA'], now: before });
}, 120_000);
afterAll(() => api.close());

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });

async function entriesOf(procedure: string) {
  return api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure));
}

async function commodityId(code: string): Promise<number> {
  const [row] = await api.db.select({ id: commodities.id }).from(commodities).where(eq(commodities.code, code));
  return row!.id;
}

function ok(answer: { code: number; message: string; data: unknown }) {
  expect({ code: answer.code, message: answer.message }).toEqual({ code: 200, message: 'ok' });
  return answer.data as Record<string, unknown>;
}

describe('an owner runs a redeem-code gift from the console', () => {
  const call = (path: string, body: unknown) => as(owner)(path, body);

  it('makes the campaign, its offer and a batch, exports it once, and revokes it; every write is one audit entry', async () => {
    const campaign = ok(
      await call('/ops/api/campaign/create', {
        channel: 'AURORA',
        kind: 'gift',
        code: 'console-codes',
        name: 'Console codes',
        startTime: new Date(api.now.getTime() - 3_600_000).toISOString(),
        endTime: null,
      }),
    );
    const offer = ok(
      await call('/ops/api/campaign/offer/create', {
        channel: 'AURORA',
        campaignId: campaign.id,
        commodity: await commodityId('star-fox'),
        total: 100,
        requiresCode: true,
      }),
    );
    expect(offer).toMatchObject({ kind: 'code', total: 100, taken: 0 });
    ok(await call('/ops/api/campaign/offer/update', { channel: 'AURORA', offerId: offer.id, total: 50, limitPerUser: 2 }));
    ok(
      await call('/ops/api/campaign/update', {
        channel: 'AURORA',
        campaignId: campaign.id,
        code: 'console-codes',
        name: 'Renamed',
        startTime: campaign.startTime,
        endTime: null,
      }),
    );

    const batch = ok(await call('/ops/api/campaign/batch/generate', { channel: 'AURORA', offerId: offer.id, size: 20 }));
    expect(batch).toMatchObject({ size: 20, exportable: true });
    const exported = ok(await call('/ops/api/campaign/batch/export', { channel: 'AURORA', batchId: batch.id }));
    const codes = String(exported.csv)
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[0]!);
    expect(codes).toHaveLength(20);
    const again = await call('/ops/api/campaign/batch/export', { channel: 'AURORA', batchId: batch.id });
    expect(again.code).toBe(409);
    expect((again.data as { field: string }).field).toBe('batchId');

    const buyer = await api.buyer('13912349876', 'AURORA');
    const claim = (code: string, key: string, lang = 'en') =>
      api.callApi(
        '/goods/api/giftReceive/receive',
        { id: String(campaign.id), exchangeId: String(offer.id), code, idempotencyKey: key },
        { token: buyer.token, headers: { 'accept-language': lang } },
      );
    expect((await claim(codes[0]!, 'console-1')).code).toBe(200);
    const usage = ok(await call('/ops/api/campaign/batch/usage', { channel: 'AURORA', batchId: batch.id }));
    expect(usage.used).toEqual([expect.objectContaining({ usedBy: '139****9876' })]);

    ok(await call('/ops/api/campaign/code/revoke', { channel: 'AURORA', offerId: offer.id, code: codes[5] }));
    ok(await call('/ops/api/campaign/batch/revoke', { channel: 'AURORA', batchId: batch.id }));
    const en = await claim(codes[1]!, 'console-2');
    expect({ code: en.code, message: en.message }).toEqual({
      code: 409,
      message: 'This redeem code has been withdrawn by the store and can no longer be used.',
    });
    const zh = await claim(codes[2]!, 'console-3', 'zh-CN');
    expect(zh.message).toBe('该兑换码已被商家作废，无法使用');

    for (const p of [
      'campaign/create',
      'campaign/update',
      'campaign/offer/create',
      'campaign/offer/update',
      'campaign/batch/generate',
      'campaign/batch/export',
      'campaign/code/revoke',
      'campaign/batch/revoke',
    ]) {
      const entries = await entriesOf(p);
      expect({ p, entries: entries.length, operator: entries[0]?.operatorName }).toEqual({ p, entries: 1, operator: 'campaigns.owner' });
      expect({ p, before: entries[0]!.before !== null, after: entries[0]!.after !== null }).toEqual({
        p,
        before: !p.endsWith('create') && !p.endsWith('generate'),
        after: true,
      });
      for (const code of codes) expect(JSON.stringify(entries[0])).not.toContain(code);
    }
    const [generated] = await entriesOf('campaign/batch/generate');
    expect(generated!.after).toMatchObject({ size: 20 });
  });

  it('imports codes and makes a chain-up campaign with its codes, each one audit entry without the codes', async () => {
    const campaign = ok(
      await call('/ops/api/campaign/create', {
        channel: 'AURORA',
        kind: 'gift',
        code: 'console-import',
        name: 'Imported',
        startTime: api.now.toISOString(),
        endTime: null,
      }),
    );
    const offer = ok(
      await call('/ops/api/campaign/offer/create', {
        channel: 'AURORA',
        campaignId: campaign.id,
        commodity: await commodityId('star-fox'),
        total: 5,
        requiresCode: true,
      }),
    );
    const given = 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-23'.replace(/^A/, '3');
    ok(await call('/ops/api/campaign/batch/import', { channel: 'AURORA', offerId: offer.id, codes: [given] }));
    const chain = ok(
      await call('/ops/api/campaign/chain/create', {
        channel: 'AURORA',
        name: 'Console chain',
        commodity: await commodityId('star-fox'),
        authorStageName: 'Artist',
        startTime: api.now.toISOString(),
        endTime: null,
      }),
    );
    ok(
      await call('/ops/api/campaign/chain/update', {
        channel: 'AURORA',
        campaignId: chain.id,
        name: 'Renamed chain',
        commodity: chain.commodityId,
        authorStageName: 'Artist',
        startTime: chain.startTime,
        endTime: null,
      }),
    );
    const added = ok(await call('/ops/api/campaign/chain/addCodes', { channel: 'AURORA', campaignId: chain.id, type: 2, generate: 2 }));
    expect(added.codes).toHaveLength(2);
    for (const p of ['campaign/batch/import', 'campaign/chain/create', 'campaign/chain/update', 'campaign/chain/addCodes']) {
      const entries = await entriesOf(p);
      expect({ p, entries: entries.length }).toEqual({ p, entries: 1 });
      expect(JSON.stringify(entries[0])).not.toContain(given);
      for (const code of added.codes as string[]) expect(JSON.stringify(entries[0])).not.toContain(code);
    }
    const list = ok(await call('/ops/api/campaign/list', { channel: 'AURORA' }));
    expect((list.chain as { name: string }[]).map((c) => c.name)).toContain('Renamed chain');
  });

  it('names the field of a bad window and stores nothing', async () => {
    const bad = await call('/ops/api/campaign/create', {
      channel: 'AURORA',
      kind: 'exchange',
      code: 'console-bad',
      name: 'Bad',
      startTime: '2026-12-02T20:00:00+08:00',
      endTime: '2026-12-01T20:00:00+08:00',
    });
    expect(bad.code).toBe(400);
    expect((bad.data as { field: string }).field).toBe('endTime');
    const list = ok(await call('/ops/api/campaign/list', { channel: 'AURORA' }));
    expect((list.exchange as { code: string }[]).map((c) => c.code)).not.toContain('console-bad');
  });
});

describe('roles', () => {
  it('a manager of another channel finds nothing; support reads and cannot write', async () => {
    expect((await as(lumenManager)('/ops/api/campaign/list', { channel: 'AURORA' })).code).toBe(404);
    expect((await as(support)('/ops/api/campaign/list', { channel: 'AURORA' })).code).toBe(200);
    const write = await as(support)('/ops/api/campaign/create', {
      channel: 'AURORA',
      kind: 'gift',
      code: 'support-try',
      name: 'x',
      startTime: api.now.toISOString(),
      endTime: null,
    });
    expect(write.code).toBe(403);
  });
});
