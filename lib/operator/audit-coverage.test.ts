import { sql } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { makeBuyerFixtures, SAMPLE_INPUTS, type BuyerFixtures } from '@/test/api-fixtures';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { registry, type ApiPath } from '@/lib/server/registry';
import type { Db } from '@/lib/db/client';
import { operatorAudit } from '@/lib/db/schema';
import { createOperatorSession } from './accounts';

// issue 31, "An audit trail": every operator write leaves exactly one entry with the record before and after. Generated
// from the registry, so a write procedure added later is checked as soon as it is registered: each `auth: 'operator'`
// procedure is called by an owner with its sample input (test/api-fixtures.ts); one that declares `writes` must
// succeed and leave one entry named after its path, with `before` (unless it creates) and `after` (unless it removes);
// one that does not declare it must change no table at all, so a write cannot pass as a read by leaving the
// declaration out. Sessions and rate limits (touched by every signed-in call) are not the console's data.

process.env.BUY_MAX_LAG_MS = '60000';

const NOT_DATA = new Set(['operator_sessions', 'rate_limits', 'operator_audit', 'operator_passkey_ceremonies']);

/**
 * Writes whose sample input the service itself refuses (a made-up WebAuthn answer or passkey id: test/api-fixtures.ts):
 * here they must change nothing; lib/operator/passkeys.test.ts records their entries with real answers.
 */
const REFUSED_SAMPLE = new Set<ApiPath>([
  // Priority purchase (issue 35): its sample sale is a waiting room by then (409 `mode`); lib/sale/priority.test.ts makes
  // these writes for real and checks their one entry each.
  '/ops/api/sale/priority/set',
  '/ops/api/sale/priority/whitelist',
  '/ops/api/passkey/add',
  '/ops/api/passkey/rename',
  '/ops/api/passkey/remove',
  // A's order and sale asked of another channel (404); lib/operator/refund-procedures.test.ts records their entries.
  '/ops/api/refund/create',
  '/ops/api/refund/cancelSale',
  // Campaigns and codes (issue 32): their samples name rows LUMEN does not have; lib/operator/campaign-procedures.test.ts
  // makes each of these writes for real and checks its one entry.
  '/ops/api/campaign/update',
  '/ops/api/campaign/offer/create',
  '/ops/api/campaign/offer/update',
  '/ops/api/campaign/end',
  '/ops/api/campaign/chain/end',
  '/ops/api/campaign/batch/generate',
  '/ops/api/campaign/batch/import',
  '/ops/api/campaign/batch/export',
  '/ops/api/campaign/batch/revoke',
  '/ops/api/campaign/code/revoke',
  '/ops/api/campaign/chain/create',
  '/ops/api/campaign/chain/update',
  '/ops/api/campaign/chain/addCodes',
  // The blocklist's lift (issue 33): the sample names no live block (404); lib/buyer/blocklist.test.ts lifts for real.
  '/ops/api/blocklist/lift',
  // The lottery's draw (issue 35): the sample's draw time is years away (409); lib/sale/lottery.test.ts draws for real.
  '/ops/api/sale/lottery/draw',
]);

let api: TestApi;
let a: BuyerFixtures;
let owner: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  a = await makeBuyerFixtures(api);
  // The team's calls act on operator 1 (test/api-fixtures.ts): another operator than the owner making them.
  const target = await signedInOperator(api.db, {
    name: 'coverage.target',
    role: 'manager',
    channels: ['AURORA'],
    now: new Date(api.now.getTime() - 60_000),
  });
  expect(target.operatorId).toBe(1);
  owner = await signedInOperator(api.db, { name: 'coverage.owner', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
  // A seeded database, a buyer's orders and holdings, and an argon2 enrolment: beyond 30 s when the whole suite shares
  // two cores.
}, 180_000);
afterAll(() => api.close());

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[];
}

/** A fingerprint of every table's contents but sessions, rate limits and the trail itself. */
async function dataFingerprint(db: Db): Promise<Record<string, string>> {
  const tables = rowsOf<{ tablename: string }>(await db.execute(sql`select tablename from pg_tables where schemaname = 'public'`))
    .map((t) => t.tablename)
    .filter((t) => !NOT_DATA.has(t));
  const prints: Record<string, string> = {};
  for (const table of tables) {
    const [row] = rowsOf<{ h: string }>(
      await db.execute(sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${table}" t`)),
    );
    prints[table] = row!.h;
  }
  return prints;
}

const operatorPaths = (Object.keys(registry) as ApiPath[]).filter((p) => registry[p].auth === 'operator');

it('has operator procedures that declare a write (so the check below checks something)', () => {
  expect(operatorPaths.some((p) => registry[p].operator?.writes)).toBe(true);
});

describe.each(operatorPaths)('%s', (p) => {
  it('leaves one audit entry with before and after when it writes, and changes nothing when it does not say so', async () => {
    const writes = registry[p].operator?.writes;
    const cookie = `__Host-ops=${(await createOperatorSession(api.db, { operatorId: owner.operatorId, now: api.now, ip: null, provedAt: api.now })).token}`;
    const lastId = async () =>
      Number((await api.db.select({ id: sql<string>`coalesce(max(${operatorAudit.id}), 0)` }).from(operatorAudit))[0]!.id);
    const fromId = await lastId();
    const before = await dataFingerprint(api.db);
    const answer = await api.callApi(p, SAMPLE_INPUTS[p](a), { host: OPS_HOST, headers: { cookie } });
    const entries = (await api.db.select().from(operatorAudit)).filter((e) => e.id > fromId);
    if (!writes || REFUSED_SAMPLE.has(p)) {
      if (writes) expect({ p, code: answer.code }).not.toEqual({ p, code: 200 });
      expect({ p, entries: entries.map((e) => e.procedure) }).toEqual({ p, entries: [] });
      expect(await dataFingerprint(api.db)).toEqual(before);
      return;
    }
    if (writes === 'event') {
      // An event (a re-confirmation, refused or not): one entry of its own, no record before or after.
      expect({ p, entries: entries.map((e) => e.procedure) }).toEqual({ p, entries: [p.replace(/^\/ops\/api\//, '')] });
      return;
    }
    expect({ p, code: answer.code, message: answer.message }).toEqual({ p, code: 200, message: 'ok' });
    expect({ p, entries: entries.length }).toEqual({ p, entries: 1 });
    const [entry] = entries;
    expect({ p, procedure: entry!.procedure, operator: entry!.operatorName }).toEqual({
      p,
      procedure: p.replace(/^\/ops\/api\//, ''),
      operator: owner.name,
    });
    expect({ p, hasBefore: entry!.before !== null, hasAfter: entry!.after !== null }).toEqual({
      p,
      hasBefore: writes !== 'creates',
      hasAfter: writes !== 'removes',
    });
  });
});
