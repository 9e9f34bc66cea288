import { and, eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers, minted } from '@/test/buying';
import { chainCampaigns, chainCodes, chainRecords, channels, holdings } from '@/lib/db/schema';
import { generateCode, hashCode } from '@/lib/redeem-code/service';
import { AppError } from '@/lib/procedure/errors';
import { chainUpPending } from './ledger-job';
import { chainUp, getChainRecord, listChainCampaigns, listChainRecords, lookUpChainCode } from './chain-up';
import type { UserScope } from '@/lib/procedure/scope';

// Self chain-up (label 4): a product's code and the store it was bought from give its digital twin, once per code.

const t0 = new Date('2026-11-22T08:00:00Z');
const HOUR = 3_600_000;

const db = seededTestDb(t0);

async function channelId(key: string): Promise<number> {
  const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return row!.id;
}

/** A chain-up campaign of its own with fresh codes of each type. */
async function makeCampaign(input: {
  code: string;
  channelKey?: string;
  productCodes?: number;
  certificateCodes?: number;
  startTime?: Date;
  endTime?: Date | null;
}) {
  const key = input.channelKey ?? 'CHAIN';
  const chId = await channelId(key);
  const { commodityId } = await makeSale(db, {
    channelKey: key,
    code: `${input.code}-twin`,
    amount: 10,
    amountSku: 100,
    limitPerUser: 1,
    now: t0,
  });
  const [campaign] = await db
    .insert(chainCampaigns)
    .values({
      channelId: chId,
      name: `Campaign ${input.code}`,
      cover: '/goods/crystal-owl.svg',
      commodityId,
      authorStageName: 'Mo Studio',
      startTime: input.startTime ?? new Date(t0.getTime() - HOUR),
      endTime: input.endTime === undefined ? new Date(t0.getTime() + 24 * HOUR) : input.endTime,
    })
    .returning({ id: chainCampaigns.id });
  const product = Array.from({ length: input.productCodes ?? 1 }, () => generateCode());
  const certificate = Array.from({ length: input.certificateCodes ?? 0 }, () => generateCode());
  const rows = [...product.map((c) => ({ c, type: 1 })), ...certificate.map((c) => ({ c, type: 2 }))];
  await db.insert(chainCodes).values(rows.map((r) => ({ campaignId: campaign!.id, codeHash: hashCode(r.c), type: r.type })));
  return { campaignId: campaign!.id, commodityId, channelId: chId, product, certificate };
}

function ctxFor(userId: number, chId: number, now = t0, ip = '203.0.113.9'): UserScope {
  return { db, now, channelId: chId, userId, ip };
}

async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, reason: error.data?.reason ?? null, message: error.message };
    throw error;
  }
}

describe('campaigns and stores', () => {
  it("lists a channel's campaigns with what each gives, and its 21 allowed stores; nothing for a channel without chain-up", async () => {
    const chain = await listChainCampaigns({ db, now: t0, channelId: await channelId('CHAIN') });
    expect(chain.campaigns.map((c) => c.name)).toContain('Iron Owl figurine');
    expect(chain.campaigns.find((c) => c.name === 'Iron Owl figurine')).toMatchObject({
      status: 1,
      authorStageName: 'Mo Studio',
      commodity: { name: 'Iron Owl (digital twin)', amountSku: 2000 },
    });
    expect(chain.stores).toHaveLength(21);
    expect(chain.stores.filter((s) => s.code.startsWith('SH'))).toHaveLength(18);

    const lumen = await listChainCampaigns({ db, now: t0, channelId: await channelId('LUMEN') });
    expect(lumen).toEqual({ campaigns: [], stores: [] });
  });
});

describe('looking a code up', () => {
  it('says what a code unlocks and its type; refuses an unknown store by name, and answers every wrong code alike', async () => {
    const c = await makeCampaign({ code: 'c1', certificateCodes: 1 });
    const other = await makeCampaign({ code: 'c1-aurora', channelKey: 'AURORA' });
    const [user] = await makeUsers(db, 1, '4101');
    const ctx = ctxFor(user!, c.channelId);

    const found = await lookUpChainCode(ctx, { code: c.product[0]!.toLowerCase(), storeCode: 'sh003' });
    expect(found).toMatchObject({
      campaign: { id: String(c.campaignId), name: 'Campaign c1' },
      type: 1,
      store: { code: 'SH003', name: 'Shanghai store 3' },
    });
    expect(await lookUpChainCode(ctx, { code: c.certificate[0]!, storeCode: 'ONLINE' })).toMatchObject({ type: 2 });

    expect(await outcome(lookUpChainCode(ctx, { code: c.product[0]!, storeCode: 'SH999' }))).toMatchObject({
      code: 400,
      message: 'This is not one of the stores listed here. Please choose the store you bought it from.',
    });
    const unknown = await outcome(lookUpChainCode(ctx, { code: generateCode(), storeCode: 'SH001' }));
    expect(unknown).toMatchObject({ code: 409, reason: 'badCode' });
    // Another channel's code reads as unknown here.
    expect(await outcome(lookUpChainCode(ctx, { code: other.product[0]!, storeCode: 'SH001' }))).toEqual(unknown);
  });
});

describe('chaining up', () => {
  it('mints one numbered twin, records it, and the ledger confirms it; the same code again gives the same record', async () => {
    const c = await makeCampaign({ code: 'c2' });
    const [user, other] = await makeUsers(db, 2, '4102');
    const ctx = ctxFor(user!, c.channelId);
    const input = { campaignId: c.campaignId, code: c.product[0]!, type: 1 as const, storeCode: 'BJ001' };

    const record = await chainUp(ctx, input);
    expect(record).toMatchObject({
      campaign: { name: 'Campaign c2', authorStageName: 'Mo Studio' },
      number: 1,
      amountNumber: 100,
      type: 1,
      store: { code: 'BJ001', name: 'Beijing flagship' },
      chainStatus: 0,
      tokenId: null,
    });
    const [holding] = await db
      .select()
      .from(holdings)
      .where(eq(holdings.id, Number(record.holdingId)));
    expect(holding).toMatchObject({ userId: user, commodityId: c.commodityId, source: 'chainUp' });

    expect(await chainUp(ctx, input)).toEqual(record);
    expect(await minted(db, c.commodityId)).toBe(1);

    // Used: another user's try is a wrong code like any other; the owner's lookup points at their record.
    expect(await outcome(chainUp(ctxFor(other!, c.channelId), input))).toMatchObject({
      code: 409,
      reason: 'badCode',
      message: 'This product or certificate code is not valid here, or has been used.',
    });
    expect(await outcome(lookUpChainCode(ctx, { code: input.code, storeCode: 'SH001' }))).toMatchObject({
      code: 409,
      reason: 'alreadyChainedUp',
    });

    await chainUpPending(db, t0);
    const confirmed = await getChainRecord(ctx, Number(record.id));
    expect(confirmed).toMatchObject({
      chainStatus: 1,
      tokenId: expect.stringMatching(/^\d{12,19}$/),
      tradeHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
  });

  it('lets exactly one of 50 concurrent tries of one code through', async () => {
    const c = await makeCampaign({ code: 'c3' });
    const users = await makeUsers(db, 50, '4103');
    const outcomes = await Promise.all(
      users.map((u, i) =>
        outcome(
          chainUp(ctxFor(u, c.channelId, t0, `198.51.100.${i}`), {
            campaignId: c.campaignId,
            code: c.product[0]!,
            type: 1,
            storeCode: 'SH001',
          }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => (o as { reason: string }).reason === 'badCode')).toBe(true);
    expect(await db.select().from(chainRecords).where(eq(chainRecords.campaignId, c.campaignId))).toHaveLength(1);
    expect(await minted(db, c.commodityId)).toBe(1);
  });

  it('gives one record when the same user sends the same code many times at once', async () => {
    const c = await makeCampaign({ code: 'c4' });
    const [user] = await makeUsers(db, 1, '4104');
    const records = await Promise.all(
      Array.from({ length: 10 }, () =>
        chainUp(ctxFor(user!, c.channelId), { campaignId: c.campaignId, code: c.product[0]!, type: 1, storeCode: 'SH002' }),
      ),
    );
    expect(new Set(records.map((r) => r.id)).size).toBe(1);
    expect(await minted(db, c.commodityId)).toBe(1);
  });

  it('refuses a store not of the channel, a code of the other type, another campaign and a closed window, using nothing', async () => {
    const c = await makeCampaign({ code: 'c5', certificateCodes: 1 });
    const second = await makeCampaign({ code: 'c5-second' });
    const early = await makeCampaign({ code: 'c5-early', startTime: new Date(t0.getTime() + HOUR) });
    const late = await makeCampaign({ code: 'c5-late', startTime: new Date(t0.getTime() - 2 * HOUR), endTime: t0 });
    const [user] = await makeUsers(db, 1, '4105');
    const ctx = ctxFor(user!, c.channelId);

    expect(await outcome(chainUp(ctx, { campaignId: c.campaignId, code: c.product[0]!, type: 1, storeCode: 'PARIS1' }))).toMatchObject({
      code: 400,
      message: 'This is not one of the stores listed here. Please choose the store you bought it from.',
    });
    expect(await outcome(chainUp(ctx, { campaignId: c.campaignId, code: c.product[0]!, type: 2, storeCode: 'SH001' }))).toMatchObject({
      code: 400,
      reason: 'wrongType',
      message: 'This is a product code, not a certificate code.',
    });
    expect(await outcome(chainUp(ctx, { campaignId: c.campaignId, code: c.certificate[0]!, type: 1, storeCode: 'SH001' }))).toMatchObject({
      code: 400,
      reason: 'wrongType',
    });
    expect(await outcome(chainUp(ctx, { campaignId: second.campaignId, code: c.product[0]!, type: 1, storeCode: 'SH001' }))).toMatchObject({
      code: 409,
      reason: 'badCode',
    });
    expect(
      await outcome(chainUp(ctx, { campaignId: early.campaignId, code: early.product[0]!, type: 1, storeCode: 'SH001' })),
    ).toMatchObject({ code: 409, reason: 'notOpen' });
    expect(await outcome(chainUp(ctx, { campaignId: late.campaignId, code: late.product[0]!, type: 1, storeCode: 'SH001' }))).toMatchObject(
      { code: 409, reason: 'ended' },
    );
    const aurora = await makeCampaign({ code: 'c5-aurora', channelKey: 'AURORA' });
    expect(
      await outcome(chainUp(ctx, { campaignId: aurora.campaignId, code: aurora.product[0]!, type: 1, storeCode: 'SH001' })),
    ).toMatchObject({ code: 404 });

    const used = await db
      .select({ usedBy: chainCodes.usedBy })
      .from(chainCodes)
      .where(and(eq(chainCodes.campaignId, c.campaignId)));
    expect(used.every((u) => u.usedBy === null)).toBe(true);
    expect(await minted(db, c.commodityId)).toBe(0);
    // The right type still works afterwards.
    expect(await outcome(chainUp(ctx, { campaignId: c.campaignId, code: c.certificate[0]!, type: 2, storeCode: 'SH001' }))).toBe('ok');
  });

  it('stops a user after 10 wrong codes in an hour with 429, lookups and chain-ups alike', async () => {
    const c = await makeCampaign({ code: 'c6' });
    const [user] = await makeUsers(db, 1, '4106');
    const ctx = ctxFor(user!, c.channelId, t0, '192.0.2.66');
    for (let i = 0; i < 5; i++) await outcome(lookUpChainCode(ctx, { code: generateCode(), storeCode: 'SH001' }));
    for (let i = 0; i < 5; i++)
      await outcome(chainUp(ctx, { campaignId: c.campaignId, code: generateCode(), type: 1, storeCode: 'SH001' }));
    expect(await outcome(lookUpChainCode(ctx, { code: c.product[0]!, storeCode: 'SH001' }))).toMatchObject({ code: 429 });
    expect(await outcome(chainUp(ctx, { campaignId: c.campaignId, code: c.product[0]!, type: 1, storeCode: 'SH001' }))).toMatchObject({
      code: 429,
    });
  });
});

describe('chain-up records', () => {
  it('shows a user only their own records on this channel, newest first', async () => {
    const chain = await makeCampaign({ code: 'c7', productCodes: 2 });
    const aurora = await makeCampaign({ code: 'c7-aurora', channelKey: 'AURORA' });
    const [user, other] = await makeUsers(db, 2, '4107');
    await chainUp(ctxFor(user!, chain.channelId, t0), {
      campaignId: chain.campaignId,
      code: chain.product[0]!,
      type: 1,
      storeCode: 'SH001',
    });
    await chainUp(ctxFor(other!, chain.channelId, t0), {
      campaignId: chain.campaignId,
      code: chain.product[1]!,
      type: 1,
      storeCode: 'SH001',
    });
    const mine = await chainUp(ctxFor(user!, aurora.channelId, new Date(t0.getTime() + 1000)), {
      campaignId: aurora.campaignId,
      code: aurora.product[0]!,
      type: 1,
      storeCode: 'GZ001',
    });

    const onChain = await listChainRecords({ db, now: t0, channelId: chain.channelId, userId: user! }, { pageCount: 1, pageSize: 10 });
    expect(onChain.total).toBe(1);
    expect(onChain.records.map((r) => r.campaign.name)).toEqual(['Campaign c7']);
    const onAurora = await listChainRecords({ db, now: t0, channelId: aurora.channelId, userId: user! }, { pageCount: 1, pageSize: 10 });
    expect(onAurora.records.map((r) => r.id)).toEqual([mine.id]);
    // Another user's record, or this record from another channel, is not found.
    expect(await getChainRecord({ db, now: t0, channelId: aurora.channelId, userId: other! }, Number(mine.id))).toBeNull();
    expect(await getChainRecord({ db, now: t0, channelId: chain.channelId, userId: user! }, Number(mine.id))).toBeNull();
  });
});
