import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { makeUsers } from '@/test/buying';
import { demoCode } from '@/lib/demo/seed-data';
import { channels } from '@/lib/db/schema';
import { createSession } from '@/lib/auth/sessions';

// Self chain-up through the API: the calls a phone makes from /chain to /chain/result, with the demo's codes.

const now = new Date('2026-11-22T08:00:00Z');

const db = seededTestDb(now);

const call = (path: string, body: unknown, token?: string, host = 'chain.localhost:3000') =>
  apiCall(db, path, body, { token, host, ip: '10.0.0.7', now });

async function buyerToken(key: string, prefix: string): Promise<string> {
  const [channel] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  const [userId] = await makeUsers(db, 1, prefix);
  return (await createSession(db, { userId: userId!, channelId: channel!.id, now, ip: null })).token;
}

it('lists campaigns and stores to visitors, and needs a session for everything else', async () => {
  const list = await call('/market/api/channel/queryChainList', {});
  expect(list.body.code).toBe(200);
  expect((list.body.data as { stores: unknown[] }).stores).toHaveLength(21);
  for (const [path, body] of [
    ['/market/api/channel/queryCodeRecord', { code: 'x', storeCode: 'SH001' }],
    ['/market/api/channelChainRecord/create', { id: '1', code: 'x', type: 1, storeCode: 'SH001' }],
    ['/market/api/channelChainRecord/detail', { id: '1' }],
    ['/market/api/channelChainRecord/list', {}],
  ] as const) {
    expect((await call(path, body)).body).toMatchObject({ code: 401 });
  }
});

it('names each bad field and why', async () => {
  const token = await buyerToken('CHAIN', '4201');
  const bad = await call('/market/api/channelChainRecord/create', { id: 'one', code: '  ', type: 3 }, token);
  expect(bad.status).toBe(200);
  expect(bad.body.code).toBe(400);
  expect(bad.body.message).toContain('id: must be a positive whole-number id');
  expect(bad.body.message).toContain('code: is required: the code found on the product');
  expect(bad.body.message).toContain('type: must be 1 (product code) or 2 (certificate code)');
  expect(bad.body.message).toContain('storeCode: is required: the store you bought it from');
});

it('looks a demo code up, chains it up, and reads the record back; the record is not found on another channel', async () => {
  const token = await buyerToken('CHAIN', '4202');
  const code = demoCode('iron-owl', 4);
  const lookup = await call('/market/api/channel/queryCodeRecord', { code, storeCode: 'SH010' }, token);
  expect(lookup.body).toMatchObject({
    code: 200,
    data: { type: 1, store: { code: 'SH010' }, campaign: { name: 'Iron Owl figurine', authorStageName: 'Mo Studio' } },
  });
  const campaignId = (lookup.body.data as { campaign: { id: string } }).campaign.id;

  const created = await call('/market/api/channelChainRecord/create', { id: campaignId, code, type: 1, storeCode: 'SH010' }, token);
  expect(created.body).toMatchObject({ code: 200, data: { commodity: { name: 'Iron Owl (digital twin)' }, chainStatus: 0 } });
  const recordId = (created.body.data as { id: string }).id;
  expect((await call('/market/api/channelChainRecord/detail', { id: recordId }, token)).body).toMatchObject({
    code: 200,
    data: { id: recordId },
  });
  expect((await call('/market/api/channelChainRecord/list', {}, token)).body).toMatchObject({ code: 200, data: { total: 1 } });

  const auroraToken = await buyerToken('AURORA', '4203');
  expect((await call('/market/api/channelChainRecord/detail', { id: recordId }, auroraToken, 'aurora.localhost:3000')).body).toMatchObject({
    code: 404,
  });
});
