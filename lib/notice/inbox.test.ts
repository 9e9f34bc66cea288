import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { makeSale } from '@/test/buying';
import { signedInOperator } from '@/test/operator-fixtures';
import { lotteryStory, type LotteryStory } from '@/test/lottery-fixtures';
import { buyerMessages, commodities, sales } from '@/lib/db/schema';
import { formatDate } from '@/lib/format/date';
import { runJobsOnce } from '@/lib/jobs/runner';
import { addLotteryRoundMessages } from '@/lib/sale/lottery-messages';
import { addMessages, INBOX_PAGE_SIZE } from './inbox';

// A buyer's own inbox (issue 35, "notices tell winners"): the draw leaves one message for each winner, a later round one
// for each waitlist buyer it admits, and nobody else any; a round run again adds none. The buyer reads them in their
// language (message/list), newest first, 20 a page, with the unread count Mine shows, and marks them read
// (message/read: their own ids, or all; another buyer's ids change nothing; neither is a 400 naming `ids`).

let api: TestApi;
let story: LotteryStory;

const at = (hours: number) => story.at(hours);

beforeAll(async () => {
  api = await createTestApi();
  const owner = await signedInOperator(api.db, { name: 'inbox.owner', role: 'owner', now: new Date(api.now.getTime() - 60_000) });
  story = lotteryStory(api, owner, '192.0.2.202');
}, 120_000);
afterAll(() => api.close());

type MessageView = { id: string; kind: string; title: string; body: string; saleId: string | null; href: string | null; read: boolean };
type Inbox = { list: MessageView[]; total: number; unread: number };

const inbox = async (buyer: TestBuyer, now: Date, options: { locale?: string; page?: number } = {}) => {
  const answer = await api.callApi('/market/api/message/list', options.page ? { page: options.page } : {}, {
    token: buyer.token,
    now,
    host: `${buyer.channelKey.toLowerCase()}.localhost:3000`,
    headers: { 'accept-language': options.locale ?? 'en' },
  });
  expect(answer.code).toBe(200);
  return answer.data as Inbox;
};
const read = (buyer: TestBuyer, body: unknown, now: Date, locale = 'en') =>
  api.callApi('/market/api/message/read', body, { token: buyer.token, now, headers: { 'accept-language': locale } });
const status = async (buyer: TestBuyer, saleId: number, now: Date) =>
  (await api.callApi('/market/api/lottery/status', { saleId: String(saleId) }, { token: buyer.token, now })).data as {
    status: string;
    waitlistPosition: number | null;
  };
const mine = async (buyer: TestBuyer, now: Date) =>
  (await api.callApi('/market/api/userAttribute/mineSummary', {}, { token: buyer.token, now })).data as { unreadMessages: number };
const messagesOf = (buyer: TestBuyer) => api.db.select().from(buyerMessages).where(eq(buyerMessages.userId, buyer.userId));

describe('the messages of a lottery of 2 copies with 6 registrants', () => {
  let saleId: number;
  let goods: string;
  let registrants: TestBuyer[];
  let winners: TestBuyer[];
  let waitlisted: TestBuyer[];
  let stranger: TestBuyer;

  beforeAll(async () => {
    ({ saleId } = await makeSale(api.db, { code: 'inbox-lottery', amount: 2, limitPerUser: 1, now: api.now }));
    const [row] = await api.db
      .select({ name: commodities.name })
      .from(sales)
      .innerJoin(commodities, eq(commodities.id, sales.commodityId))
      .where(eq(sales.id, saleId));
    goods = row!.name;
    registrants = await Promise.all(Array.from({ length: 6 }, (_, i) => api.buyer(`1391250${String(1000 + i)}`)));
    stranger = await api.buyer('13912509000');
    expect((await story.ops('/ops/api/sale/lottery/set', story.settings('inbox-lottery'))).code).toBe(200);
    for (const buyer of registrants) {
      const registered = await api.callApi(
        '/market/api/lottery/register',
        { saleId: String(saleId) },
        { token: buyer.token, now: at(1.5) },
      );
      expect(registered.code).toBe(200);
    }
  });

  it('has nothing for anyone before the draw', async () => {
    for (const buyer of [...registrants, stranger]) {
      expect(await inbox(buyer, at(2.5))).toEqual({ list: [], total: 0, unread: 0 });
      expect((await mine(buyer, at(2.5))).unreadMessages).toBe(0);
    }
  });

  it('tells each winner once, in the language they read it in, and nobody else', async () => {
    const drawn = await story.ops('/ops/api/sale/lottery/draw', { channel: 'AURORA', sale: 'inbox-lottery', publicValue: '2 7 1' }, at(3));
    expect(drawn.code).toBe(200);
    winners = [];
    waitlisted = [];
    for (const buyer of registrants) ((await status(buyer, saleId, at(3.1))).status === 'winner' ? winners : waitlisted).push(buyer);
    expect(winners).toHaveLength(2);
    expect(waitlisted).toHaveLength(4);

    const until = formatDate(at(4), 'MM-dd HH:mm', 'Asia/Shanghai');
    for (const winner of winners) {
      const en = await inbox(winner, at(3.1));
      expect(en.total).toBe(1);
      expect(en.unread).toBe(1);
      expect(en.list[0]).toMatchObject({
        kind: 'lotteryWon',
        title: `You won the lottery for ${goods}!`,
        body: `A copy of ${goods} is yours to buy: buy it in the store by ${until}.`,
        saleId: String(saleId),
        href: `/goods/detail/${saleId}`,
        read: false,
      });
      const zh = await inbox(winner, at(3.1), { locale: 'zh-CN' });
      expect(zh.list[0]).toMatchObject({ title: `恭喜您抽中${goods}！`, body: `${goods}已为您保留一份，请于${until}前在商城完成购买。` });
      // Mine's badge counts it.
      expect((await mine(winner, at(3.1))).unreadMessages).toBe(1);
    }
    for (const buyer of [...waitlisted, stranger]) {
      expect(await inbox(buyer, at(3.1))).toEqual({ list: [], total: 0, unread: 0 });
      expect(await messagesOf(buyer)).toHaveLength(0);
    }
    // Round 1 told again (a re-run): nobody gets a second message.
    expect(await addLotteryRoundMessages(api.db, { saleId, round: 1, from: 1, through: 2, endsAt: at(4) }, at(3.2))).toBe(0);
    for (const winner of winners) expect(await messagesOf(winner)).toHaveLength(1);
  });

  it('tells the buyers a later round admits, once each, and not the rest of the waitlist', async () => {
    // Nobody bought in round 1: at 4 h both copies go to the next two on the waitlist.
    expect(await runJobsOnce(api.db, at(4))).toMatchObject({ lotteryRounds: 1 });
    const places = await Promise.all(waitlisted.map(async (buyer) => ({ buyer, ...(await status(buyer, saleId, at(4.1))) })));
    const admitted = places.filter((p) => p.status === 'winner').map((p) => p.buyer);
    const waiting = places.filter((p) => p.status === 'waitlist').map((p) => p.buyer);
    expect(admitted).toHaveLength(2);
    expect(waiting).toHaveLength(2);

    const until = formatDate(at(5), 'MM-dd HH:mm', 'Asia/Shanghai');
    for (const buyer of admitted) {
      const mineNow = await inbox(buyer, at(4.1));
      expect(mineNow.total).toBe(1);
      expect(mineNow.list[0]).toMatchObject({
        kind: 'lotteryRound',
        title: `Your turn to buy ${goods}`,
        body: `A copy of ${goods} is yours to buy from the lottery waitlist: buy it in the store by ${until}.`,
        href: `/goods/detail/${saleId}`,
      });
      expect((await inbox(buyer, at(4.1), { locale: 'zh-CN' })).list[0]!.title).toBe(`候补名单轮到您了：${goods}`);
    }
    for (const buyer of [...waiting, stranger]) expect(await messagesOf(buyer)).toHaveLength(0);
    // Round 1's winners still have their one message; round 2 run again adds none.
    for (const winner of winners) expect(await messagesOf(winner)).toHaveLength(1);
    expect(await addLotteryRoundMessages(api.db, { saleId, round: 2, from: 3, through: 4, endsAt: at(5) }, at(4.2))).toBe(0);
    for (const buyer of admitted) expect(await messagesOf(buyer)).toHaveLength(1);
  });

  it('marks read only the buyer’s own ids; another buyer’s ids change nothing', async () => {
    const [first, second] = winners as [TestBuyer, TestBuyer];
    const theirs = (await inbox(second, at(4.2))).list[0]!.id;
    const mineId = (await inbox(first, at(4.2))).list[0]!.id;

    const stolen = await read(first, { ids: [theirs] }, at(4.2));
    expect(stolen).toMatchObject({ code: 200, data: { marked: 0, unread: 1 } });
    expect((await inbox(second, at(4.2))).list[0]!.read).toBe(false);

    expect(await read(first, { ids: [mineId, theirs] }, at(4.2))).toMatchObject({ code: 200, data: { marked: 1, unread: 0 } });
    expect((await inbox(first, at(4.3))).list[0]).toMatchObject({ id: mineId, read: true });
    expect((await mine(first, at(4.3))).unreadMessages).toBe(0);
    // Again: nothing more to mark.
    expect(await read(first, { ids: [mineId] }, at(4.3))).toMatchObject({ code: 200, data: { marked: 0, unread: 0 } });
    // The other winner marks all of theirs.
    expect(await read(second, { all: true }, at(4.3))).toMatchObject({ code: 200, data: { marked: 1, unread: 0 } });
    expect((await inbox(second, at(4.3))).unread).toBe(0);
  });

  it('refuses a read that names no message, naming `ids`, in both languages', async () => {
    for (const body of [{}, { ids: [] }, { all: false }]) {
      const en = await read(stranger, body, at(4.3));
      expect(en).toMatchObject({ code: 400, message: 'Say which messages to mark read: their ids, or all.', data: { field: 'ids' } });
      const zh = await read(stranger, body, at(4.3), 'zh-CN');
      expect(zh).toMatchObject({ code: 400, message: '请指明要标为已读的消息：消息编号，或全部', data: { field: 'ids' } });
    }
    const notAnId = await read(stranger, { ids: ['x'] }, at(4.3), 'zh-CN');
    expect(notAnId).toMatchObject({ code: 400, message: '消息：格式不正确' });
  });

  it('asks a login of a visitor', async () => {
    expect((await api.callApi('/market/api/message/list', {}, { now: at(4.3) })).code).toBe(401);
    expect((await api.callApi('/market/api/message/read', { all: true }, { now: at(4.3) })).code).toBe(401);
  });
});

describe('a buyer with many messages', () => {
  it('lists them newest first, 20 a page, on their own channel only', async () => {
    const buyer = await api.buyer('13912509100');
    const elsewhere = await api.buyer('13912509100', 'LUMEN');
    const aurora = await api.channelId('AURORA');
    const lumen = await api.channelId('LUMEN');
    const made = await Promise.all(
      Array.from({ length: 23 }, (_, i) =>
        makeSale(api.db, { code: `inbox-many-${i}`, amount: 1, limitPerUser: 1, now: api.now }).then((s) => s.saleId),
      ),
    );
    // One a minute, oldest first, in one statement each minute (the same sale's message twice is one message).
    for (const [i, saleId] of made.entries()) {
      const now = new Date(api.now.getTime() + i * 60_000);
      const message = { channelId: aurora, userId: buyer.userId, kind: 'lotteryWon' as const, saleId, params: { goods: `Goods ${i}` } };
      expect(await api.db.transaction((tx) => addMessages(tx, [message, message], now))).toBe(1);
    }
    const { saleId: lumenSale } = await makeSale(api.db, {
      channelKey: 'LUMEN',
      code: 'inbox-lumen',
      amount: 1,
      limitPerUser: 1,
      now: api.now,
    });
    const lumenMessage = { channelId: lumen, userId: elsewhere.userId, kind: 'lotteryWon' as const, saleId: lumenSale, params: {} };
    expect(await addMessages(api.db, [lumenMessage], api.now)).toBe(1);

    const later = new Date(api.now.getTime() + 3_600_000);
    const first = await inbox(buyer, later);
    expect(first).toMatchObject({ total: 23, unread: 23 });
    expect(first.list).toHaveLength(INBOX_PAGE_SIZE);
    expect(first.list[0]!.title).toBe('You won the lottery for Goods 22!');
    expect(first.list.at(-1)!.title).toBe('You won the lottery for Goods 3!');
    const second = await inbox(buyer, later, { page: 2 });
    expect(second.list.map((m) => m.title)).toEqual([2, 1, 0].map((i) => `You won the lottery for Goods ${i}!`));
    // LUMEN's message is LUMEN's: the same phone there has one; marking all on AURORA leaves it unread.
    expect(await read(buyer, { all: true }, later)).toMatchObject({ data: { marked: 23, unread: 0 } });
    expect(await inbox(elsewhere, later)).toMatchObject({ total: 1, unread: 1 });
  });
});
