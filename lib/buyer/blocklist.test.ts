import { and, eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { solvePow, type PowChallenge } from '@/lib/client/proof-of-work';
import { accountNumberOf } from '@/lib/auth/account-numbers';
import { buyerIdentities, operatorAudit, sales } from '@/lib/db/schema';
import { parseRange } from './blocklist';

// issue 33, "Blocklists managed by operators": one list of buyers, identities, phone numbers and address ranges; a
// blocked one cannot get a login code, log in or order, and is told to contact the channel (the block's own words).

// The buy gate's event-loop lag check (lib/order/buy-gate.ts) is not what these tests are about.
process.env.BUY_MAX_LAG_MS = '60000';

const BLOCKED = 'This account cannot log in or buy in this store. Please contact the store’s customer service.';

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let support: TestOperator;
let clock: number;
const tick = () => new Date((clock += 1000));

beforeAll(async () => {
  api = await createTestApi();
  clock = api.now.getTime();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'list.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'list.manager', role: 'manager', channels: ['AURORA'], now: before });
  support = await signedInOperator(api.db, { name: 'list.support', role: 'support', channels: ['AURORA'], now: before });
  jest.spyOn(console, 'info').mockImplementation(() => {});
}, 120_000);
afterAll(() => api.close());

const as = (op: TestOperator) => (path: string, body: unknown) =>
  api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });

/** The login code, asked from `ip` through the captcha (answered from another address), or the refusal. */
async function askCode(phone: string, ip: string, host = 'aurora.localhost:3000') {
  clock += 31 * 60_000; // past the phone's wait between codes (lib/auth/limits.ts)
  const call = (path: string, body: unknown, headers: Record<string, string> = {}, from?: string) =>
    api.callApi(path, body, { host, headers, now: tick(), ...(from ? { ip: from } : {}) });
  const challenge = await call('/auth/api/captcha/challenge', { kind: 'text' });
  const { id, question, pow } = challenge.data as { id: string; question: { a: number; b: number }; pow: PowChallenge };
  const verified = await call('/auth/api/captcha/verify', { id, pow: await solvePow(pow), answer: question.a + question.b });
  return call('/auth/api/auth/getAuthCode', { phone }, { behaviorVerify: (verified.data as { ticket: string }).ticket }, ip);
}

const logIn = (phone: string, code: string, ip: string) =>
  api.callApi('/auth/api/auth/authCodeLoginV2', { phone, code }, { ip, now: tick() });

async function starFoxSale(): Promise<string> {
  const [row] = await api.db
    .select({ id: sales.id })
    .from(sales)
    .where(and(eq(sales.channelId, await api.channelId('AURORA')), eq(sales.code, 'star-fox')));
  return String(row!.id);
}

async function audited(procedure: string) {
  return api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure));
}

type Entry = { id: number; kind: string; what: string; reason: string; by: string | null; everyChannel: boolean };
async function listed(): Promise<Entry[]> {
  return ((await as(support)('/ops/api/blocklist/list', { channel: 'AURORA' })).data as { items: Entry[] }).items;
}

describe('address ranges', () => {
  it('keeps a range as its network, a lone address as itself; refuses one wider than /16 (IPv4) or /32 (IPv6)', () => {
    expect(parseRange(' 203.0.113.77/24 ')).toEqual({ range: '203.0.113.0/24' });
    expect(parseRange('2001:DB8:0:0:1::/48')).toEqual({ range: '2001:db8::/48' });
    expect(parseRange('198.51.100.9')).toEqual({ range: '198.51.100.9/32' });
    expect(parseRange('10.0.0.0/16')).toEqual({ range: '10.0.0.0/16' });
    expect(parseRange('10.0.0.0/8')).toEqual({ problem: 'tooWide' });
    expect(parseRange('2001:db8::/31')).toEqual({ problem: 'tooWide' });
    for (const bad of ['', 'a.b.c.d/24', '10.0.0.0/33', '10.0.0.0/24/1', '::ffff:10.0.0.0/120', '10.0.0.0/-1', '[::1]/128']) {
      expect(parseRange(bad)).toEqual({ problem: 'invalid' });
    }
  });

  it('a /8 is refused naming the field; support may not add (as they may not block a buyer)', async () => {
    const wide = await as(manager)('/ops/api/blocklist/add', { channel: 'AURORA', kind: 'cidr', value: '10.0.0.0/8', reason: 'bots' });
    expect(wide.code).toBe(400);
    expect(wide.data).toMatchObject({ field: 'value' });
    expect(wide.message).toMatch(/too wide.*\/16/);
    const notRange = await as(manager)('/ops/api/blocklist/add', { channel: 'AURORA', kind: 'cidr', value: 'everyone', reason: 'bots' });
    expect(notRange).toMatchObject({ code: 400, data: { field: 'value' } });
    const bySupport = await as(support)('/ops/api/blocklist/add', {
      channel: 'AURORA',
      kind: 'cidr',
      value: '203.0.113.0/24',
      reason: 'bots',
    });
    expect(bySupport.code).toBe(403);
    const everywhere = await as(manager)('/ops/api/blocklist/add', {
      channel: 'AURORA',
      kind: 'cidr',
      value: '203.0.113.0/24',
      reason: 'bots',
      everyChannel: true,
    });
    expect(everywhere.code).toBe(403);
    expect(await listed()).toEqual([]);
  });

  it('a blocked range cannot get a login code, log in or order; another address can; lifting lets it in; both audited', async () => {
    const phone = '13755550001';
    const inside = '203.0.113.45';
    const outside = '198.51.100.7';
    // A code asked before the block, from outside.
    const early = await askCode(phone, outside);
    expect(early.code).toBe(200);
    const buyer = await api.buyer('13755550002');

    const added = await as(manager)('/ops/api/blocklist/add', {
      channel: 'AURORA',
      kind: 'cidr',
      value: '203.0.113.0/24',
      reason: 'bot farm',
    });
    expect(added.code).toBe(200);
    expect(added.data).toMatchObject({ kind: 'cidr', what: '203.0.113.0/24', reason: 'bot farm', by: 'list.manager', everyChannel: false });

    // The code asked from outside, used from inside the range: no session.
    const refusedLogin = await logIn(phone, (early.data as { demoCode: string }).demoCode, inside);
    expect(refusedLogin).toMatchObject({ code: 403, message: BLOCKED });
    expect(refusedLogin.headers.authorization).toBeUndefined();
    const refusedCode = await askCode(phone, inside);
    expect(refusedCode).toMatchObject({ code: 403, message: BLOCKED });
    const saleId = await starFoxSale();
    const buyFrom = (ip: string, key: string) =>
      api.callApi('/market/api/order/create', { saleId, quantity: 1, idempotencyKey: key }, { token: buyer.token, ip, now: tick() });
    expect(await buyFrom(inside, 'range-in')).toMatchObject({ code: 403, message: BLOCKED });
    // In Chinese too.
    const zh = await api.callApi(
      '/market/api/order/create',
      { saleId, quantity: 1, idempotencyKey: 'range-zh' },
      {
        token: buyer.token,
        ip: inside,
        headers: { 'accept-language': 'zh-CN' },
        now: tick(),
      },
    );
    expect(zh.message).toBe('该账号已被限制在本店登录和购买，请联系本店客服。');
    // Another address, and the same range on another channel, are fine.
    const fine = await askCode(phone, outside);
    expect(fine.code).toBe(200);
    expect((await logIn(phone, (fine.data as { demoCode: string }).demoCode, outside)).code).toBe(200);
    expect((await askCode('13755550003', inside, 'lumen.localhost:3000')).code).toBe(200);

    const [entry] = await listed();
    expect(entry).toMatchObject({ kind: 'cidr', what: '203.0.113.0/24' });
    const lifted = await as(manager)('/ops/api/blocklist/lift', { channel: 'AURORA', id: entry!.id, reason: 'carrier NAT, not bots' });
    expect(lifted.code).toBe(200);
    expect(await listed()).toEqual([]);
    expect((await as(manager)('/ops/api/blocklist/lift', { channel: 'AURORA', id: entry!.id, reason: 'again' })).code).toBe(404);
    expect((await askCode(phone, inside)).code).toBe(200);
    expect((await buyFrom(inside, 'range-after')).code).toBe(200);

    const [add] = await audited('blocklist/add');
    expect(add).toMatchObject({
      operatorName: 'list.manager',
      before: null,
      after: expect.objectContaining({ kind: 'cidr', what: '203.0.113.0/24' }),
    });
    const [lift] = await audited('blocklist/lift');
    expect(lift).toMatchObject({
      operatorName: 'list.manager',
      before: expect.objectContaining({ kind: 'cidr', reason: 'bot farm' }),
      after: { lifted: true, liftReason: 'carrier NAT, not bots' },
    });
  }, 120_000);
});

describe('phones and identities', () => {
  it('a blocked phone (typed with spaces) cannot get a code or log in, its sessions end; the trail keeps it masked', async () => {
    const phone = '13755550011';
    const buyer = await api.buyer(phone);
    const bad = await as(manager)('/ops/api/blocklist/add', { channel: 'AURORA', kind: 'phone', value: '1234', reason: 'x' });
    expect(bad).toMatchObject({ code: 400, data: { field: 'value' } });
    const added = await as(manager)('/ops/api/blocklist/add', {
      channel: 'AURORA',
      kind: 'phone',
      value: '137 5555 0011',
      reason: 'resells codes',
    });
    expect(added.data).toMatchObject({ kind: 'phone', what: '137****0011', sessionsEnded: 1 });
    expect((await as(manager)('/ops/api/blocklist/add', { channel: 'AURORA', kind: 'phone', value: phone, reason: 'again' })).code).toBe(
      409,
    );
    // The ended session reads why (the block's words), not "not logged in".
    expect(await api.callApi('/market/api/channel/queryBox', {}, { token: buyer.token })).toMatchObject({ code: 403, message: BLOCKED });
    expect(await askCode(phone, '198.51.100.20')).toMatchObject({ code: 403, message: BLOCKED });
    // A phone that has no account yet is refused as well.
    await as(manager)('/ops/api/blocklist/add', { channel: 'AURORA', kind: 'phone', value: '13755550012', reason: 'known bot' });
    expect((await askCode('13755550012', '198.51.100.21')).code).toBe(403);
    const trail = JSON.stringify(await audited('blocklist/add'));
    expect(trail).not.toContain('13755550011');
    expect(trail).toContain('137****0011');
    for (const e of await listed()) {
      await as(manager)('/ops/api/blocklist/lift', { channel: 'AURORA', id: e.id, reason: 'test done' });
    }
    expect((await askCode(phone, '198.51.100.22')).code).toBe(200);
  }, 120_000);

  it('a blocked identity blocks the account verified with it; the list shows it masked, never the hash; unverified: 409', async () => {
    const phone = '13755550021';
    const buyer = await api.buyer(phone);
    const channelId = await api.channelId('AURORA');
    const accountNumber = await accountNumberOf(api.db, channelId, buyer.userId);
    const unverified = await as(manager)('/ops/api/blocklist/add', { channel: 'AURORA', kind: 'identity', accountNumber, reason: 'fraud' });
    expect(unverified.code).toBe(409);
    const idHash = 'f'.repeat(64);
    await api.db.insert(buyerIdentities).values({
      userId: buyer.userId,
      idHash,
      nameSealed: 'sealed',
      idNumberSealed: 'sealed',
      keyId: 'k1',
      birthDate: '1990-03-07',
      maskedName: '张*',
      maskedIdNumber: '1101**********1234',
      provider: 'demo',
      verifiedAt: api.now,
    });
    const added = await as(owner)('/ops/api/blocklist/add', {
      channel: 'AURORA',
      kind: 'identity',
      accountNumber,
      reason: 'chargebacks under five phones',
      everyChannel: true,
    });
    expect(added.data).toMatchObject({ kind: 'identity', what: '张* 1101**********1234', everyChannel: true, sessionsEnded: 1 });
    expect(added.text).not.toContain(idHash);
    const list = await as(support)('/ops/api/blocklist/list', { channel: 'AURORA' });
    expect(list.text).not.toContain(idHash);
    expect(JSON.stringify(await audited('blocklist/add'))).not.toContain(idHash);
    expect(await askCode(phone, '198.51.100.30')).toMatchObject({ code: 403, message: BLOCKED });
    // Every channel: LUMEN refuses the login code too.
    expect((await askCode(phone, '198.51.100.30', 'lumen.localhost:3000')).code).toBe(403);
    const session = await api.session(buyer.userId, 'AURORA');
    const saleId = await starFoxSale();
    expect(
      await api.callApi(
        '/market/api/order/create',
        { saleId, quantity: 1, idempotencyKey: 'identity-buy' },
        { token: session, now: tick() },
      ),
    ).toMatchObject({ code: 403, message: BLOCKED });
    // A manager may not lift an every-channel block; an owner may.
    const entry = (await listed()).find((e) => e.kind === 'identity')!;
    expect((await as(manager)('/ops/api/blocklist/lift', { channel: 'AURORA', id: entry.id, reason: 'no' })).code).toBe(403);
    expect((await as(owner)('/ops/api/blocklist/lift', { channel: 'AURORA', id: entry.id, reason: 'bank confirmed' })).code).toBe(200);
    expect((await askCode(phone, '198.51.100.31')).code).toBe(200);
  }, 120_000);
});
