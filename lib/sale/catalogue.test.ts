import { eq } from 'drizzle-orm';
import { createTestApi, type TestApi, type TestBuyer } from '@/test/api';
import { blindBoxPrizes, commodities, editionCounters } from '@/lib/db/schema';
import { readBlindBoxOdds } from '@/lib/page/cached-reads';
import { mintHoldings } from '@/lib/collection/mint';
import { openBox } from '@/lib/collection/service';
import { createCollectible, editCollectible, listPrizes, setBoxPrizes, type CatalogueAudit, type CollectibleInput } from './catalogue';

// Issue 32, "Catalogue" and "Blind boxes": a collectible's edition size never below what is minted; a box's odds in basis
// points adding up to exactly 10000, each prize's value shown to buyers with its odds, and the draw using these weights.

let api: TestApi;
let buyer: TestBuyer;
let aurora: number;
let lumen: number;
let audited: unknown[];
const audit: CatalogueAudit = async (_tx, change) => {
  audited.push(change);
};

const input = (code: string, over: Partial<CollectibleInput> = {}): CollectibleInput => ({
  code,
  name: `Test ${code}`,
  description: 'A test collectible.',
  authorName: 'Ada',
  authorCover: '/brands/default/user-face.svg',
  publisherName: 'Aurora',
  seriesName: 'Tests',
  cover: '/media/cover.webp',
  gallery: ['/media/one.webp', '/media/two.webp'],
  amountSku: 100,
  chainName: 'Ledger',
  chainContract: 'TEST',
  contractAddress: '0x0',
  isBlindBox: false,
  ...over,
});

let box: number;
let prizes: number[];

beforeAll(async () => {
  api = await createTestApi();
  buyer = await api.buyer('13912343301');
  aurora = await api.channelId('AURORA');
  lumen = await api.channelId('LUMEN');
  audited = [];
  box = (await createCollectible(api.db, aurora, input('TEST-BOX', { isBlindBox: true }), audit)).id;
  prizes = [];
  for (const code of ['TEST-PRIZE-A', 'TEST-PRIZE-B', 'TEST-PRIZE-C'])
    prizes.push((await createCollectible(api.db, aurora, input(code), audit)).id);
});
afterAll(() => api.close());
beforeEach(() => {
  audited = [];
});

const odds = (weights: number[], values = [100, 2000, 50000]) =>
  weights.map((weight, i) => ({ collectibleId: prizes[i]!, weight, value: values[i]! }));

describe('collectibles', () => {
  it('keeps its pictures, and refuses a code the channel has, naming code', async () => {
    const made = await createCollectible(api.db, aurora, input('TEST-PICTURES'), audit);
    expect(made).toMatchObject({ cover: '/media/cover.webp', gallery: ['/media/one.webp', '/media/two.webp'], minted: 0 });
    await expect(createCollectible(api.db, aurora, input('TEST-PICTURES'), audit)).rejects.toMatchObject({
      code: 400,
      data: { field: 'code' },
    });
  });

  it('refuses an edition size below the editions minted, naming amountSku, and changes nothing', async () => {
    const made = await createCollectible(api.db, aurora, input('TEST-MINTED', { amountSku: 10 }), audit);
    await api.db.transaction((tx) =>
      mintHoldings(tx, {
        channelId: aurora,
        userId: buyer.userId,
        commodity: { id: made.id, amountSku: 10 } as never,
        quantity: 4,
        now: api.now,
      }),
    );
    audited = [];
    await expect(editCollectible(api.db, aurora, made.id, input('TEST-MINTED', { amountSku: 3 }), audit)).rejects.toMatchObject({
      code: 400,
      data: { field: 'amountSku' },
    });
    const [row] = await api.db.select().from(commodities).where(eq(commodities.id, made.id));
    expect(row!.amountSku).toBe(10);
    expect(audited).toEqual([]);
    const edited = await editCollectible(api.db, aurora, made.id, input('TEST-MINTED', { amountSku: 4, name: 'Renamed' }), audit);
    expect(edited).toMatchObject({ amountSku: 4, minted: 4, name: 'Renamed' });
    const [counter] = await api.db.select().from(editionCounters).where(eq(editionCounters.commodityId, made.id));
    expect(counter!.amountSku).toBe(4);
  });

  it("does not edit another channel's collectible", async () => {
    await expect(editCollectible(api.db, lumen, box, input('TEST-BOX', { isBlindBox: true }), audit)).rejects.toMatchObject({ code: 404 });
  });
});

describe('blind-box prizes', () => {
  it.each([
    [[7000, 2500, 499], '99.99%'],
    [[7000, 2500, 501], '100.01%'],
  ])('refuses odds %j that add up to %s, naming prizes, and changes nothing', async (weights, percent) => {
    const before = await api.db.select().from(blindBoxPrizes).where(eq(blindBoxPrizes.boxCommodityId, box));
    const refusal = setBoxPrizes(api.db, aurora, box, odds(weights), audit);
    await expect(refusal).rejects.toMatchObject({ code: 400, data: { field: 'prizes' } });
    await expect(setBoxPrizes(api.db, aurora, box, odds(weights), audit)).rejects.toThrow(percent);
    expect(await api.db.select().from(blindBoxPrizes).where(eq(blindBoxPrizes.boxCommodityId, box))).toEqual(before);
    expect(audited).toEqual([]);
  });

  it("refuses a prize that is another channel's collectible, a box, or given twice", async () => {
    const lumenCollectible = await createCollectible(api.db, lumen, input('TEST-LUMEN'), audit);
    const stranger = [{ collectibleId: lumenCollectible.id, weight: 10000, value: 1 }];
    await expect(setBoxPrizes(api.db, aurora, box, stranger, audit)).rejects.toMatchObject({ data: { field: 'prizes' } });
    const itself = [{ collectibleId: box, weight: 10000, value: 1 }];
    await expect(setBoxPrizes(api.db, aurora, box, itself, audit)).rejects.toMatchObject({ data: { field: 'prizes' } });
    const twice = [
      { collectibleId: prizes[0]!, weight: 5000, value: 1 },
      { collectibleId: prizes[0]!, weight: 5000, value: 1 },
    ];
    await expect(setBoxPrizes(api.db, aurora, box, twice, audit)).rejects.toMatchObject({ data: { field: 'prizes' } });
  });

  it('shows buyers each prize with its odds and value, the new ones at once after an edit', async () => {
    await setBoxPrizes(api.db, aurora, box, odds([7000, 2500, 500]), audit);
    const scope = { db: api.db, now: api.now, channelId: aurora };
    expect(await readBlindBoxOdds(scope, String(box))).toEqual([
      expect.objectContaining({ name: 'Test TEST-PRIZE-A', percent: '70%', value: 100 }),
      expect.objectContaining({ name: 'Test TEST-PRIZE-B', percent: '25%', value: 2000 }),
      expect.objectContaining({ name: 'Test TEST-PRIZE-C', percent: '5%', value: 50000 }),
    ]);
    await setBoxPrizes(api.db, aurora, box, odds([6000, 3000, 1000], [1, 2, 3]), audit);
    expect((await readBlindBoxOdds(scope, String(box))).map((o) => [o.percent, o.value])).toEqual([
      ['60%', 1],
      ['30%', 2],
      ['10%', 3],
    ]);
    expect(audited).toHaveLength(2);
    expect((await listPrizes(api.db, box)).map((p) => p.weight)).toEqual([6000, 3000, 1000]);
  });

  it('draws by the basis points: the last 500 of 10000 are the rare prize', async () => {
    await setBoxPrizes(api.db, aurora, box, odds([7000, 2500, 500]), audit);
    const [holding] = await api.db.transaction((tx) =>
      mintHoldings(tx, {
        channelId: aurora,
        userId: buyer.userId,
        commodity: { id: box, amountSku: 100 } as never,
        quantity: 1,
        now: api.now,
      }),
    );
    const scope = { db: api.db, now: api.now, channelId: aurora, userId: buyer.userId };
    let total = 0;
    const { prize } = await openBox(scope, holding!.id, (max) => {
      total = max;
      return 9999;
    });
    expect(total).toBe(10000);
    expect(prize.commodity?.name ?? JSON.stringify(prize)).toContain('TEST-PRIZE-C');
  });
});
