import { and, eq } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { makeSale } from '@/test/buying';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { lotteryStory, type LotteryStory } from '@/test/lottery-fixtures';
import { channels, lotteryRegistrations, operatorAudit, saleAllocations, sales } from '@/lib/db/schema';
import { residentIdCheckDigit } from '@/lib/format/resident-id';
import { IDENTITY_CONSENT_VERSION } from '@/lib/identity/consent';
import { commitmentOf, runDraw, verifyDraw, type PublishedDraw } from './draw';

// The lottery's data and calls (issue 35, "Lottery (抽签)"): the console sets a lottery up on a sale (its commitment
// public at once), buyers register in the window, once each (and once per identity where the channel asks a real name),
// the settings freeze when registration opens, the operator draws once after the draw's time, and anyone reads the
// published draw, which `verifyDraw` (the code of `npm run draw:verify`) accepts.

let api: TestApi;
let story: LotteryStory;

const at = (hours: number) => story.at(hours);
const ops = (path: string, body: unknown, now?: Date, locale?: string) => story.ops(path, body, now, locale);
const settings = (sale: string, channel?: string) => story.settings(sale, channel);

beforeAll(async () => {
  api = await createTestApi();
  const owner = await signedInOperator(api.db, { name: 'lottery.owner', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
  story = lotteryStory(api, owner, '192.0.2.200');
}, 120_000);
afterAll(() => api.close());

const register = (buyer: TestBuyer, saleId: number, now: Date, options: { locale?: string; host?: string } = {}) =>
  api.callApi(
    '/market/api/lottery/register',
    { saleId: String(saleId) },
    { token: buyer.token, now, host: options.host, headers: { 'accept-language': options.locale ?? 'en' } },
  );
const status = (buyer: TestBuyer, saleId: number, now: Date) =>
  api.callApi('/market/api/lottery/status', { saleId: String(saleId) }, { token: buyer.token, now });
const published = (saleId: number, now: Date, host?: string) =>
  api.callApi('/market/api/lottery/published', { saleId: String(saleId) }, { now, host });

async function rowsOf(saleId: number) {
  return api.db.select().from(lotteryRegistrations).where(eq(lotteryRegistrations.saleId, saleId));
}

describe('a lottery on a sale of 3 copies', () => {
  let saleId: number;
  let commitment: string;
  let buyers: TestBuyer[];

  beforeAll(async () => {
    ({ saleId } = await makeSale(api.db, { code: 'lottery-main', amount: 3, limitPerUser: 1, now: api.now }));
    buyers = await Promise.all(Array.from({ length: 8 }, (_, i) => api.buyer(`1391235${String(1000 + i)}`)));
  });

  it('refuses times out of order, naming the field, in both languages', async () => {
    const past = await ops('/ops/api/sale/lottery/set', { ...settings('lottery-main'), registrationOpensAt: at(-1).toISOString() });
    expect(past).toMatchObject({ code: 400, data: { field: 'registrationOpensAt' } });
    expect(past.message).toBe('Registration must open in the future: the commitment is published before anyone can register.');
    const closes = await ops(
      '/ops/api/sale/lottery/set',
      { ...settings('lottery-main'), registrationClosesAt: at(1).toISOString() },
      api.now,
      'zh-CN',
    );
    expect(closes).toMatchObject({ code: 400, message: '登记截止时间须晚于开始时间', data: { field: 'registrationClosesAt' } });
    const draw = await ops('/ops/api/sale/lottery/set', { ...settings('lottery-main'), drawAt: at(1.5).toISOString() });
    expect(draw).toMatchObject({
      code: 400,
      message: 'The draw must be at or after the close of registration.',
      data: { field: 'drawAt' },
    });
    const lottery = await ops('/ops/api/sale/lottery', { channel: 'AURORA', sale: 'lottery-main' });
    expect(lottery.data).toEqual({ lottery: null });
  });

  it('is set up with a commitment public at once, the seed kept out of every buyer answer', async () => {
    const set = await ops('/ops/api/sale/lottery/set', settings('lottery-main'));
    expect(set.code).toBe(200);
    const view = set.data as { commitment: string; copies: number; frozen: boolean; registrants: number };
    expect(view).toMatchObject({ copies: 3, frozen: false, registrants: 0 });
    commitment = view.commitment;
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);

    const pub = await published(saleId, api.now);
    expect(pub.code).toBe(200);
    expect(pub.data).toMatchObject({ saleId: String(saleId), copies: 3, commitment, registrants: 0, draw: null, drawnAt: null });

    const [row] = await api.db.select({ seed: saleAllocations.seed }).from(saleAllocations).where(eq(saleAllocations.saleId, saleId));
    expect(commitmentOf(row!.seed!)).toBe(commitment);
    expect(pub.text).not.toContain(row!.seed!);
    expect(set.text).not.toContain(row!.seed!);
    // Nor does the trail keep it.
    const trail = await api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, 'sale/lottery/set'));
    expect(trail).toHaveLength(1);
    expect(JSON.stringify(trail)).not.toContain(row!.seed!);
  });

  it('refuses registering before the window opens, in both languages', async () => {
    const early = await register(buyers[0]!, saleId, at(0.5));
    expect(early).toMatchObject({ code: 409, data: { field: 'saleId' } });
    expect(early.message).toMatch(/^Registration for this lottery opens at /);
    const zh = await register(buyers[0]!, saleId, at(0.5), { locale: 'zh-CN' });
    expect(zh.message).toMatch(/开放登记$/);
    expect(await rowsOf(saleId)).toHaveLength(0);
    expect((await status(buyers[0]!, saleId, at(0.5))).data).toMatchObject({ status: 'notRegistered', drawn: false, commitment });
  });

  it('registers a buyer once: 50 taps at once make one row, and a later tap answers the same registration', async () => {
    const taps = await Promise.all(Array.from({ length: 50 }, () => register(buyers[0]!, saleId, at(1.1))));
    expect(taps.map((t) => t.code)).toEqual(Array(50).fill(200));
    const numbers = new Set(taps.map((t) => (t.data as { accountNumber: string }).accountNumber));
    expect(numbers.size).toBe(1);
    expect(await rowsOf(saleId)).toHaveLength(1);
    const again = await register(buyers[0]!, saleId, at(1.5));
    expect(again.data).toEqual(taps[0]!.data);
    expect(again.data).toMatchObject({ status: 'registered', drawn: false, accountNumber: [...numbers][0] });
  });

  it('freezes the settings once registration opened: a change is refused naming it, the same settings answer', async () => {
    const changed = await ops('/ops/api/sale/lottery/set', { ...settings('lottery-main'), drawAt: at(4).toISOString() }, at(1.2));
    expect(changed).toMatchObject({ code: 409, data: { field: 'drawAt' } });
    expect(changed.message).toMatch(/^The draw time cannot change any more: registration opened at /);
    const zh = await ops('/ops/api/sale/lottery/set', { ...settings('lottery-main'), publicValueSource: 'another' }, at(1.2), 'zh-CN');
    expect(zh).toMatchObject({ code: 409, data: { field: 'publicValueSource' } });
    expect(zh.message).toMatch(/^公开值来源已不能修改/);
    const same = await ops('/ops/api/sale/lottery/set', settings('lottery-main'), at(1.2));
    expect(same).toMatchObject({ code: 200, data: { commitment, frozen: true, registrants: 1 } });
    // The sale's copies are the draw's N: frozen too.
    const copies = await ops('/ops/api/sale/addCopies', { channel: 'AURORA', sale: 'lottery-main', copies: 2 }, at(1.2));
    expect(copies).toMatchObject({ code: 409, data: { field: 'copies' } });
    expect((await ops('/ops/api/sale/lottery', { channel: 'AURORA', sale: 'lottery-main' }, at(1.2))).data).toMatchObject({
      lottery: { copies: 3 },
    });
  });

  it("answers another channel's host that it has no such sale", async () => {
    const lumenBuyer = await api.buyer('13912351999', 'LUMEN');
    const answer = await register(lumenBuyer, saleId, at(1.3), { host: 'lumen.localhost:3000' });
    expect(answer).toMatchObject({ code: 404, data: { field: 'saleId' } });
    expect((await published(saleId, at(1.3), 'lumen.localhost:3000')).code).toBe(404);
    expect(await rowsOf(saleId)).toHaveLength(1);
  });

  it('refuses registering after the window closed', async () => {
    for (const buyer of buyers.slice(1)) expect((await register(buyer, saleId, at(1.9))).code).toBe(200);
    const late = await api.callApi(
      '/market/api/lottery/register',
      { saleId: String(saleId) },
      { token: (await api.buyer('13912352999')).token, now: at(2) },
    );
    expect(late).toMatchObject({ code: 409, data: { field: 'saleId' } });
    expect(late.message).toMatch(/^Registration for this lottery closed at /);
    expect(await rowsOf(saleId)).toHaveLength(8);
  });

  it('draws once, after its time, and publishes a draw that verifies and names every buyer as their status says', async () => {
    const early = await ops('/ops/api/sale/lottery/draw', { channel: 'AURORA', sale: 'lottery-main', publicValue: '4 7 1' }, at(2.5));
    expect(early).toMatchObject({ code: 409, data: { field: 'sale' } });
    expect(early.message).toMatch(/^The draw is set for /);
    const blank = await ops('/ops/api/sale/lottery/draw', { channel: 'AURORA', sale: 'lottery-main', publicValue: '   ' }, at(3), 'zh-CN');
    expect(blank).toMatchObject({ code: 400, message: '请按来源公布的原样填写公开值：1 至 200 个字符', data: { field: 'publicValue' } });
    expect((await status(buyers[0]!, saleId, at(3))).data).toMatchObject({ status: 'registered', drawn: false });

    const drawn = await ops('/ops/api/sale/lottery/draw', { channel: 'AURORA', sale: 'lottery-main', publicValue: ' 4 7 1 ' }, at(3));
    expect(drawn).toMatchObject({ code: 200, data: { winners: 3, waitlist: 5, lottery: { publicValue: '4 7 1' } } });
    const twice = await ops('/ops/api/sale/lottery/draw', { channel: 'AURORA', sale: 'lottery-main', publicValue: '9 9 9' }, at(3.1));
    expect(twice).toMatchObject({ code: 409, data: { field: 'sale' } });
    expect(twice.message).toMatch(/a draw runs once\.$/);

    const pub = await published(saleId, at(3.2));
    const draw = (pub.data as { draw: PublishedDraw }).draw;
    expect(verifyDraw(draw)).toEqual({ ok: true });
    expect(draw.commitment).toBe(commitment);
    expect(draw.publicValue).toBe('4 7 1');
    // The same draw, recomputed from the registrants the database holds and the seed revealed.
    const numbers = (await rowsOf(saleId)).map((r) => r.accountNumber);
    expect(draw).toEqual(
      runDraw({
        saleId: String(saleId),
        channelKey: 'AURORA',
        copies: 3,
        seed: draw.seed,
        publicValue: '4 7 1',
        publicValueSource: '福彩3D numbers drawn on the draw day',
        accountNumbers: numbers,
      }),
    );
    expect(draw.winners).toHaveLength(3);

    const drawnAt = (drawn.data as { lottery: { drawnAt: string } }).lottery.drawnAt;
    for (const buyer of buyers) {
      const mine = (await status(buyer, saleId, at(3.2))).data as { accountNumber: string };
      const win = draw.winners.indexOf(mine.accountNumber);
      const wait = draw.waitlist.indexOf(mine.accountNumber);
      if (win !== -1) {
        expect(mine).toMatchObject({
          status: 'winner',
          drawn: true,
          purchaseEndsAt: new Date(Date.parse(drawnAt) + 60 * 60_000).toISOString(),
        });
      } else {
        expect(mine).toMatchObject({ status: 'waitlist', drawn: true, waitlistPosition: wait + 1, purchaseEndsAt: null });
      }
    }
    const stranger = await api.buyer('13912353999');
    expect((await status(stranger, saleId, at(3.2))).data).toMatchObject({ status: 'notRegistered', drawn: true });

    const trail = await api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, 'sale/lottery/draw'));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ before: { drawnAt: null }, after: { drawnAt, listHash: draw.listHash } });
  });
});

describe('a sale through a waiting room', () => {
  it('becomes a lottery before its joining opens, and is refused once buyers may be in its queue, in both languages', async () => {
    const { saleId } = await makeSale(api.db, { code: 'lottery-from-queue', amount: 3, limitPerUser: 1, now: api.now });
    // The sale opens at 2 h; its waiting room lets buyers join 10 minutes before.
    await api.db
      .update(sales)
      .set({ saleStartTime: at(2) })
      .where(eq(sales.id, saleId));
    expect((await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'lottery-from-queue', joinMinutes: 10 })).code).toBe(200);
    const later = (sale: string) => ({
      ...settings(sale),
      registrationOpensAt: at(3).toISOString(),
      registrationClosesAt: at(4).toISOString(),
      drawAt: at(5).toISOString(),
    });
    const en = await ops('/ops/api/sale/lottery/set', later('lottery-from-queue'), at(1.9));
    expect(en).toMatchObject({ code: 409, data: { field: 'sale' } });
    expect(en.message).toMatch(/^This sale’s waiting room opened at .+: buyers are in its queue, so it cannot become a lottery\.$/);
    const zh = await ops('/ops/api/sale/lottery/set', later('lottery-from-queue'), at(1.9), 'zh-CN');
    expect(zh.message).toMatch(/^这个发售的排队已于 .+ 开放，已有买家在排队，不能改为抽签$/);
    // Before its joining opened, the same setup turns it into a lottery.
    expect(await ops('/ops/api/sale/lottery/set', later('lottery-from-queue'), at(1.5))).toMatchObject({
      code: 200,
      data: { mode: 'lottery' },
    });
  });
});

describe("the console's roles", () => {
  it('lets support read a lottery but not set one up nor draw, and a manager of another channel reach none of it', async () => {
    await makeSale(api.db, { code: 'lottery-roles', amount: 2, limitPerUser: 1, now: api.now });
    const before = new Date(api.now.getTime() - 60_000);
    const support = await signedInOperator(api.db, { name: 'lottery.support', role: 'support', channels: ['AURORA'], now: before });
    const lumenManager = await signedInOperator(api.db, { name: 'lottery.lumen', role: 'manager', channels: ['LUMEN'], now: before });
    const as = (op: TestOperator) => (path: string, body: unknown) =>
      api.callApi(path, body, { host: OPS_HOST, headers: { cookie: op.cookie } });
    const draw = { channel: 'AURORA', sale: 'lottery-roles', publicValue: '1' };
    expect((await as(support)('/ops/api/sale/lottery/set', settings('lottery-roles'))).code).toBe(403);
    expect((await as(support)('/ops/api/sale/lottery/draw', draw)).code).toBe(403);
    expect((await as(lumenManager)('/ops/api/sale/lottery/set', settings('lottery-roles'))).code).toBe(404);
    expect((await as(lumenManager)('/ops/api/sale/lottery', { channel: 'AURORA', sale: 'lottery-roles' })).code).toBe(404);
    expect(
      await api.db
        .select()
        .from(saleAllocations)
        .innerJoin(sales, eq(sales.id, saleAllocations.saleId))
        .where(eq(sales.code, 'lottery-roles')),
    ).toEqual([]);
    expect((await as(support)('/ops/api/sale/lottery', { channel: 'AURORA', sale: 'lottery-roles' })).body).toMatchObject({
      code: 200,
      data: { lottery: null },
    });
  });
});

describe('on a channel that asks a real name before buying', () => {
  let saleId: number;
  beforeAll(async () => {
    await api.db
      .update(channels)
      .set({ identityPolicy: { realName: { buy: true } } })
      .where(eq(channels.key, 'LUMEN'));
    ({ saleId } = await makeSale(api.db, { channelKey: 'LUMEN', code: 'lottery-real-name', amount: 1, limitPerUser: 1, now: api.now }));
    expect((await ops('/ops/api/sale/lottery/set', settings('lottery-real-name', 'LUMEN'))).code).toBe(200);
  });

  const first17 = '44030519900615123';
  const person = { name: '陈一人', idNumber: first17 + residentIdCheckDigit(first17) };
  const LUMEN = 'lumen.localhost:3000';

  it('registers one identity once: its second phone cannot verify it nor register, and the database refuses a second row', async () => {
    jest.spyOn(console, 'info').mockImplementation(() => {});
    const [phone1, phone2] = await Promise.all(['13912354001', '13912354002'].map((p) => api.buyer(p, 'LUMEN')));
    const verify = (buyer: TestBuyer) =>
      api.callApi(
        '/market/api/identity/verify',
        { consentVersion: IDENTITY_CONSENT_VERSION, ...person },
        { token: buyer.token, host: LUMEN },
      );

    const unverified = await register(phone1!, saleId, at(1.1), { host: LUMEN, locale: 'zh-CN' });
    expect(unverified).toMatchObject({ code: 1010, message: '请先完成实名认证，再购买' });
    expect((await verify(phone1!)).code).toBe(200);
    const registered = await Promise.all(Array.from({ length: 10 }, () => register(phone1!, saleId, at(1.1), { host: LUMEN })));
    expect(registered.map((r) => r.code)).toEqual(Array(10).fill(200));

    expect((await verify(phone2!)).code).not.toBe(200);
    expect((await register(phone2!, saleId, at(1.1), { host: LUMEN })).code).toBe(1010);

    const rows = await rowsOf(saleId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.identityHash).toMatch(/^[0-9a-f]{64}$/);
    // Were the identity to reach another account (a support fix), the database still holds one registration per identity.
    await expect(
      api.db.insert(lotteryRegistrations).values({
        saleId,
        channelId: rows[0]!.channelId,
        userId: phone2!.userId,
        accountNumber: '1234567890',
        identityHash: rows[0]!.identityHash,
        createdAt: at(1.2),
      }),
    ).rejects.toThrow();
    expect(
      await api.db
        .select()
        .from(lotteryRegistrations)
        .where(and(eq(lotteryRegistrations.saleId, saleId))),
    ).toHaveLength(1);
  });
});
