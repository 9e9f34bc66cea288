import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { makeSale } from '@/test/buying';
import { signedInOperator } from '@/test/operator-fixtures';
import { lotteryStory, type LotteryStory } from '@/test/lottery-fixtures';
import { orders, saleAllocations } from '@/lib/db/schema';
import { runJobsOnce } from '@/lib/jobs/runner';
import { openLotteryRounds } from '@/lib/sale/lottery';

// The buy of a lottery sale (issue 35: "winners buy within a purchase window"): order/create admits a winner of the
// sale's draw from the draw until their window ends; everyone else (not registered, not drawn yet, waitlisted, window
// over, a winner of another sale's draw) is refused 409 `notAdmitted` with `data.lottery` saying why, in the buyer's
// language, and nothing is reserved. The sale's per-buyer limit still applies to a winner. lottery/status and the pay
// state tell the buyer whether they may buy now.

// Shedding by event-loop lag has its own test (lib/server/load-shedding.test.ts); a loaded machine must not shed these buys.
process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let story: LotteryStory;

const at = (hours: number) => story.at(hours);
const ops = (path: string, body: unknown, now?: Date) => story.ops(path, body, now);

beforeAll(async () => {
  api = await createTestApi();
  const owner = await signedInOperator(api.db, { name: 'lottery-buy.owner', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
  story = lotteryStory(api, owner, '192.0.2.201');
}, 120_000);
afterAll(() => api.close());

/** Registration from 1 h to 2 h, the draw at 3 h, a purchase window of 60 minutes: a winner buys from the draw to 4 h. */
const setUp = (sale: string) => ops('/ops/api/sale/lottery/set', story.settings(sale));
const draw = (sale: string, publicValue: string) => ops('/ops/api/sale/lottery/draw', { channel: 'AURORA', sale, publicValue }, at(3));
const register = (buyer: TestBuyer, saleId: number) =>
  api.callApi('/market/api/lottery/register', { saleId: String(saleId) }, { token: buyer.token, now: at(1.5) });

let keys = 0;
const buy = (buyer: TestBuyer, saleId: number, now: Date, options: { locale?: string; quantity?: number; key?: string } = {}) =>
  api.callApi(
    '/market/api/order/create',
    { saleId: String(saleId), quantity: options.quantity ?? 1, idempotencyKey: options.key ?? `lottery-buy-${++keys}` },
    { token: buyer.token, now, headers: { 'accept-language': options.locale ?? 'en' } },
  );
const status = (buyer: TestBuyer, saleId: number, now: Date) =>
  api.callApi('/market/api/lottery/status', { saleId: String(saleId) }, { token: buyer.token, now });
const payState = (buyer: TestBuyer, saleId: number, now: Date, locale = 'en') =>
  api.callApi(
    '/market/api/saleRecord/payState',
    { id: String(saleId) },
    { token: buyer.token, now, headers: { 'accept-language': locale } },
  );

const ordersOf = (saleId: number) => api.db.select().from(orders).where(eq(orders.saleId, saleId));

describe('a lottery sale of 2 copies, one per buyer, with 5 registrants', () => {
  let saleId: number;
  let otherSaleId: number;
  let registrants: TestBuyer[];
  let winners: TestBuyer[];
  let waitlisted: TestBuyer[];
  let stranger: TestBuyer;
  let otherWinner: TestBuyer;

  beforeAll(async () => {
    ({ saleId } = await makeSale(api.db, { code: 'lottery-buy', amount: 2, limitPerUser: 1, now: api.now }));
    ({ saleId: otherSaleId } = await makeSale(api.db, { code: 'lottery-buy-other', amount: 1, limitPerUser: 1, now: api.now }));
    registrants = await Promise.all(Array.from({ length: 5 }, (_, i) => api.buyer(`1391240${String(1000 + i)}`)));
    stranger = await api.buyer('13912409000');
    otherWinner = await api.buyer('13912409001');
  });

  it('once the sale is a lottery, its pay state and its buy tell a buyer who did not register so (the cached terms dropped)', async () => {
    // The sale's terms are read (and cached) as first come...
    expect((await payState(stranger, saleId, api.now)).data).toMatchObject({ lottery: null });
    expect((await setUp('lottery-buy')).code).toBe(200);
    expect((await setUp('lottery-buy-other')).code).toBe(200);
    // ...and the setup dropped them: the next read knows the lottery.
    expect((await payState(stranger, saleId, api.now)).data).toMatchObject({
      lottery: { status: 'notRegistered', mayBuy: false, refusal: 'notRegistered' },
    });
    const refused = await buy(stranger, saleId, api.now);
    expect(refused).toMatchObject({ code: 409, data: { reason: 'notAdmitted', lottery: 'notRegistered', field: 'saleId' } });
    expect(await ordersOf(saleId)).toHaveLength(0);
  });

  it('refuses a registrant before the draw, in both languages, reserving nothing', async () => {
    for (const buyer of registrants) expect((await register(buyer, saleId)).code).toBe(200);
    expect((await register(otherWinner, otherSaleId)).code).toBe(200);

    const early = await buy(registrants[0]!, saleId, at(2.5));
    expect(early).toMatchObject({ code: 409, data: { reason: 'notAdmitted', lottery: 'notDrawn', field: 'saleId' } });
    expect(early.message).toMatch(/^This sale goes by lottery and its draw is at .+: if you are drawn, you may buy after it\.$/);
    const zh = await buy(registrants[0]!, saleId, at(2.5), { locale: 'zh-CN' });
    expect(zh).toMatchObject({ code: 409, data: { reason: 'notAdmitted', lottery: 'notDrawn' } });
    expect(zh.message).toMatch(/^本商品为抽签发售，将于 .+ 开奖，中签后方可购买$/);
    expect((await status(registrants[0]!, saleId, at(2.5))).data).toMatchObject({ status: 'registered', mayBuy: false });
    expect(await ordersOf(saleId)).toHaveLength(0);
  });

  it('after the draw, tells each registrant whether they may buy now', async () => {
    // The terms cached before the draw (not drawn yet) are dropped by it.
    expect((await draw('lottery-buy', '3 1 4')).code).toBe(200);
    expect((await draw('lottery-buy-other', '3 1 4')).code).toBe(200);
    winners = [];
    waitlisted = [];
    for (const buyer of registrants) {
      const mine = (await status(buyer, saleId, at(3.1))).data as { status: string; mayBuy: boolean };
      (mine.status === 'winner' ? winners : waitlisted).push(buyer);
      expect(mine.mayBuy).toBe(mine.status === 'winner');
    }
    expect(winners).toHaveLength(2);
    expect(waitlisted).toHaveLength(3);
    expect((await status(otherWinner, otherSaleId, at(3.1))).data).toMatchObject({ status: 'winner', mayBuy: true });

    const purchaseEndsAt = (await status(winners[0]!, saleId, at(3.1))).data as { purchaseEndsAt: string };
    expect((await payState(winners[0]!, saleId, at(3.1))).data).toMatchObject({
      left: 1,
      lottery: { status: 'winner', mayBuy: true, purchaseEndsAt: purchaseEndsAt.purchaseEndsAt, refusal: null, message: null },
    });
  });

  it('lets a winner buy within the window, within the per-buyer limit', async () => {
    const over = await buy(winners[0]!, saleId, at(3.1), { quantity: 2 });
    expect(over).toMatchObject({ code: 400 });
    const bought = await buy(winners[0]!, saleId, at(3.1), { key: 'lottery-buy-winner' });
    expect(bought).toMatchObject({ code: 200, data: { saleId: String(saleId), quantity: 1, statusTrade: 0 } });
    const again = await buy(winners[0]!, saleId, at(3.12));
    expect(again).toMatchObject({ code: 409, data: { reason: 'limit' } });
    expect(await ordersOf(saleId)).toHaveLength(1);
  });

  it('refuses the waitlisted, with their place, in both languages', async () => {
    const places = await Promise.all(
      waitlisted.map(async (buyer) => ((await status(buyer, saleId, at(3.1))).data as { waitlistPosition: number }).waitlistPosition),
    );
    expect([...places].sort()).toEqual([1, 2, 3]);
    const en = await buy(waitlisted[0]!, saleId, at(3.1));
    expect(en).toMatchObject({ code: 409, data: { reason: 'notAdmitted', lottery: 'waitlist', field: 'saleId' } });
    expect(en.message).toBe(`You were not drawn among the winners of this lottery: you are number ${places[0]} on its waitlist.`);
    const zh = await buy(waitlisted[0]!, saleId, at(3.1), { locale: 'zh-CN' });
    expect(zh.message).toBe(`您未中签，现为候补名单第 ${places[0]} 位`);
    expect((await payState(waitlisted[0]!, saleId, at(3.1), 'zh-CN')).data).toMatchObject({
      lottery: { status: 'waitlist', mayBuy: false, waitlistPosition: places[0], refusal: 'waitlist', message: zh.message },
    });
  });

  it('refuses a buyer who did not register, and a winner of another sale, in both languages', async () => {
    for (const buyer of [stranger, otherWinner]) {
      const en = await buy(buyer, saleId, at(3.1));
      expect(en).toMatchObject({ code: 409, data: { reason: 'notAdmitted', lottery: 'notRegistered', field: 'saleId' } });
      expect(en.message).toBe('This sale goes by lottery: only its drawn winners may buy, and you did not register for its draw.');
      const zh = await buy(buyer, saleId, at(3.1), { locale: 'zh-CN' });
      expect(zh.message).toBe('本商品为抽签发售，仅中签用户可购买，您未登记本次抽签');
    }
    // The other sale's winner buys their own.
    expect((await buy(otherWinner, otherSaleId, at(3.1))).code).toBe(200);
  });

  it('refuses a winner once their window is over, in both languages; a retried tap still answers the order it made', async () => {
    const late = winners[1]!;
    const en = await buy(late, saleId, at(4));
    expect(en).toMatchObject({ code: 409, data: { reason: 'notAdmitted', lottery: 'windowOver', field: 'saleId' } });
    expect(en.message).toMatch(/^Your time to buy as a winner of this lottery ended at .+\.$/);
    const zh = await buy(late, saleId, at(4), { locale: 'zh-CN' });
    expect(zh.message).toMatch(/^您的中签购买时限已于 .+ 结束$/);
    expect((await status(late, saleId, at(4))).data).toMatchObject({ status: 'winner', mayBuy: false });
    expect((await payState(late, saleId, at(4))).data).toMatchObject({
      lottery: { status: 'winner', mayBuy: false, refusal: 'windowOver', message: en.message },
    });

    const retried = await buy(winners[0]!, saleId, at(4), { key: 'lottery-buy-winner' });
    expect(retried).toMatchObject({ code: 200, data: { quantity: 1 } });
    expect(await ordersOf(saleId)).toHaveLength(1);
  });

  it('gives the copies left after the window to the waitlist, round by round, until the list ends', async () => {
    const byPlace = async (now: Date) => {
      const standing = await Promise.all(
        waitlisted.map(async (buyer) => ({ buyer, ...((await status(buyer, saleId, now)).data as { waitlistPosition: number }) })),
      );
      return standing.sort((a, b) => a.waitlistPosition - b.waitlistPosition).map((s) => s.buyer);
    };
    const [first, second, third] = (await byPlace(at(4))) as [TestBuyer, TestBuyer, TestBuyer];

    // The jobs' pass at 4 h: the unpaid orders of the winners who bought expired (this sale's and the other's), so both
    // copies of this sale are left, and round 2 opens for the next two on its waitlist, for the same hour. The other
    // sale's list (one registrant) has ended: no round there.
    const pass = await runJobsOnce(api.db, at(4));
    expect(pass).toMatchObject({ expired: 2, lotteryRounds: 1 });
    // Two processes' passes at once open no second round.
    expect(await Promise.all([openLotteryRounds(api.db, at(4)), openLotteryRounds(api.db, at(4))])).toEqual([0, 0]);
    for (const buyer of [first, second]) {
      expect((await status(buyer, saleId, at(4.1))).data).toMatchObject({
        status: 'winner',
        round: 2,
        mayBuy: true,
        purchaseEndsAt: at(5).toISOString(),
        waitlistPosition: null,
      });
    }
    expect((await status(third, saleId, at(4.1))).data).toMatchObject({ status: 'waitlist', waitlistPosition: 1, mayBuy: false });
    expect((await payState(third, saleId, at(4.1))).data).toMatchObject({ lottery: { status: 'waitlist', waitlistPosition: 1 } });
    // The round-2 buyer buys; the third on the list may not yet; a round-1 winner's window stays over.
    expect(await buy(first, saleId, at(4.1))).toMatchObject({ code: 200, data: { quantity: 1 } });
    expect(await buy(third, saleId, at(4.1))).toMatchObject({ code: 409, data: { lottery: 'waitlist' } });
    expect(await buy(winners[1]!, saleId, at(4.1))).toMatchObject({ code: 409, data: { lottery: 'windowOver' } });
    // Before round 2 ends, no pass opens another.
    expect(await openLotteryRounds(api.db, at(4.9))).toBe(0);

    // At 5 h the round-2 buyer's order has expired unpaid: both copies are left again, and round 3 admits the last
    // registrant, as many as are left but the list ends there.
    expect(await runJobsOnce(api.db, at(5))).toMatchObject({ expired: 1, lotteryRounds: 1 });
    expect((await status(third, saleId, at(5.1))).data).toMatchObject({ status: 'winner', round: 3, mayBuy: true });
    expect((await status(second, saleId, at(5.1))).data).toMatchObject({ status: 'winner', round: 2, mayBuy: false });
    expect(await buy(third, saleId, at(5.1))).toMatchObject({ code: 200 });
    // The list has ended: no round after it, whatever is left.
    expect(await runJobsOnce(api.db, at(7))).toMatchObject({ lotteryRounds: 0 });
    const [row] = await api.db.select({ rounds: saleAllocations.rounds }).from(saleAllocations).where(eq(saleAllocations.saleId, saleId));
    expect(row?.rounds?.map(({ round, from, through }) => [round, from, through])).toEqual([
      [1, 1, 2],
      [2, 3, 4],
      [3, 5, 5],
    ]);
  });
});
