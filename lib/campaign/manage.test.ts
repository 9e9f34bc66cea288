import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { campaignOffers, campaigns, channels } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { claimGift } from '@/lib/gift/service';
import { getExchangeOffer } from '@/lib/exchange/service';
import { createChainCampaign, addChainCodes, listChainCampaigns } from '@/lib/chain/manage';
import { createCampaign, createOffer, listOffers, updateCampaign, updateOffer } from './manage';

// issue 32, "Campaigns": gift campaigns (holders, redeem code, welcome), exchange recipes and chain-up campaigns made
// in the console; each refusal names its field and changes nothing.

const t0 = new Date('2026-11-22T08:00:00Z');
const HOUR = 3_600_000;
const db = seededTestDb(t0);
let seq = 0;

async function channelId(key: string): Promise<number> {
  const [c] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return c!.id;
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const window = (startsInHours = -1, endsInHours: number | null = 24) => ({
  startTime: new Date(t0.getTime() + startsInHours * HOUR),
  endTime: endsInHours === null ? null : new Date(t0.getTime() + endsInHours * HOUR),
});

async function collectible(channelKey = 'AURORA') {
  return (await makeSale(db, { channelKey, code: `manage-c-${++seq}`, amount: 1, limitPerUser: 1, amountSku: 1000, now: t0 })).commodityId;
}

async function campaign(kind: 'gift' | 'exchange', ch: number) {
  return createCampaign(db, {
    channelId: ch,
    kind,
    code: `manage-${++seq}`,
    name: 'A campaign',
    description: '',
    cover: '',
    sort: 0,
    ...window(),
  });
}

const offer = (ch: number, campaignId: number, commodityId: number, more: Partial<Parameters<typeof createOffer>[1]> = {}) =>
  createOffer(db, {
    channelId: ch,
    campaignId,
    commodityId,
    total: 10,
    limitPerUser: 1,
    requiresCommodityId: null,
    requiresCode: false,
    inputs: [],
    sort: 0,
    ...more,
  });

describe('campaigns', () => {
  it('refuse closing before opening, naming endTime, and change nothing', async () => {
    const ch = await channelId('AURORA');
    const bad = await refusal(
      createCampaign(db, {
        channelId: ch,
        kind: 'gift',
        code: 'closes-early',
        name: 'x',
        description: '',
        cover: '',
        sort: 0,
        ...window(2, 1),
      }),
    );
    expect(bad.code).toBe(400);
    expect(bad.data?.field).toBe('endTime');
    expect(bad.messageIn('zh-CN')).toBe('结束时间必须晚于开始时间');
    expect(await db.select().from(campaigns).where(eq(campaigns.code, 'closes-early'))).toEqual([]);
    const made = await campaign('gift', ch);
    const edit = await refusal(updateCampaign(db, { channelId: ch, campaignId: made.id, ...made, ...window(5, 5) }));
    expect(edit.data?.field).toBe('endTime');
    const [row] = await db.select().from(campaigns).where(eq(campaigns.id, made.id));
    expect(row!.startTime).toEqual(window().startTime);
  });

  it('refuse a code the channel has, and another channel’s campaign is not found', async () => {
    const ch = await channelId('AURORA');
    const made = await campaign('gift', ch);
    const taken = await refusal(
      createCampaign(db, { channelId: ch, kind: 'exchange', code: made.code, name: 'x', description: '', cover: '', sort: 0, ...window() }),
    );
    expect(taken.data?.field).toBe('code');
    const lumen = await channelId('LUMEN');
    expect((await refusal(updateCampaign(db, { channelId: lumen, campaignId: made.id, ...made, ...window() }))).code).toBe(404);
  });

  it('a welcome gift is an offer asking nothing: any buyer of the channel receives it once', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch);
    const o = await offer(ch, c.id, await collectible());
    expect(o.kind).toBe('welcome');
    const [a] = await makeUsers(db, 1, '7201');
    const claim = await claimGift(
      { db, now: t0, channelId: ch, userId: a!, ip: '203.0.113.1' },
      { campaignId: c.id, offerId: o.id, idempotencyKey: 'w-1' },
    );
    expect(claim).toBeTruthy();
    const again = await refusal(
      claimGift({ db, now: t0, channelId: ch, userId: a!, ip: '203.0.113.1' }, { campaignId: c.id, offerId: o.id, idempotencyKey: 'w-2' }),
    );
    expect(again.code).toBe(409);
    // The campaign took the offer's picture, having none of its own.
    const [row] = await db.select().from(campaigns).where(eq(campaigns.id, c.id));
    expect(row!.cover).toBe('/goods/aurora-dawn.svg');
  });

  it('a gift for holders asks a collectible of the channel; another channel’s is refused naming it', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch);
    const held = await offer(ch, c.id, await collectible(), { requiresCommodityId: await collectible() });
    expect(held.kind).toBe('holders');
    const other = await refusal(offer(ch, c.id, await collectible(), { requiresCommodityId: await collectible('LUMEN') }));
    expect(other.data?.field).toBe('requires');
    const gives = await refusal(offer(ch, c.id, await collectible('LUMEN')));
    expect(gives.data?.field).toBe('commodity');
    expect(gives.messageIn('en')).toBe('This collectible is not one of this store’s.');
  });

  it('a count below what was taken is refused naming total; above it, what is left follows', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch);
    const o = await offer(ch, c.id, await collectible(), { total: 5 });
    const buyers = await makeUsers(db, 3, '7202');
    for (const [i, u] of buyers.entries())
      await claimGift(
        { db, now: t0, channelId: ch, userId: u, ip: '203.0.113.2' },
        { campaignId: c.id, offerId: o.id, idempotencyKey: `t-${i}` },
      );
    const below = await refusal(updateOffer(db, { channelId: ch, offerId: o.id, total: 2, limitPerUser: 1, sort: 0 }));
    expect(below.data?.field).toBe('total');
    expect(below.messageIn('en')).toBe('The count cannot be below the 3 already taken.');
    const [unchanged] = await db.select().from(campaignOffers).where(eq(campaignOffers.id, o.id));
    expect(unchanged).toMatchObject({ total: 5, remaining: 2 });
    const raised = await updateOffer(db, { channelId: ch, offerId: o.id, total: 8, limitPerUser: 2, sort: 0 });
    expect(raised).toMatchObject({ total: 8, remaining: 5, taken: 3, limitPerUser: 2 });
    expect((await updateOffer(db, { channelId: ch, offerId: o.id, total: 3, limitPerUser: 2, sort: 0 })).remaining).toBe(0);
  });
});

describe('exchange recipes', () => {
  it('give A × 2 + B, get C, with a per-buyer limit: the store shows the recipe', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('exchange', ch);
    const [a, b, out] = [await collectible(), await collectible(), await collectible()];
    const recipe = await offer(ch, c.id, out, {
      limitPerUser: 2,
      inputs: [
        { commodityId: a, quantity: 2 },
        { commodityId: b, quantity: 1 },
      ],
    });
    expect(recipe.kind).toBe('recipe');
    const shown = await getExchangeOffer({ db, now: t0, channelId: ch, userId: null }, c.id, recipe.id);
    expect(shown.offer.inputs.map((i) => [Number(i.commodity.id), i.quantity])).toEqual([
      [a, 2],
      [b, 1],
    ]);
    expect(shown.offer.limitPerUser).toBe(2);
    expect(await listOffers(db, ch, c.id)).toHaveLength(1);
  });

  it('refuses a recipe with no input, one asking another channel’s collectible, and a gift with a recipe, naming inputs', async () => {
    const ch = await channelId('AURORA');
    const ex = await campaign('exchange', ch);
    const none = await refusal(offer(ch, ex.id, await collectible()));
    expect(none.data?.field).toBe('inputs');
    expect(none.messageIn('zh-CN')).toBe('合成配方至少需要一种投入的藏品');
    const other = await refusal(
      offer(ch, ex.id, await collectible(), { inputs: [{ commodityId: await collectible('LUMEN'), quantity: 1 }] }),
    );
    expect(other.data?.field).toBe('inputs');
    const gift = await campaign('gift', ch);
    const giftRecipe = await refusal(
      offer(ch, gift.id, await collectible(), { inputs: [{ commodityId: await collectible(), quantity: 1 }] }),
    );
    expect(giftRecipe.data?.field).toBe('inputs');
    expect(await listOffers(db, ch, ex.id)).toEqual([]);
  });
});

describe('chain-up campaigns', () => {
  it('are made with their product and certificate codes; closing before opening and another channel’s collectible are refused', async () => {
    const ch = await channelId('AURORA');
    const commodityId = await collectible();
    const fields = { name: 'Chain', description: '', cover: '', commodityId, authorStageName: 'Artist', sort: 0 };
    const early = await refusal(createChainCampaign(db, { channelId: ch, ...fields, ...window(3, 2) }));
    expect(early.data?.field).toBe('endTime');
    const other = await refusal(
      createChainCampaign(db, { channelId: ch, ...fields, commodityId: await collectible('LUMEN'), ...window() }),
    );
    expect(other.data?.field).toBe('commodity');
    const made = await createChainCampaign(db, { channelId: ch, ...fields, ...window() });
    const product = await addChainCodes(db, { channelId: ch, campaignId: made.id, type: 1, generate: 3 });
    expect(product.codes).toHaveLength(3);
    await addChainCodes(db, { channelId: ch, campaignId: made.id, type: 2, codes: ['ABCD-EFGH-1234'] });
    const dup = await refusal(addChainCodes(db, { channelId: ch, campaignId: made.id, type: 2, codes: ['abcd efgh 1234'] }));
    expect(dup.data?.field).toBe('codes');
    const listed = (await listChainCampaigns(db, ch)).find((c) => c.id === made.id)!;
    expect(listed.codes).toEqual([
      { type: 1, total: 3, used: 0 },
      { type: 2, total: 1, used: 0 },
    ]);
  });
});
