import { desc, eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { buyerIdentities, channels, operatorAudit, sales } from '../db/schema';
import { readChannel } from '../channel/service';

// issue 33, "Per-channel policy" and "Risk controls": the channel's Settings tab sets its buyers' identity rules and
// its risk rules at order time: owners and the channel's managers, in one audited write each; a blind-box age below
// 18 is refused by name (no guardian's consent is collected); a channel made in the console starts with blind boxes
// at 18; and what is saved is kept at once by the store's buy call.

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let lumenManager: TestOperator;
let support: TestOperator;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'rules.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'rules.aurora', role: 'manager', channels: ['AURORA'], now: before });
  lumenManager = await signedInOperator(api.db, { name: 'rules.lumen', role: 'manager', channels: ['LUMEN'], now: before });
  support = await signedInOperator(api.db, { name: 'rules.help', role: 'support', channels: ['AURORA'], now: before });
});
afterAll(() => api.close());

const as = (op: TestOperator, path: string, body: unknown) => api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });
const row = async (key: string) => (await api.db.select().from(channels).where(eq(channels.key, key)))[0]!;
const auditOf = async (procedure: string) =>
  api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure)).orderBy(desc(operatorAudit.id));

const ASKS_NOTHING = { buy: false, receive: false, exchange: false, chainUp: false };
const FOURTEEN = { channel: 'AURORA', realName: ASKS_NOTHING, minAge: 14, blindBoxMinAge: 18 };

describe("the buyers' identity rules", () => {
  it('reads as nothing asked on a channel made before issue 33, for support too', async () => {
    const read = await as(support, '/ops/api/channel/settings', { channel: 'AURORA' });
    expect(read.body).toMatchObject({
      code: 200,
      data: {
        identityPolicy: { realName: ASKS_NOTHING, minAge: null, blindBoxMinAge: null },
        riskPolicy: { unpaid: { limit: 3, withinHours: 24, blockHours: 24 }, captcha: true },
      },
    });
  });

  it('a manager of the channel sets it to 14+, audited with before and after, and the store refuses a buyer without an identity at once', async () => {
    const buyer = await api.buyer('13933000001', 'AURORA');
    const [sale] = await api.db.select({ id: sales.id }).from(sales).where(eq(sales.code, 'star-fox'));
    const buy = (key: string) =>
      api.callApi('/market/api/order/create', { saleId: String(sale!.id), quantity: 1, idempotencyKey: key }, { token: buyer.token });

    const saved = await as(manager, '/ops/api/channel/saveIdentityPolicy', FOURTEEN);
    expect(saved.body).toMatchObject({ code: 200, data: { identityPolicy: { minAge: 14, blindBoxMinAge: 18 } } });
    expect((await readChannel(api.db, 'AURORA'))!.identityPolicy).toEqual({ realName: ASKS_NOTHING, minAge: 14, blindBoxMinAge: 18 });
    const [entry] = await auditOf('channel/saveIdentityPolicy');
    expect(entry).toMatchObject({
      operatorName: 'rules.aurora',
      before: { identityPolicy: {} },
      after: { identityPolicy: { minAge: 14, blindBoxMinAge: 18 } },
    });

    // The minimum age turns real-name on for buying: the buy call answers 1010, in the buyer's language.
    const refused = await buy('rules-buy-1');
    expect(refused.body).toEqual({
      code: 1010,
      message: 'Verify your real name before you buy.',
      data: { reason: 'identityRequired', action: 'buy' },
    });
    const zh = await api.callApi(
      '/market/api/order/create',
      { saleId: String(sale!.id), quantity: 1, idempotencyKey: 'rules-buy-2' },
      { token: buyer.token, headers: { 'accept-language': 'zh-CN' } },
    );
    expect(zh.body).toMatchObject({ code: 1010, message: '请先完成实名认证，再购买' });

    // Verified and over 14 on the channel's today, the same buyer buys.
    await api.db.insert(buyerIdentities).values({
      userId: buyer.userId,
      idHash: 'rules-hash-1',
      nameSealed: 'sealed',
      idNumberSealed: 'sealed',
      keyId: 'test',
      birthDate: '2000-01-01',
      maskedName: '张*',
      maskedIdNumber: '1101**********1234',
      provider: 'demo',
      verifiedAt: api.now,
    });
    expect((await buy('rules-buy-3')).code).toBe(200);
  });

  it('refuses blindBoxMinAge 8 naming the field and why, and changes nothing', async () => {
    const before = await row('AURORA');
    const answer = await as(manager, '/ops/api/channel/saveIdentityPolicy', { ...FOURTEEN, blindBoxMinAge: 8 });
    expect(answer.code).toBe(400);
    expect(answer.data).toMatchObject({ field: 'blindBoxMinAge' });
    expect(answer.message).toContain('below 18 needs a guardian’s consent, which this store does not collect yet');
    expect(await row('AURORA')).toEqual(before);
  });

  it.each([
    ['minAge', { minAge: 12 }],
    ['blindBoxMinAge', { blindBoxMinAge: 21 }],
    ['realName', { realName: { buy: true } }],
  ])('refuses %s out of its choices by name', async (field, change) => {
    const answer = await as(manager, '/ops/api/channel/saveIdentityPolicy', { ...FOURTEEN, ...change });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(new RegExp(`^${field}`));
  });

  it('is refused to support and to a manager of another channel', async () => {
    const before = await row('AURORA');
    expect((await as(support, '/ops/api/channel/saveIdentityPolicy', FOURTEEN)).code).toBe(403);
    expect((await as(lumenManager, '/ops/api/channel/saveIdentityPolicy', FOURTEEN)).code).toBe(404);
    expect(await row('AURORA')).toEqual(before);
  });

  it('a channel created in the console starts with blind boxes at 18 and nothing else asked', async () => {
    const created = await as(owner, '/ops/api/channel/create', {
      key: 'RULESNEW',
      name: 'Rules new',
      brandName: 'Rules',
      locale: 'zh-CN',
      timeZone: 'Asia/Shanghai',
      labels: [1],
    });
    expect(created.code).toBe(200);
    expect((await row('RULESNEW')).identityPolicy).toEqual({ blindBoxMinAge: 18 });
    const read = await as(owner, '/ops/api/channel/settings', { channel: 'RULESNEW' });
    expect(read.body).toMatchObject({ data: { identityPolicy: { realName: ASKS_NOTHING, minAge: null, blindBoxMinAge: 18 } } });
  });
});

describe('the risk rules at order time', () => {
  const RISK = { channel: 'AURORA', unpaid: { limit: 5, withinHours: 12, blockHours: 48 }, captcha: false };

  it('a manager of the channel saves them, audited with before and after', async () => {
    const saved = await as(manager, '/ops/api/channel/saveRiskPolicy', RISK);
    expect(saved.body).toMatchObject({ code: 200, data: { riskPolicy: { unpaid: RISK.unpaid, captcha: false } } });
    expect((await row('AURORA')).riskPolicy).toEqual({ unpaid: RISK.unpaid, captcha: false });
    const [entry] = await auditOf('channel/saveRiskPolicy');
    expect(entry).toMatchObject({ before: { riskPolicy: {} }, after: { riskPolicy: { unpaid: RISK.unpaid, captcha: false } } });
  });

  it.each([
    ['unpaid.limit', { limit: 21, withinHours: 24, blockHours: 24 }],
    ['unpaid.withinHours', { limit: 3, withinHours: 0, blockHours: 24 }],
    ['unpaid.blockHours', { limit: 3, withinHours: 24, blockHours: 169 }],
    ['unpaid.limit', { limit: 2.5, withinHours: 24, blockHours: 24 }],
  ])('refuses %s out of bounds by name, and changes nothing', async (field, unpaid) => {
    const before = await row('AURORA');
    const answer = await as(manager, '/ops/api/channel/saveRiskPolicy', { ...RISK, unpaid });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: must be`));
    expect(await row('AURORA')).toEqual(before);
  });

  it('is refused to a manager of another channel', async () => {
    expect((await as(lumenManager, '/ops/api/channel/saveRiskPolicy', RISK)).code).toBe(404);
  });
});

// issue 36: gifts between buyers, the holding period before a collectible may be given (docs/gifting.md).
describe('the holding period before a gift', () => {
  it('reads 24 hours by default; a manager of the channel sets it, audited, and 0 lets a collectible be given at once', async () => {
    const read = await as(support, '/ops/api/channel/settings', { channel: 'AURORA' });
    expect(read.body).toMatchObject({ code: 200, data: { gifting: { holdingHours: 24 } } });
    const saved = await as(manager, '/ops/api/channel/saveHoldingPeriod', { channel: 'AURORA', holdingHours: 0 });
    expect(saved.body).toMatchObject({ code: 200, data: { gifting: { holdingHours: 0 } } });
    expect((await row('AURORA')).giftHoldingHours).toBe(0);
    const [entry] = await auditOf('channel/saveHoldingPeriod');
    expect(entry).toMatchObject({ before: { giftHoldingHours: 24 }, after: { giftHoldingHours: 0 } });
    await as(manager, '/ops/api/channel/saveHoldingPeriod', { channel: 'AURORA', holdingHours: 24 });
  });

  it.each([[-1], [8761], [1.5], ['24']])('refuses %p by name, in Chinese too, and changes nothing', async (holdingHours) => {
    const before = await row('AURORA');
    const answer = await as(manager, '/ops/api/channel/saveHoldingPeriod', { channel: 'AURORA', holdingHours });
    expect(answer.code).toBe(400);
    expect(answer.message).toMatch(/^holdingHours: must be/);
    const zh = await api.callApi(
      '/ops/api/channel/saveHoldingPeriod',
      { channel: 'AURORA', holdingHours },
      { host: OPS_HOST, headers: { cookie: manager.cookie, 'accept-language': 'zh-CN' } },
    );
    expect(zh.message).toMatch(/^持有时长：/);
    expect(await row('AURORA')).toEqual(before);
  });

  it('is refused to support and to a manager of another channel', async () => {
    expect((await as(support, '/ops/api/channel/saveHoldingPeriod', { channel: 'AURORA', holdingHours: 1 })).code).toBe(403);
    expect((await as(lumenManager, '/ops/api/channel/saveHoldingPeriod', { channel: 'AURORA', holdingHours: 1 })).code).toBe(404);
  });
});
