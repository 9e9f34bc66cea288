import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { blindBoxPrizes, channels, commodities, sales } from '@/lib/db/schema';
import { findSale, listBlindBoxOdds, listSales } from './service';
import { SALE_STATUS } from './status';

let aurora: number;
let lumen: number;
const now = new Date('2026-11-22T08:00:00Z');
const DAY_MS = 86_400_000;

async function channelId(key: string): Promise<number> {
  const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  if (!row) throw new Error(`no channel ${key}`);
  return row.id;
}

const db = seededTestDb(now);
beforeAll(async () => {
  aurora = await channelId('AURORA');
  lumen = await channelId('LUMEN');
});

const allAurora = () => listSales({ db, now, channelId: aurora }, { pageCount: 1, pageSize: 50 });

describe('listSales', () => {
  it('pages the channel sales with current, pages, size and total', async () => {
    const first = await listSales({ db, now, channelId: aurora }, { pageCount: 1, pageSize: 4 });
    expect(first).toMatchObject({ current: 1, size: 4, total: 9, pages: 3 });
    expect(first.records).toHaveLength(4);

    const last = await listSales({ db, now, channelId: aurora }, { pageCount: 3, pageSize: 4 });
    expect(last).toMatchObject({ current: 3, size: 4, total: 9, pages: 3 });
    expect(last.records).toHaveLength(1);
  });

  it('gives an empty page past the end, still telling the total', async () => {
    const beyond = await listSales({ db, now, channelId: aurora }, { pageCount: 4, pageSize: 4 });
    expect(beyond.records).toEqual([]);
    expect(beyond).toMatchObject({ current: 4, total: 9, pages: 3 });
  });

  it('walks every sale exactly once across the pages, in the same order as one big page', async () => {
    const pages = await Promise.all([1, 2, 3].map((pageCount) => listSales({ db, now, channelId: aurora }, { pageCount, pageSize: 4 })));
    const walked = pages.flatMap((p) => p.records.map((r) => r.id));
    expect(walked).toEqual((await allAurora()).records.map((r) => r.id));
    expect(new Set(walked).size).toBe(9);
  });

  it("lists the sales in the channel's chosen order (sort)", async () => {
    const before = (await allAurora()).records;
    const lastSale = before.at(-1)!;
    const [original] = await db
      .select({ sort: sales.sort })
      .from(sales)
      .where(eq(sales.id, Number(lastSale.id)));
    await db
      .update(sales)
      .set({ sort: -1 })
      .where(eq(sales.id, Number(lastSale.id)));
    try {
      const after = (await allAurora()).records;
      expect(after[0]?.id).toBe(lastSale.id);
      expect(after.slice(1).map((r) => r.id)).toEqual(before.slice(0, -1).map((r) => r.id));
    } finally {
      await db
        .update(sales)
        .set({ sort: original!.sort })
        .where(eq(sales.id, Number(lastSale.id)));
    }
  });

  it('never mixes channels', async () => {
    const lumenPage = await listSales({ db, now, channelId: lumen }, { pageCount: 1, pageSize: 50 });
    expect(lumenPage.total).toBe(3);
    const auroraIds = new Set((await allAurora()).records.map((r) => r.id));
    expect(lumenPage.records.some((r) => auroraIds.has(r.id))).toBe(false);
  });

  it('gives an empty page for a channel without sales', async () => {
    const page = await listSales({ db, now, channelId: await channelId('GIFT') }, { pageCount: 1, pageSize: 10 });
    expect(page).toEqual({ records: [], total: 0, current: 1, pages: 0, size: 10 });
  });

  it('derives statusSell at the time asked for', async () => {
    const byName = async (at: Date) => {
      const page = await listSales({ db, now: at, channelId: aurora }, { pageCount: 1, pageSize: 50 });
      return new Map(page.records.map((r) => [r.commodity.name, r.statusSell]));
    };
    expect((await byName(now)).get('Moon Rabbit')).toBe(SALE_STATUS.COMING_SOON);
    expect((await byName(new Date(now.getTime() + 4 * DAY_MS))).get('Moon Rabbit')).toBe(SALE_STATUS.ON_SALE);
    expect((await byName(new Date(now.getTime() + 40 * DAY_MS))).get('Moon Rabbit')).toBe(SALE_STATUS.ENDED);
  });
});

describe('findSale', () => {
  it('finds a sale of the channel, with its commodity', async () => {
    const listed = (await allAurora()).records[0]!;
    const sale = await findSale({ db, now, channelId: aurora }, listed.id);
    expect(sale).toEqual(listed);
  });

  it("gives null for another channel's sale", async () => {
    const lumenSale = (await listSales({ db, now, channelId: lumen }, { pageCount: 1, pageSize: 1 })).records[0]!;
    expect(await findSale({ db, now, channelId: lumen }, lumenSale.id)).not.toBeNull();
    expect(await findSale({ db, now, channelId: aurora }, lumenSale.id)).toBeNull();
  });

  it.each(['0', '-1', '1.5', 'abc', '', ' 1', '1 ', '01', '1e0', '0x1', '99999999999', '2147483648', '999999'])(
    'gives null for the id %p',
    async (id) => {
      expect(await findSale({ db, now, channelId: aurora }, id)).toBeNull();
    },
  );
});

describe('listBlindBoxOdds', () => {
  const percentSum = (odds: { percent: string }[]) => odds.reduce((sum, o) => sum + Number.parseFloat(o.percent), 0);

  it("publishes the seeded box's odds, most likely first, summing to 100%", async () => {
    const box = (await allAurora()).records.find((r) => r.commodity.isBlindBox);
    expect(box).toBeDefined();
    const odds = await listBlindBoxOdds({ db }, box!.commodity.id);
    expect(odds.map((o) => [o.name, o.percent])).toEqual([
      ['Crystal Owl', '60%'],
      ['Ember Phoenix', '30%'],
      ['Frost Lynx', '10%'],
    ]);
    expect(percentSum(odds)).toBeCloseTo(100, 5);
    expect(odds.every((o) => o.cover.startsWith('/'))).toBe(true);
  });

  it('shows one decimal when a share is not a whole percent, and the shares still add up to about 100%', async () => {
    const make = async (code: string, isBlindBox: boolean) => {
      const [row] = await db
        .insert(commodities)
        .values({
          channelId: aurora,
          code,
          name: code,
          cover: `/goods/${code}.svg`,
          amountSku: 10,
          chainName: 'ledger',
          chainContract: `ledger:${code}`,
          contractAddress: '0x0',
          authorName: 'Test',
          authorCover: '/a.svg',
          publisherName: 'Test',
          isBlindBox,
        })
        .returning({ id: commodities.id });
      return row!.id;
    };
    const box = await make('odds-box', true);
    const prizes = { 'odds-rare': 1, 'odds-common': 4, 'odds-uncommon': 2 };
    for (const [code, weight] of Object.entries(prizes)) {
      await db.insert(blindBoxPrizes).values({ boxCommodityId: box, prizeCommodityId: await make(code, false), weight });
    }

    const odds = await listBlindBoxOdds({ db }, String(box));
    expect(odds.map((o) => [o.name, o.weight, o.percent])).toEqual([
      ['odds-common', 4, '57.1%'],
      ['odds-uncommon', 2, '28.6%'],
      ['odds-rare', 1, '14.3%'],
    ]);
    expect(percentSum(odds)).toBeCloseTo(100, 0);
  });

  it('gives no odds for a commodity that is not a blind box', async () => {
    const plain = (await allAurora()).records.find((r) => !r.commodity.isBlindBox)!;
    expect(await listBlindBoxOdds({ db }, plain.commodity.id)).toEqual([]);
  });
});
