import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestApi, type CallOptions, type TestApi, type TestBuyer } from '@/test/api';
import { leakedSecrets, makeBuyerFixtures, SAMPLE_INPUTS, type BuyerFixtures } from '@/test/api-fixtures';
import { registry, type ApiPath } from './registry';
import { openApiDocument } from './openapi';
import type { ProcedureAuth } from '../procedure/procedure';
import { channels, operators } from '../db/schema';
import { createOperatorSession } from '../operator/accounts';
import { apiKeyOf, disabledOperator, OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { disableOperator } from '../operator/accounts';
import { revokeApiKey } from '../operator/api-keys';
import type { OperatorRole } from '../procedure/roles';

// The authorization matrix (security review): every procedure of the registry, called about buyer A's objects by
// everyone who is not A on A's channel, leaks nothing of A's. Generated from the registry: a new procedure is in the
// matrix as soon as it is registered, and this file fails until it has a sample input in test/api-fixtures.ts.

process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let a: BuyerFixtures;
let b: TestBuyer;

beforeAll(async () => {
  api = await createTestApi();
  a = await makeBuyerFixtures(api);
  b = await api.buyer('13712340002', 'AURORA');
});
afterAll(() => api.close());

const paths = Object.keys(registry) as ApiPath[];
const authOf = (p: ApiPath): ProcedureAuth => registry[p].auth;

/** Who calls, about A's objects. Each gets fresh sessions per procedure, so a logout in one row does not touch the next. */
type Caller = { name: string; isOtherBuyer: boolean; options: () => Promise<CallOptions> };
const LUMEN = 'lumen.localhost:3000';
const callers: Caller[] = [
  { name: 'anonymous', isOtherBuyer: false, options: async () => ({}) },
  {
    name: 'another buyer of the channel (token)',
    isOtherBuyer: true,
    options: async () => ({ token: await api.session(b.userId, 'AURORA') }),
  },
  {
    name: 'another buyer of the channel (web cookie)',
    isOtherBuyer: true,
    options: async () => ({ cookie: await api.webCookie(await api.session(b.userId, 'AURORA'), b, 'AURORA') }),
  },
  {
    name: "A's token on another channel's host",
    isOtherBuyer: false,
    options: async () => ({ host: LUMEN, token: await api.session(a.buyer.userId, 'AURORA') }),
  },
  {
    name: "A's web cookie on another channel's host",
    isOtherBuyer: false,
    options: async () => ({ host: LUMEN, cookie: await api.webCookie(await api.session(a.buyer.userId, 'AURORA'), a.buyer, 'AURORA') }),
  },
  { name: "A's revoked token", isOtherBuyer: false, options: async () => ({ token: await api.revokedSession(a.buyer.userId, 'AURORA') }) },
  {
    name: "A's revoked token in a web cookie",
    isOtherBuyer: false,
    options: async () => ({ cookie: await api.webCookie(await api.revokedSession(a.buyer.userId, 'AURORA'), a.buyer, 'AURORA') }),
  },
];

/** Bodies the dispatcher must not even read before it knows the caller: not JSON, not an object, every field wrong. */
function invalidBodies(sample: Record<string, unknown>): { name: string; rawBody: string }[] {
  return [
    { name: 'not JSON', rawBody: '{"orderNo": ' },
    { name: 'a list', rawBody: '[1, 2, 3]' },
    { name: 'every field wrong', rawBody: JSON.stringify(Object.fromEntries(Object.keys(sample).map((k) => [k, { $ne: null }]))) },
    { name: 'NUL text', rawBody: JSON.stringify({ ...sample, probe: 'a\u0000b' }) },
  ];
}

it('has a sample input, naming A’s objects, for every procedure of the registry', () => {
  const missing = paths.filter((p) => typeof (SAMPLE_INPUTS as Partial<Record<string, unknown>>)[p] !== 'function');
  expect(missing).toEqual([]);
  const stale = Object.keys(SAMPLE_INPUTS).filter((p) => !(p in registry));
  expect(stale).toEqual([]);
});

it("shows A's secrets to A (so the leak check below can see a leak)", async () => {
  const own = async (p: ApiPath) => (await api.callApi(p, SAMPLE_INPUTS[p](a), { token: a.buyer.token })).text;
  expect(leakedSecrets(a, await own('/market/api/order/list'))).toEqual(expect.arrayContaining([`orderNo ${a.orderNo}`]));
  expect(leakedSecrets(a, await own('/market/api/pay/sandbox/detail'))).toEqual(expect.arrayContaining([`paymentNo ${a.paymentNo}`]));
  expect(leakedSecrets(a, await own('/market/api/userAttribute/mineSummary'))).toEqual(
    expect.arrayContaining([`masked phone ${a.buyer.maskedPhone}`]),
  );
  expect(leakedSecrets(a, await own('/market/api/userAttribute/queryByUserUuid'))).toEqual(
    expect.arrayContaining([`userUuid ${a.buyer.uuid}`, `masked phone ${a.buyer.maskedPhone}`]),
  );
  const collection = leakedSecrets(a, await own('/market/api/channel/queryTreasureSku'));
  expect(collection).toEqual(expect.arrayContaining(a.holdingIds.map((id) => `holding id "${id}"`)));
  for (const kind of ['tokenId ', 'tx hash ']) expect(collection.some((s) => s.startsWith(kind))).toBe(true);
  expect(leakedSecrets(a, await own('/market/api/channel/queryBox'))).toEqual(expect.arrayContaining([`holding id "${a.boxId}"`]));
  expect(leakedSecrets(a, await own('/market/api/channel/userGiftReceivePage'))).toEqual(
    expect.arrayContaining([`gift claim id "${a.gift.claimId}"`]),
  );
  expect(leakedSecrets(a, await own('/market/api/exchange/list'))).toEqual(
    expect.arrayContaining([`exchange record id "${a.exchange.recordId}"`]),
  );
  expect(leakedSecrets(a, await own('/market/api/channelChainRecord/detail'))).toEqual(
    expect.arrayContaining([`chain-up record id "${a.chain.recordId}"`]),
  );
  expect(leakedSecrets(a, await own('/market/api/exchange/detail')).some((s) => s.startsWith('holding id'))).toBe(true);
});

describe.each(paths)('%s', (p) => {
  it.each(callers.map((c) => [c.name, c] as const))('leaks nothing of A’s to %s', async (_name, caller) => {
    const sample = SAMPLE_INPUTS[p](a);
    const options = await caller.options();
    const answers = [{ body: 'sample input', answer: await api.callApi(p, sample, options) }];
    const needsBuyer = authOf(p) === 'buyer';
    if (needsBuyer && !caller.isOtherBuyer) {
      for (const invalid of invalidBodies(sample)) {
        answers.push({ body: invalid.name, answer: await api.callApi(p, null, { ...options, rawBody: invalid.rawBody }) });
      }
    }
    for (const { body, answer } of answers) {
      const seen = { path: p, caller: caller.name, body, status: answer.status, code: answer.code, message: answer.message };
      expect({ ...seen, leaked: leakedSecrets(a, answer.text) }).toEqual({ ...seen, leaked: [] });
      expect(answer.status).not.toBe(500);
      // A buyer's procedure answers anyone who is not a buyer of this channel with 401, before looking at the input.
      if (needsBuyer && !caller.isOtherBuyer) expect(seen).toEqual({ ...seen, status: 200, code: 401 });
    }
  });
});

describe('the operator console (issue 31)', () => {
  // Every console procedure, called on the operator host by each credential that is not an owner's: a buyer's token or
  // cookie, no credentials, a disabled operator, support and a manager of AURORA (against LUMEN), and an owner's
  // cookie sent to a channel host; and API keys (issue 31): a manager of AURORA's (against LUMEN), a revoked one, and
  // a disabled operator's. What each may see is listed; anything else in an answer is a leak.
  const opsPaths = paths.filter((p) => authOf(p) === 'operator' || authOf(p) === 'operatorGuest');
  let owner: TestOperator;
  let manager: TestOperator;
  let support: TestOperator;
  let disabled: TestOperator;
  const keys = { owner: '', manager: '', revoked: '', disabled: '' };
  let everyChannel: { key: string; host: string; name: string }[];

  beforeAll(async () => {
    const before = new Date(api.now.getTime() - 60_000);
    owner = await signedInOperator(api.db, { name: 'matrix.owner', role: 'owner', now: before });
    manager = await signedInOperator(api.db, { name: 'aurora.manager', role: 'manager', channels: ['AURORA'], now: before });
    support = await signedInOperator(api.db, { name: 'aurora.support', role: 'support', channels: ['AURORA'], now: before });
    disabled = await disabledOperator(api.db, { name: 'gone.manager', now: before });
    // The owner's key is the first (id 1, the sample input of apiKey/revoke): nobody else may revoke it.
    keys.owner = (await apiKeyOf(api.db, owner, { now: before, label: 'owner automation' })).key;
    keys.manager = (await apiKeyOf(api.db, manager, { now: before, channels: ['AURORA'] })).key;
    const revoked = await apiKeyOf(api.db, owner, { now: before, label: 'revoked' });
    await revokeApiKey(api.db, {
      id: revoked.id,
      viewer: { sessionId: 0, operatorId: owner.operatorId, name: owner.name, role: 'owner' },
      now: before,
      ip: '127.0.0.1',
    });
    keys.revoked = revoked.key;
    const bot = await signedInOperator(api.db, { name: 'gone.bot', role: 'manager', channels: ['AURORA'], now: before });
    keys.disabled = (await apiKeyOf(api.db, bot, { now: before, channels: ['AURORA'] })).key;
    await disableOperator(api.db, {
      operatorId: bot.operatorId,
      by: { operatorId: owner.operatorId, name: owner.name, ip: '127.0.0.1' },
      now: before,
    });
    everyChannel = await api.db.select({ key: channels.key, host: channels.host, name: channels.name }).from(channels);
  });

  /** A fresh session of an operator for each call, so one row's sign-out does not touch the next. */
  const freshCookie = async (op: TestOperator) =>
    `__Host-ops=${(await createOperatorSession(api.db, { operatorId: op.operatorId, now: api.now, ip: null })).token}`;
  /** A fresh session that proved its password and code just now, as sensitive writes ask (`reauth`). */
  const provedCookie = async (op: TestOperator) =>
    `__Host-ops=${(await createOperatorSession(api.db, { operatorId: op.operatorId, now: api.now, ip: null, provedAt: api.now })).token}`;
  const secretsOf = (keys: string[]) => [
    ...everyChannel.filter((c) => keys.includes(c.key)).flatMap((c) => [`"${c.key}"`, c.host, c.name]),
    'enrolUrl',
    'recoveryCodes',
    'matrix.owner',
  ];
  const allKeys = () => everyChannel.map((c) => c.key);
  const othersThanAurora = () => allKeys().filter((k) => k !== 'AURORA');

  /** The code a signed-in caller's sample input earns from the service itself (issue 31, passkeys). */
  const REFUSED_SAMPLE: Partial<Record<ApiPath, number>> = {
    '/ops/api/passkey/add': 409,
    '/ops/api/passkey/rename': 404,
    '/ops/api/passkey/remove': 404,
  };

  type OpsCaller = {
    name: string;
    options: () => Promise<CallOptions>;
    secrets: () => string[];
    /** The role the caller acts with, or null when nobody is signed in. */
    role: OperatorRole | null;
    apiKey?: boolean;
  };
  const opsCallers: OpsCaller[] = [
    { name: 'no credentials', options: async () => ({ host: OPS_HOST }), secrets: () => secretsOf(allKeys()), role: null },
    {
      name: "a buyer's token",
      options: async () => ({ host: OPS_HOST, token: await api.session(a.buyer.userId, 'AURORA') }),
      secrets: () => secretsOf(allKeys()),
      role: null,
    },
    {
      name: "a buyer's cookie on the operator host",
      options: async () => ({
        host: OPS_HOST,
        cookie: await api.webCookie(await api.session(a.buyer.userId, 'AURORA'), a.buyer, 'AURORA'),
      }),
      secrets: () => secretsOf(allKeys()),
      role: null,
    },
    {
      name: 'a disabled operator',
      options: async () => ({ host: OPS_HOST, headers: { cookie: disabled.cookie } }),
      secrets: () => secretsOf(allKeys()),
      role: null,
    },
    {
      name: "an owner's cookie on a channel host",
      options: async () => ({ host: 'aurora.localhost:3000', headers: { cookie: await freshCookie(owner) } }),
      secrets: () => secretsOf(allKeys()),
      role: null,
    },
    {
      name: 'support of AURORA',
      options: async () => ({ host: OPS_HOST, headers: { cookie: await freshCookie(support) } }),
      secrets: () => secretsOf(othersThanAurora()),
      role: 'support',
    },
    {
      name: 'a manager of AURORA',
      options: async () => ({ host: OPS_HOST, headers: { cookie: await freshCookie(manager) } }),
      secrets: () => secretsOf(othersThanAurora()),
      role: 'manager',
    },
    {
      name: 'an API key of a manager of AURORA',
      options: async () => ({ host: OPS_HOST, token: `Bearer ${keys.manager}` }),
      secrets: () => secretsOf(othersThanAurora()),
      role: 'manager',
      apiKey: true,
    },
    {
      name: 'a revoked API key',
      options: async () => ({ host: OPS_HOST, token: `Bearer ${keys.revoked}` }),
      secrets: () => secretsOf(allKeys()),
      role: null,
    },
    {
      name: "a disabled operator's API key",
      options: async () => ({ host: OPS_HOST, token: `Bearer ${keys.disabled}` }),
      secrets: () => secretsOf(allKeys()),
      role: null,
    },
  ];

  /**
   * What a signed-in caller gets from a procedure its role may call, beyond the rule: a sensitive write refused until
   * the session proves the password again (403; an API key never can), the sample's wrong password refused as at
   * sign-in (401), and a key id that is not the caller's as unknown (404).
   */
  const SIGNED_IN_ANSWER: Partial<Record<ApiPath, (caller: OpsCaller) => number>> = {
    '/ops/api/session/confirm': (caller) => (caller.apiKey ? 403 : 401),
    '/ops/api/apiKey/revoke': () => 404,
  };

  it('shows an owner every channel, and an enrolment link to an owner who invites (so the leak check can see a leak)', async () => {
    const as = async (p: ApiPath) =>
      (await api.callApi(p, SAMPLE_INPUTS[p](a), { host: OPS_HOST, headers: { cookie: await provedCookie(owner) } })).text;
    const list = await as('/ops/api/channel/list');
    for (const c of everyChannel) expect(list).toContain(c.host);
    expect(await as('/ops/api/channel/detail')).toContain('lumen.localhost');
    expect(await as('/ops/api/operator/invite')).toContain('/enrol/');
    expect(await as('/ops/api/session/me')).toContain('matrix.owner');
  });

  describe.each(opsPaths)('%s', (p) => {
    it.each(opsCallers.map((c) => [c.name, c] as const))('leaks nothing to %s', async (_name, caller) => {
      const answer = await api.callApi(p, SAMPLE_INPUTS[p](a), await caller.options());
      const leaked = caller.secrets().filter((secret) => answer.text.includes(secret));
      const seen = { path: p, caller: caller.name, status: answer.status, code: answer.code, message: answer.message };
      expect({ ...seen, leaked }).toEqual({ ...seen, leaked: [] });
      expect(answer.status).toBe(200);
      if (authOf(p) !== 'operator') return;
      const rule = registry[p].operator!;
      if (caller.role === null) {
        // Off the operator host the console's calls do not exist; on it, nobody without a live session or key gets past 401.
        expect(seen.code).toBe(caller.name.includes('channel host') ? 404 : 401);
      } else if (!rule.roles.includes(caller.role)) {
        expect(seen.code).toBe(403);
      } else if (rule.reauth) {
        expect(seen).toEqual({ ...seen, code: 403 });
      } else if (SIGNED_IN_ANSWER[p]) {
        expect(seen.code).toBe(SIGNED_IN_ANSWER[p](caller));
      } else if (rule.channel === 'input') {
        expect(seen.code).toBe(404);
      } else {
        // A made-up passkey answer or id gets as far as the service, which finds no such ceremony or passkey of theirs.
        expect(seen.code).toBe(REFUSED_SAMPLE[p] ?? 200);
      }
    });
  });

  it('left the console as it was: no operator invited by anyone but the owner, and the owner still signed in', async () => {
    const invited = await api.db.select({ name: operators.name, role: operators.role }).from(operators);
    expect(invited.map((o) => o.name).sort()).toEqual([
      'aurora.manager',
      'aurora.support',
      'gone.bot',
      'gone.manager',
      'matrix.invitee',
      'matrix.owner',
    ]);
    expect((await api.callApi('/ops/api/session/me', {}, { host: OPS_HOST, headers: { cookie: owner.cookie } })).code).toBe(200);
    // The owner's API key (id 1) was not revoked by anyone else.
    expect((await api.callApi('/ops/api/session/me', {}, { host: OPS_HOST, token: `Bearer ${keys.owner}` })).data).toEqual({
      name: 'matrix.owner',
      role: 'owner',
    });
  });
});

it("left A's objects as they were: the unpaid order, its payment, the box, the holdings, the session", async () => {
  const own = (p: ApiPath, body: Record<string, unknown>) => api.callApi(p, body, { token: a.buyer.token });
  expect(await own('/market/api/order/detail', { orderNo: a.orderNo })).toMatchObject({ code: 200, data: { statusTrade: 0 } });
  expect(await own('/market/api/pay/sandbox/detail', { paymentNo: a.paymentNo })).toMatchObject({ code: 200, data: { status: 'created' } });
  const boxes = (await own('/market/api/channel/queryBox', {})).data as { boxes: { id: string }[] };
  expect(boxes.boxes.map((x) => x.id)).toEqual([a.boxId]);
  const collection = (await own('/market/api/channel/queryTreasureSku', { pageCount: 1, pageSize: 50 })).data as {
    records: { id: string }[];
  };
  expect(collection.records.map((h) => h.id).sort()).toEqual([...a.holdingIds].sort());
  expect((await own('/market/api/channelChainRecord/list', {})).data).toMatchObject({ total: 1 });
  expect((await own('/market/api/channel/userGiftReceivePage', {})).data).toMatchObject({ total: 1 });
  expect((await own('/market/api/exchange/list', {})).data).toMatchObject({ total: 1 });
});

describe('the API says who may call what', () => {
  type Operation = { 'x-auth'?: string; security?: Record<string, string[]>[]; responses: Record<string, { description: string }> };
  const doc = openApiDocument() as {
    paths: Record<string, { post: Operation }>;
    components?: { securitySchemes?: Record<string, unknown> };
  };

  it('in the OpenAPI document: x-auth, security, and the 401 for buyer procedures', () => {
    expect(Object.keys(doc.components?.securitySchemes ?? {}).sort()).toEqual(['apiToken', 'operatorSession', 'sessionCookie']);
    for (const p of paths) {
      const op = doc.paths[p]!.post;
      const auth = authOf(p);
      expect({ p, auth: op['x-auth'] }).toEqual({ p, auth });
      const security = op.security ?? null;
      const schemes = (security ?? []).map((s) => Object.keys(s).join(','));
      if (auth === 'buyer') {
        expect({ p, schemes }).toEqual({ p, schemes: ['apiToken', 'sessionCookie'] });
        expect(op.responses['200']!.description).toMatch(/\b401\b/);
      } else if (auth === 'optional') {
        expect({ p, schemes }).toEqual({ p, schemes: ['', 'apiToken', 'sessionCookie'] });
        expect(op.responses['200']!.description).not.toMatch(/\b401\b/);
      } else if (auth === 'operator') {
        expect({ p, schemes }).toEqual({ p, schemes: ['operatorSession'] });
        expect(op.responses['200']!.description).toMatch(/\b401\b/);
      } else {
        expect({ p, security }).toEqual({ p, security: [] });
      }
    }
  });

  it('in docs/api.md: one row per procedure with its auth', () => {
    const doc = readFileSync(path.join(process.cwd(), 'docs/api.md'), 'utf8');
    const rows = new Map<string, string>();
    for (const match of doc.matchAll(/^\| `([^`]+)` \| (buyer|optional|none|operator|operatorGuest) \|/gm)) rows.set(match[1]!, match[2]!);
    expect(Object.fromEntries([...rows].sort())).toEqual(Object.fromEntries(paths.map((p) => [p, authOf(p)] as const).sort()));
  });
});
