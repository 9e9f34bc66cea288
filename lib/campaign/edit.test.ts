import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { campaignOffers, campaigns, chainCampaigns, channels, offerInputs, redeemCodes } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { mintHoldings } from '@/lib/collection/mint';
import { claimGift, getGift } from '@/lib/gift/service';
import { exchange, getExchangeOffer } from '@/lib/exchange/service';
import { chainUp } from '@/lib/chain/chain-up';
import { addChainCodes, createChainCampaign, endChainCampaignNow, listChainCampaigns, updateChainCampaign } from '@/lib/chain/manage';
import { hashCode } from '@/lib/redeem-code/service';
import { campaignRecord, createCampaign, createOffer, endCampaignNow, listOffers, updateCampaign, updateOffer } from './manage';

// issue 32, "the console edits what it made": an edit may change anything until a buyer first takes the offer; after
// it, what a buyer relied on (what it gives, what it asks, the opening) is refused naming the field and nothing
// changes, while the closing time and the count (never below what was taken) still may. Ending a campaign now.

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

const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);

async function collectible(channelKey = 'AURORA') {
  return (await makeSale(db, { channelKey, code: `edit-c-${++seq}`, amount: 1, limitPerUser: 1, amountSku: 1000, now: t0 })).commodityId;
}

async function campaign(kind: 'gift' | 'exchange', ch: number, startTime = at(-1), endTime: Date | null = at(24)) {
  return createCampaign(db, {
    channelId: ch,
    kind,
    code: `edit-${++seq}`,
    name: 'Edited',
    description: '',
    cover: '',
    sort: 0,
    startTime,
    endTime,
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

async function give(userId: number, channel: number, commodityId: number, n: number): Promise<void> {
  await db.transaction((tx) =>
    mintHoldings(tx, {
      channelId: channel,
      userId,
      commodity: { id: commodityId, amountSku: 1000 },
      quantity: n,
      source: 'order',
      now: t0,
    }),
  );
}

const buyer = (ch: number, userId: number, now = t0) => ({ db, now, channelId: ch, userId, ip: '203.0.113.9' });

/** The campaign's edit as the console sends it: every field, as it is now, with `change` over it. */
async function editCampaign(ch: number, campaignId: number, change: Partial<Parameters<typeof updateCampaign>[1]>) {
  const now = await campaignRecord(db, ch, campaignId);
  return updateCampaign(db, {
    channelId: ch,
    campaignId,
    code: now.code,
    name: now.name,
    description: now.description,
    cover: now.cover,
    sort: now.sort,
    startTime: new Date(now.startTime),
    endTime: now.endTime ? new Date(now.endTime) : null,
    ...change,
  });
}

async function campaignRow(id: number) {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row!;
}

async function offerRow(id: number) {
  const [row] = await db.select().from(campaignOffers).where(eq(campaignOffers.id, id));
  return row!;
}

describe('a gift campaign’s opening time', () => {
  it('moves freely before the first gift, and is refused naming startTime after it, in both languages; the closing time still moves', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch);
    const o = await offer(ch, c.id, await collectible());
    expect((await editCampaign(ch, c.id, { startTime: at(-2) })).startTime).toBe(at(-2).toISOString());

    const [u] = await makeUsers(db, 1, '7301');
    await claimGift(buyer(ch, u!), { campaignId: c.id, offerId: o.id, idempotencyKey: 'e-1' });
    const moved = await refusal(editCampaign(ch, c.id, { startTime: at(-3), name: 'Renamed' }));
    expect(moved.code).toBe(400);
    expect(moved.data?.field).toBe('startTime');
    expect(moved.messageIn('en')).toBe(
      'The opening time cannot change any more: buyers have already taken this, on these terms. The closing time and the count can still change.',
    );
    expect(moved.messageIn('zh-CN')).toBe('开始时间已不能修改：已有买家按这些条件领取或兑换。结束时间和数量仍可修改');
    expect(await campaignRow(c.id)).toMatchObject({ startTime: at(-2), name: 'Edited' });

    // The closing time moves later and earlier, and the words may change; the record says how many were taken.
    const later = await editCampaign(ch, c.id, { endTime: at(48), name: 'Renamed' });
    expect(later).toMatchObject({ endTime: at(48).toISOString(), name: 'Renamed', taken: 1 });
    expect((await editCampaign(ch, c.id, { endTime: at(2) })).endTime).toBe(at(2).toISOString());
  });
});

describe('a gift offer’s terms', () => {
  it('what it gives and asks change before the first gift; after it each is refused naming its field and nothing changes', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch);
    const [first, gives, held, heldNext] = [await collectible(), await collectible(), await collectible(), await collectible()];
    const o = await offer(ch, c.id, first, { requiresCommodityId: held });
    const edit = (change: Partial<Parameters<typeof updateOffer>[1]>) =>
      updateOffer(db, { channelId: ch, offerId: o.id, total: 10, limitPerUser: 1, sort: 0, ...change });

    // Before anyone took it: a different collectible, a different one to hold, then asking nothing, then back.
    expect(await edit({ commodityId: gives, requiresCommodityId: heldNext })).toMatchObject({
      commodityId: gives,
      requiresCommodityId: heldNext,
      kind: 'holders',
    });
    expect((await edit({ requiresCommodityId: null })).kind).toBe('welcome');
    expect((await edit({ requiresCommodityId: held })).kind).toBe('holders');

    const [u] = await makeUsers(db, 1, '7302');
    await give(u!, ch, held, 1);
    await claimGift(buyer(ch, u!), { campaignId: c.id, offerId: o.id, idempotencyKey: 'e-2' });

    const refused = [
      ['commodity', await refusal(edit({ commodityId: first }))],
      ['requires', await refusal(edit({ requiresCommodityId: heldNext }))],
      ['requires', await refusal(edit({ requiresCommodityId: null }))],
      ['requiresCode', await refusal(edit({ requiresCode: true }))],
    ] as const;
    for (const [field, e] of refused) expect({ field: e.data?.field, code: e.code }).toEqual({ field, code: 400 });
    expect(refused[0][1].messageIn('zh-CN')).toBe('赠送的藏品已不能修改：已有买家按这些条件领取或兑换。结束时间和数量仍可修改');
    expect(await offerRow(o.id)).toMatchObject({
      commodityId: gives,
      requiresCommodityId: held,
      requiresCode: false,
      total: 10,
      remaining: 9,
    });

    // The same terms sent back unchanged are no change: the count may still move, not below the one taken.
    expect(await edit({ commodityId: gives, requiresCommodityId: held, requiresCode: false, total: 20 })).toMatchObject({
      total: 20,
      remaining: 19,
      taken: 1,
    });
    const below = await refusal(edit({ total: 0 }));
    expect(below.data?.field).toBe('total');
    expect(below.messageIn('zh-CN')).toBe('数量不能少于已领取的 1 份');
    expect(await offerRow(o.id)).toMatchObject({ total: 20, remaining: 19 });
  });

  it('a raised per-buyer limit lets a buyer who already took it take it again', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch);
    const o = await offer(ch, c.id, await collectible(), { limitPerUser: 1 });
    const [u] = await makeUsers(db, 1, '7303');
    await claimGift(buyer(ch, u!), { campaignId: c.id, offerId: o.id, idempotencyKey: 'l-1' });
    expect((await refusal(claimGift(buyer(ch, u!), { campaignId: c.id, offerId: o.id, idempotencyKey: 'l-2' }))).code).toBe(409);
    await updateOffer(db, { channelId: ch, offerId: o.id, total: 10, limitPerUser: 2, sort: 0 });
    expect(await claimGift(buyer(ch, u!), { campaignId: c.id, offerId: o.id, idempotencyKey: 'l-3' })).toBeTruthy();
    expect((await refusal(claimGift(buyer(ch, u!), { campaignId: c.id, offerId: o.id, idempotencyKey: 'l-4' }))).code).toBe(409);
  });

  it('an offer with redeem codes given out keeps asking one (requiresCode), even before the first is used', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch);
    const o = await offer(ch, c.id, await collectible(), { requiresCode: true });
    const edit = (requiresCode: boolean) =>
      updateOffer(db, { channelId: ch, offerId: o.id, total: 10, limitPerUser: 1, sort: 0, requiresCode });
    expect((await edit(false)).kind).toBe('welcome');
    expect((await edit(true)).kind).toBe('code');
    await db.insert(redeemCodes).values({ offerId: o.id, codeHash: hashCode(`EDITCODE${++seq}AAAAAAAAAAAAAAAA`) });
    const kept = await refusal(edit(false));
    expect(kept.data?.field).toBe('requiresCode');
    expect(kept.messageIn('en')).toContain('already has redeem codes given out');
    expect((await offerRow(o.id)).requiresCode).toBe(true);
  });
});

describe('an exchange recipe', () => {
  it('is rewritten before the first exchange (the store shows the new one), and refused naming inputs after it', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('exchange', ch);
    const [a, b, out, other] = [await collectible(), await collectible(), await collectible(), await collectible()];
    const o = await offer(ch, c.id, out, { inputs: [{ commodityId: a, quantity: 3 }] });
    const edit = (change: Partial<Parameters<typeof updateOffer>[1]>) =>
      updateOffer(db, { channelId: ch, offerId: o.id, total: 10, limitPerUser: 1, sort: 0, ...change });

    await edit({
      inputs: [
        { commodityId: a, quantity: 2 },
        { commodityId: b, quantity: 1 },
      ],
    });
    const shown = await getExchangeOffer({ db, now: t0, channelId: ch, userId: null }, c.id, o.id);
    expect(shown.offer.inputs.map((i) => [Number(i.commodity.id), i.quantity])).toEqual([
      [a, 2],
      [b, 1],
    ]);
    // An empty recipe, or one asking another channel's collectible, is refused as at creation.
    expect((await refusal(edit({ inputs: [] }))).data?.field).toBe('inputs');
    expect((await refusal(edit({ inputs: [{ commodityId: await collectible('LUMEN'), quantity: 1 }] }))).data?.field).toBe('inputs');

    const [u] = await makeUsers(db, 1, '7304');
    await give(u!, ch, a, 2);
    await give(u!, ch, b, 1);
    await exchange(buyer(ch, u!), { campaignId: c.id, offerId: o.id, idempotencyKey: 'x-edit-0001' });

    const recipe = await refusal(edit({ inputs: [{ commodityId: a, quantity: 1 }] }));
    expect(recipe.data?.field).toBe('inputs');
    expect(recipe.messageIn('en')).toMatch(/^The recipe cannot change any more/);
    expect((await refusal(edit({ commodityId: other }))).data?.field).toBe('commodity');
    const lines = await db.select().from(offerInputs).where(eq(offerInputs.offerId, o.id));
    expect(lines.map((l) => [l.commodityId, l.quantity]).sort()).toEqual(
      [
        [a, 2],
        [b, 1],
      ].sort(),
    );
    // The same recipe in another order is no change; the count moves.
    const kept = await edit({
      inputs: [
        { commodityId: b, quantity: 1 },
        { commodityId: a, quantity: 2 },
      ],
      total: 5,
    });
    expect(kept).toMatchObject({ total: 5, taken: 1 });
    expect((await listOffers(db, ch, c.id))[0]!.commodityId).toBe(out);
  });
});

describe('ending a campaign now', () => {
  it('closes it at this moment: the store shows it ended and refuses the gift; a second end is refused naming campaignId', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('gift', ch, at(-1), null);
    const o = await offer(ch, c.id, await collectible());
    const now = at(1);
    const ended = await endCampaignNow(db, { channelId: ch, campaignId: c.id, now });
    expect(ended).toMatchObject({ startTime: at(-1).toISOString(), endTime: now.toISOString() });
    const shown = await getGift({ db, now, channelId: ch, userId: null }, c.id, o.id);
    expect(shown.campaign.status).toBe(2);
    const [u] = await makeUsers(db, 1, '7305');
    expect((await refusal(claimGift(buyer(ch, u!, now), { campaignId: c.id, offerId: o.id, idempotencyKey: 'n-1' }))).code).toBe(409);
    const again = await refusal(endCampaignNow(db, { channelId: ch, campaignId: c.id, now: at(2) }));
    expect(again.data?.field).toBe('campaignId');
    expect(again.messageIn('zh-CN')).toBe('该活动已经结束');
    expect((await campaignRow(c.id)).endTime).toEqual(now);
  });

  it('one not open yet closes unopened; another channel’s is not found', async () => {
    const ch = await channelId('AURORA');
    const c = await campaign('exchange', ch, at(5), at(10));
    expect(await endCampaignNow(db, { channelId: ch, campaignId: c.id, now: t0 })).toMatchObject({
      startTime: t0.toISOString(),
      endTime: t0.toISOString(),
    });
    const lumen = await channelId('LUMEN');
    expect((await refusal(endCampaignNow(db, { channelId: lumen, campaignId: c.id, now: t0 }))).code).toBe(404);
  });
});

describe('a chain-up campaign', () => {
  it('changes its collectible and opening until the first chain-up, then refuses each naming it; the closing time still moves; ends now', async () => {
    const ch = await channelId('CHAIN');
    const [first, second] = [await collectible('CHAIN'), await collectible('CHAIN')];
    const fields = { name: 'Chain edit', description: '', cover: '', authorStageName: 'Artist', sort: 0 };
    const made = await createChainCampaign(db, { channelId: ch, ...fields, commodityId: first, startTime: at(-1), endTime: at(24) });
    const edit = (change: Partial<Parameters<typeof updateChainCampaign>[1]>) =>
      updateChainCampaign(db, {
        channelId: ch,
        campaignId: made.id,
        ...fields,
        commodityId: second,
        startTime: at(-2),
        endTime: at(24),
        ...change,
      });
    expect(await edit({})).toMatchObject({ commodityId: second, startTime: at(-2).toISOString() });

    const { codes } = await addChainCodes(db, { channelId: ch, campaignId: made.id, type: 1, generate: 1 });
    const [u] = await makeUsers(db, 1, '7306');
    await chainUp(buyer(ch, u!), { campaignId: made.id, code: codes[0]!, type: 1, storeCode: 'SH001' });

    const gives = await refusal(edit({ commodityId: first }));
    expect(gives.data?.field).toBe('commodity');
    const opens = await refusal(edit({ startTime: at(-3) }));
    expect(opens.data?.field).toBe('startTime');
    const [row] = await db.select().from(chainCampaigns).where(eq(chainCampaigns.id, made.id));
    expect(row).toMatchObject({ commodityId: second, startTime: at(-2) });
    expect(await edit({ endTime: at(3), name: 'Renamed' })).toMatchObject({ endTime: at(3).toISOString(), name: 'Renamed' });

    expect(await endChainCampaignNow(db, { channelId: ch, campaignId: made.id, now: at(1) })).toMatchObject({
      endTime: at(1).toISOString(),
    });
    expect((await refusal(endChainCampaignNow(db, { channelId: ch, campaignId: made.id, now: at(2) }))).data?.field).toBe('campaignId');
    expect((await listChainCampaigns(db, ch)).find((c) => c.id === made.id)!.endTime).toBe(at(1).toISOString());
  });
});
