import { eq, sql } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { makeSale } from '@/test/buying';
import { signedInOperator } from '@/test/operator-fixtures';
import { lotteryStory, type LotteryStory } from '@/test/lottery-fixtures';
import { holdings, operatorAudit, orders, salePriorityBuyers, sales } from '@/lib/db/schema';
import { accountNumberOf } from '@/lib/auth/account-numbers';
import { runJobsOnce } from '@/lib/jobs/runner';
import { gateBuyCall } from '@/lib/order/buy-gate';
import { databaseError } from '@/lib/db/errors';
import { publicPriority } from './priority';

// Priority purchase (优先购, issue 35): a first-come sale opens early to the buyers eligible when it is decided (holders
// of a collectible, buyers with N paid orders on the channel, the imported whitelist) and to nobody else; before the
// decision nobody buys early; the settings freeze at the decision; lotteries and waiting rooms do not mix with it.

// Shedding by event-loop lag has its own test (lib/server/load-shedding.test.ts); a loaded machine must not shed these buys.
process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let story: LotteryStory;
const at = (hours: number) => story.at(hours);
const ops = (path: string, body: unknown, now?: Date, locale?: string) => story.ops(path, body, now, locale);

/** The story's sale opens at 4 h, 60 minutes early (3 h) to the eligible, decided at 2 h. */
const OPENS = 4;
const settings = (over: Record<string, unknown> = {}) => ({
  minutesEarly: 60,
  holderCollectibles: ['prio-key'],
  minPaidOrders: 2,
  decideAt: at(2).toISOString(),
  ...over,
});
const setPriority = (sale: string, priority: unknown, now?: Date, locale?: string) =>
  ops('/ops/api/sale/priority/set', { channel: 'AURORA', sale, priority }, now, locale);
const importCsv = (sale: string, csv: string, now?: Date) => ops('/ops/api/sale/priority/whitelist', { channel: 'AURORA', sale, csv }, now);

let keys = 0;
const buy = (buyer: TestBuyer, saleId: number, now: Date, locale = 'en') =>
  api.callApi(
    '/market/api/order/create',
    { saleId: String(saleId), quantity: 1, idempotencyKey: `priority-buy-${++keys}` },
    { token: buyer.token, now, headers: { 'accept-language': locale } },
  );
const status = (buyer: TestBuyer, saleId: number, now: Date) =>
  api.callApi('/market/api/priority/status', { saleId: String(saleId) }, { token: buyer.token, now });

/** A sale of its own, opening at `opensAtHours` of the story. */
async function futureSale(code: string, opensAtHours = OPENS, amount = 10) {
  const made = await makeSale(api.db, { code, amount, limitPerUser: 1, now: api.now });
  await api.db
    .update(sales)
    .set({ saleStartTime: at(opensAtHours) })
    .where(eq(sales.id, made.saleId));
  return made;
}

beforeAll(async () => {
  api = await createTestApi();
  const owner = await signedInOperator(api.db, { name: 'priority.owner', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
  story = lotteryStory(api, owner, '192.0.2.202');
}, 120_000);
afterAll(() => api.close());

describe('a sale opening an hour early to holders, buyers with 2 paid orders and a whitelist', () => {
  let saleId: number;
  let holder: TestBuyer;
  let spentHolder: TestBuyer;
  let loyal: TestBuyer;
  let once: TestBuyer;
  let invited: TestBuyer;
  let stranger: TestBuyer;
  let invitedNumber: string;

  beforeAll(async () => {
    ({ saleId } = await futureSale('prio-sale'));
    const key = await makeSale(api.db, { code: 'prio-key', amount: 5, limitPerUser: 5, now: api.now });
    const paidSale = await makeSale(api.db, { code: 'prio-paid', amount: 10, limitPerUser: 5, now: api.now });
    const lumenSale = await makeSale(api.db, { channelKey: 'LUMEN', code: 'prio-lumen', amount: 10, limitPerUser: 5, now: api.now });
    const buyers = await Promise.all(
      ['13912350001', '13912350002', '13912350003', '13912350004', '13912350005', '13912350006'].map((p) => api.buyer(p)),
    );
    [holder, spentHolder, loyal, once, invited, stranger] = buyers as [TestBuyer, TestBuyer, TestBuyer, TestBuyer, TestBuyer, TestBuyer];
    const channelId = key.channelId;
    const hold = (buyer: TestBuyer, number: number, spent: Partial<typeof holdings.$inferInsert> = {}) =>
      api.db
        .insert(holdings)
        .values({ channelId, userId: buyer.userId, commodityId: key.commodityId, number, createdAt: api.now, ...spent });
    await hold(holder, 1);
    // A copy spent in an exchange, and one taken back by a refund, hold nothing.
    await hold(spentHolder, 2, { destroyedAt: api.now });
    await hold(spentHolder, 3, { refundedAt: api.now });
    let n = 0;
    const paid = (buyer: TestBuyer, sale: { saleId: number; channelId: number }, statusTrade = 1) =>
      api.db.insert(orders).values({
        orderNo: `PRIO${String(++n).padStart(8, '0')}`,
        channelId: sale.channelId,
        userId: buyer.userId,
        saleId: sale.saleId,
        quantity: 1,
        price: 1000,
        amount: 1000,
        statusTrade,
        idempotencyKey: `prio-paid-${n}`,
        createdAt: api.now,
        expiresAt: api.now,
      });
    await paid(loyal, paidSale);
    await paid(loyal, paidSale);
    // One paid order here, one cancelled, and two on another channel: not two paid orders on this one.
    await paid(once, paidSale);
    await paid(once, paidSale, 2);
    await paid(once, lumenSale);
    await paid(once, lumenSale);
    invitedNumber = await accountNumberOf(api.db, channelId, invited.userId);
    await accountNumberOf(api.db, channelId, stranger.userId);
  });

  it('refuses settings that cannot work, naming the field', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ minutesEarly: 0 }, 400, 'minutesEarly'],
      [{ minutesEarly: 1441 }, 400, 'minutesEarly'],
      [{ decideAt: api.now.toISOString() }, 400, 'decideAt'],
      // After the early opening (3 h).
      [{ decideAt: at(3.5).toISOString() }, 400, 'decideAt'],
      [{ holderCollectibles: ['no-such-thing'] }, 400, 'holderCollectibles'],
      [{ holderCollectibles: [], minPaidOrders: null }, 400, 'holderCollectibles'],
      [{ minPaidOrders: 0 }, 400, 'minPaidOrders'],
    ];
    for (const [over, code, field] of cases) {
      const answer = await setPriority('prio-sale', settings(over));
      expect({ over, code: answer.code, message: answer.message }).toMatchObject({ over, code, message: expect.stringContaining('') });
      expect({ over, named: answer.message.includes(field) || (answer.data as { field?: string } | null)?.field === field }).toEqual({
        over,
        named: true,
      });
    }
    const zh = await setPriority('prio-sale', settings({ decideAt: at(3.5).toISOString() }), undefined, 'zh-CN');
    expect(zh.message).toMatch(/^资格判定时间须不晚于优先购开始时间 .+$/);
  });

  it('sets the priority, and imports the whitelist naming each refused row', async () => {
    const set = await setPriority('prio-sale', settings());
    expect(set).toMatchObject({
      code: 200,
      data: {
        priority: {
          minutesEarly: 60,
          holderCollectibles: ['prio-key'],
          minPaidOrders: 2,
          whitelistCount: 0,
          decideAt: at(2).toISOString(),
          decidedAt: null,
          eligibleCount: null,
          opensAt: at(3).toISOString(),
          saleStartsAt: at(4).toISOString(),
        },
      },
    });
    const csv = ['account_number', invitedNumber, '', 'not-a-number', '1000000000', invitedNumber, ''].join('\r\n');
    const imported = await importCsv('prio-sale', csv);
    expect(imported).toMatchObject({
      code: 200,
      data: {
        imported: 1,
        whitelistCount: 1,
        refused: [
          { line: 4, value: 'not-a-number', reason: 'notAnAccountNumber' },
          { line: 5, value: '1000000000', reason: 'noSuchBuyer' },
          { line: 6, value: invitedNumber, reason: 'duplicate' },
        ],
      },
    });
    // A second import replaces the list.
    expect((await importCsv('prio-sale', `${invitedNumber}\n`)).data).toMatchObject({ imported: 1, whitelistCount: 1, refused: [] });
    expect((await ops('/ops/api/sale/priority', { channel: 'AURORA', sale: 'prio-sale' })).data).toMatchObject({
      priority: { whitelistCount: 1 },
    });
    // Each write left one entry in the audit trail, with the sale's priority before and after.
    const entries = await api.db
      .select()
      .from(operatorAudit)
      .where(sql`${operatorAudit.procedure} like 'sale/priority/%'`);
    expect(entries.map((e) => [e.procedure, e.before, e.after])).toEqual([
      [
        'sale/priority/set',
        { sale: 'prio-sale', priority: null },
        { sale: 'prio-sale', priority: expect.objectContaining({ minutesEarly: 60 }) },
      ],
      ['sale/priority/whitelist', { sale: 'prio-sale', whitelistCount: 0 }, { sale: 'prio-sale', whitelistCount: 1, refused: 3 }],
      ['sale/priority/whitelist', { sale: 'prio-sale', whitelistCount: 1 }, { sale: 'prio-sale', whitelistCount: 1, refused: 0 }],
    ]);
    expect(await publicPriority(api.db, (await api.channelId('AURORA'))!, saleId)).toEqual({
      opensAt: at(3).toISOString(),
      saleStartsAt: at(4).toISOString(),
      decideAt: at(2).toISOString(),
      minutesEarly: 60,
      holderCollectibleNames: ['Test prio-key'],
      minPaidOrders: 2,
      hasWhitelist: true,
    });
  });

  it('refuses a whitelist of more than 100,000 rows (400, csv), keeping the list', async () => {
    const csv = Array.from({ length: 100_001 }, (_, i) => String(1_000_000_000 + i)).join('\n');
    const answer = await importCsv('prio-sale', csv);
    expect(answer).toMatchObject({ code: 400, data: { field: 'csv' } });
    expect(answer.message).toBe('A whitelist holds at most 100,000 account numbers.');
    expect((await ops('/ops/api/sale/priority', { channel: 'AURORA', sale: 'prio-sale' })).data).toMatchObject({
      priority: { whitelistCount: 1 },
    });
  });

  it('lets nobody buy early before the decision', async () => {
    // 2.5 h: the decision's time has passed but no jobs' pass ran; 3.5 h is within the early window.
    expect((await status(holder, saleId, at(2.5))).data).toMatchObject({ priority: { decided: false, eligible: false, reasons: [] } });
    const refused = await buy(holder, saleId, at(3.5));
    expect(refused).toMatchObject({ code: 409, data: { reason: 'notOpen' } });
  });

  it('decides at its time, in the jobs pass: the holder, the buyer with 2 paid orders and the invited buyer, nobody else', async () => {
    expect((await runJobsOnce(api.db, at(1.9))).priorities).toBe(0);
    expect((await runJobsOnce(api.db, at(2))).priorities).toBe(1);
    expect((await runJobsOnce(api.db, at(2.01))).priorities).toBe(0);
    const rows = await api.db.select().from(salePriorityBuyers).where(eq(salePriorityBuyers.saleId, saleId));
    const byUser = new Map(rows.map((r) => [r.userId, r.reasons]));
    expect(Object.fromEntries([holder, loyal, invited].map((b) => [b.phone, byUser.get(b.userId)]))).toEqual({
      [holder.phone]: ['holder'],
      [loyal.phone]: ['orders'],
      [invited.phone]: ['whitelist'],
    });
    expect(rows).toHaveLength(3);
    expect((await ops('/ops/api/sale/priority', { channel: 'AURORA', sale: 'prio-sale' }, at(2.1))).data).toMatchObject({
      priority: { decidedAt: at(2).toISOString(), eligibleCount: 3 },
    });
    expect((await status(invited, saleId, at(2.1))).data).toEqual({
      priority: {
        opensAt: at(3).toISOString(),
        saleStartsAt: at(4).toISOString(),
        decideAt: at(2).toISOString(),
        decided: true,
        eligible: true,
        reasons: ['whitelist'],
      },
    });
    for (const buyer of [spentHolder, once, stranger])
      expect((await status(buyer, saleId, at(2.1))).data).toMatchObject({ priority: { decided: true, eligible: false, reasons: [] } });
  });

  it('freezes the settings and the whitelist once decided', async () => {
    const changed = await setPriority('prio-sale', settings({ minutesEarly: 30 }), at(2.1));
    expect(changed).toMatchObject({ code: 409, data: { field: 'minutesEarly' } });
    expect(changed.message).toMatch(/^The minutes early cannot change any more: eligibility was decided at .+\.$/);
    const zh = await setPriority('prio-sale', settings({ decideAt: at(2.5).toISOString() }), at(2.1), 'zh-CN');
    expect(zh).toMatchObject({ code: 409, data: { field: 'decideAt' } });
    expect(zh.message).toMatch(/^优先购的资格判定时间已不能修改：资格已于 .+ 判定$/);
    expect(await setPriority('prio-sale', null, at(2.1))).toMatchObject({ code: 409, data: { field: 'priority' } });
    expect(await importCsv('prio-sale', invitedNumber, at(2.1))).toMatchObject({ code: 409, data: { field: 'csv' } });
    // The same settings again answer the priority as it is.
    expect(await setPriority('prio-sale', settings(), at(2.1))).toMatchObject({ code: 200, data: { priority: { eligibleCount: 3 } } });
  });

  it('before the early window, refuses everyone as not open yet', async () => {
    expect(await buy(holder, saleId, at(2.9))).toMatchObject({ code: 409, data: { reason: 'notOpen' } });
  });

  it("the claim's statement holds the floor itself: an opening before the early one, or a buyer not eligible, is refused", async () => {
    // A process with stale terms (an opening at 2.5 h for a sale open from 3 h to its eligible) or one that took a
    // buyer for eligible gets the sale-changed refusal, and nothing of the claim stays.
    const channelId = await api.channelId('AURORA');
    const claim = (buyer: TestBuyer, opensAt: number, key: string) =>
      api.db
        .execute(
          sql`select * from claim_copies(${saleId}::integer, ${buyer.userId}::integer, ${channelId}::integer, 1, 1, ${key}, 1000, ${key},
            ${at(3.5).toISOString()}::timestamptz, ${at(4).toISOString()}::timestamptz, ${at(opensAt).toISOString()}::timestamptz)`,
        )
        .then(
          () => 'made',
          (error: unknown) => (databaseError(error, 'SFCHG') ? 'SFCHG' : error),
        );
    expect(await claim(holder, 2.5, 'PRIOFLOOR0000001')).toBe('SFCHG');
    expect(await claim(spentHolder, 3, 'PRIOFLOOR0000002')).toBe('SFCHG');
    expect(await api.db.select().from(orders).where(eq(orders.saleId, saleId))).toHaveLength(0);
  });

  it('in the early window, an eligible buyer buys; anyone else is told the sale opens at its time, in both languages', async () => {
    for (const buyer of [holder, loyal, invited]) expect(await buy(buyer, saleId, at(3.5))).toMatchObject({ code: 200 });
    for (const buyer of [spentHolder, once, stranger]) {
      const en = await buy(buyer, saleId, at(3.5));
      expect(en).toMatchObject({ code: 409, data: { reason: 'notOpen', saleStartTime: at(4).toISOString() } });
      expect(en.message).toMatch(/^This sale opens on .+\.$/);
      const zh = await buy(buyer, saleId, at(3.5), 'zh-CN');
      expect(zh).toMatchObject({ code: 409, data: { reason: 'notOpen' } });
      expect(zh.message).toMatch(/^尚未开售，开售时间：.+$/);
    }
    // From the opening, everyone.
    expect(await buy(stranger, saleId, at(4.01))).toMatchObject({ code: 200 });
  });

  it("lets the buy lane's gate pass a buy in the early window (the buy answers it), and answer one before it", async () => {
    const gate = (now: Date) =>
      gateBuyCall(
        {
          headers: { host: 'aurora.localhost:3000', authorization: once.token },
          body: JSON.stringify({ saleId: String(saleId), quantity: 1, idempotencyKey: 'priority-gate-1' }),
        },
        { db: api.db, now },
      );
    expect(JSON.parse((await gate(at(2.9)))!.body)).toMatchObject({ code: 409, data: { reason: 'notOpen' } });
    expect(await gate(at(3.5))).toBeNull();
  });
});

describe('with the other allocation modes', () => {
  it('refuses priority on a lottery, and a lottery or a waiting room on a sale with priority (409, mode)', async () => {
    await futureSale('prio-lottery', 10);
    expect((await ops('/ops/api/sale/lottery/set', story.settings('prio-lottery'))).code).toBe(200);
    const onLottery = await setPriority('prio-lottery', settings());
    expect(onLottery).toMatchObject({ code: 409, data: { field: 'mode' } });
    expect(onLottery.message).toBe('This sale goes by lottery: priority purchase is for first-come sales only.');

    await futureSale('prio-first', 10);
    expect((await setPriority('prio-first', settings())).code).toBe(200);
    expect(await ops('/ops/api/sale/lottery/set', story.settings('prio-first'))).toMatchObject({ code: 409, data: { field: 'mode' } });
    const queue = await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'prio-first', joinMinutes: 10 });
    expect(queue).toMatchObject({ code: 409, data: { field: 'mode' } });
    // Removed before the decision, the sale may become a waiting room, and then takes no priority.
    expect(await setPriority('prio-first', null)).toMatchObject({ code: 200, data: { priority: null } });
    expect((await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'prio-first', joinMinutes: 10 })).code).toBe(200);
    expect(await setPriority('prio-first', settings())).toMatchObject({ code: 409, data: { field: 'mode' } });
  });
});
