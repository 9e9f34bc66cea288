import { and, eq, isNull } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { campaignOffers, campaigns, channels, holdings, redeemCodes } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import { mintHoldings } from '@/lib/collection/mint';
import { generateCode, hashCode, CODE_LIMITS } from '@/lib/redeem-code/service';
import { claimGift, getGift, listGiftCampaigns, listReceived } from './service';
import type { UserScope } from '@/lib/procedure/scope';

// Gifts (spec §2 receive pages, label 3): claimed once per user and once per code, eligibility, records per user and channel.

const t0 = new Date('2026-11-22T08:00:00Z');
const HOUR = 3_600_000;
let keySeq = 0;
const key = () => `gift-key-${++keySeq}`;

const db = seededTestDb(t0);

async function channelId(key: string): Promise<number> {
  const [c] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return c!.id;
}

/** A gift campaign with one offer of a fresh commodity; returns ids and `codes` plain codes if it asks for one. */
async function makeGift(input: {
  code: string;
  channel?: string;
  total?: number;
  limitPerUser?: number;
  requiresCommodityId?: number;
  codes?: number;
  startsInHours?: number;
  endsInHours?: number | null;
}) {
  const { commodityId, channelId: ch } = await makeSale(db, {
    channelKey: input.channel ?? 'GIFT',
    code: `gift-${input.code}`,
    amount: 1,
    limitPerUser: 1,
    amountSku: 1000,
    now: t0,
  });
  const [campaign] = await db
    .insert(campaigns)
    .values({
      channelId: ch,
      kind: 'gift',
      code: input.code,
      name: `Gift ${input.code}`,
      cover: '/goods/aurora-dawn.svg',
      startTime: new Date(t0.getTime() + (input.startsInHours ?? -1) * HOUR),
      endTime: input.endsInHours === null ? null : new Date(t0.getTime() + (input.endsInHours ?? 24) * HOUR),
    })
    .returning({ id: campaigns.id });
  const total = input.total ?? 10;
  const [offer] = await db
    .insert(campaignOffers)
    .values({
      campaignId: campaign!.id,
      channelId: ch,
      commodityId,
      total,
      remaining: total,
      limitPerUser: input.limitPerUser ?? 1,
      requiresCommodityId: input.requiresCommodityId ?? null,
      requiresCode: (input.codes ?? 0) > 0,
    })
    .returning({ id: campaignOffers.id });
  const codes = Array.from({ length: input.codes ?? 0 }, () => generateCode());
  if (codes.length) await db.insert(redeemCodes).values(codes.map((c) => ({ offerId: offer!.id, codeHash: hashCode(c) })));
  return { campaignId: campaign!.id, offerId: offer!.id, commodityId, channelId: ch, codes };
}

const ctxOf = (channelId: number, userId: number, ip = '203.0.113.7', now = t0): UserScope => ({ db, now, channelId, userId, ip });

async function settle<T>(promises: Promise<T>[]): Promise<{ ok: T[]; errors: AppError[] }> {
  const results = await Promise.allSettled(promises);
  const ok: T[] = [];
  const errors: AppError[] = [];
  for (const r of results) {
    if (r.status === 'fulfilled') ok.push(r.value);
    else if (r.reason instanceof AppError) errors.push(r.reason);
    else throw r.reason;
  }
  return { ok, errors };
}

async function remaining(offerId: number): Promise<number> {
  const [o] = await db.select({ remaining: campaignOffers.remaining }).from(campaignOffers).where(eq(campaignOffers.id, offerId));
  return o!.remaining;
}

describe('claiming a gift', () => {
  it('mints a numbered holding into the collection and shows in the receive records', async () => {
    const gift = await makeGift({ code: 'plain' });
    const [user] = await makeUsers(db, 1, '3601');
    const claim = await claimGift(ctxOf(gift.channelId, user!), {
      campaignId: gift.campaignId,
      offerId: gift.offerId,
      idempotencyKey: key(),
    });
    expect(claim).toMatchObject({ campaign: { name: 'Gift plain' }, number: 1, amountNumber: 1000, byCode: false });
    const [holding] = await db
      .select()
      .from(holdings)
      .where(eq(holdings.id, Number(claim.holdingId)));
    expect(holding).toMatchObject({ userId: user, channelId: gift.channelId, source: 'gift' });
    expect(await remaining(gift.offerId)).toBe(9);
    const records = await listReceived(ctxOf(gift.channelId, user!), { pageCount: 1, pageSize: 10 });
    expect(records.records.map((r) => r.id)).toEqual([claim.id]);
  });

  it('gives once per user even when the user taps 10 times at once; the same key returns the same claim', async () => {
    const gift = await makeGift({ code: 'once' });
    const [user] = await makeUsers(db, 1, '3602');
    const ctx = ctxOf(gift.channelId, user!);
    const { ok, errors } = await settle(
      Array.from({ length: 10 }, () => claimGift(ctx, { campaignId: gift.campaignId, offerId: gift.offerId, idempotencyKey: key() })),
    );
    expect(ok).toHaveLength(1);
    expect(errors).toHaveLength(9);
    for (const e of errors) expect(e).toMatchObject({ code: 409, data: { reason: 'received' } });
    expect(await remaining(gift.offerId)).toBe(9);

    const k = key();
    const other = await makeGift({ code: 'same-key' });
    const [a, b] = await Promise.all(
      [0, 1].map(() =>
        claimGift(ctxOf(other.channelId, user!), { campaignId: other.campaignId, offerId: other.offerId, idempotencyKey: k }),
      ),
    );
    expect(a!.id).toBe(b!.id);
    expect(await remaining(other.offerId)).toBe(9);
  });

  it('never gives more than the stock: 30 users at once on 12 gifts', async () => {
    const gift = await makeGift({ code: 'stock', total: 12 });
    const users = await makeUsers(db, 30, '3603');
    const { ok, errors } = await settle(
      users.map((u) => claimGift(ctxOf(gift.channelId, u), { campaignId: gift.campaignId, offerId: gift.offerId, idempotencyKey: key() })),
    );
    expect(ok).toHaveLength(12);
    expect(new Set(ok.map((c) => c.number)).size).toBe(12);
    for (const e of errors) expect(e).toMatchObject({ code: 409, data: { reason: 'soldOut' } });
    expect(await remaining(gift.offerId)).toBe(0);
  });

  it('refuses a user who does not hold the required collectible, with a message naming it; a holder receives it', async () => {
    const { commodityId: required, channelId: ch } = await makeSale(db, {
      channelKey: 'GIFT',
      code: 'gift-required',
      amount: 1,
      limitPerUser: 1,
      now: t0,
    });
    const gift = await makeGift({ code: 'holders', requiresCommodityId: required });
    const [holder, stranger] = await makeUsers(db, 2, '3604');
    await db.transaction((tx) =>
      mintHoldings(tx, { channelId: ch, userId: holder!, commodity: { id: required, amountSku: 1 }, quantity: 1, now: t0 }),
    );

    const refused = claimGift(ctxOf(ch, stranger!), { campaignId: gift.campaignId, offerId: gift.offerId, idempotencyKey: key() });
    await expect(refused).rejects.toMatchObject({
      code: 409,
      data: { reason: 'notEligible' },
      message: 'Only holders of Test gift-required can receive this gift.',
    });
    expect((await getGift({ db, now: t0, channelId: ch, userId: stranger! }, gift.campaignId, gift.offerId)).eligibility).toMatchObject({
      canReceive: false,
      reason: 'notEligible',
    });
    expect((await getGift({ db, now: t0, channelId: ch, userId: holder! }, gift.campaignId, gift.offerId)).eligibility).toMatchObject({
      canReceive: true,
    });
    await expect(
      claimGift(ctxOf(ch, holder!), { campaignId: gift.campaignId, offerId: gift.offerId, idempotencyKey: key() }),
    ).resolves.toMatchObject({ number: 1 });
    expect(await remaining(gift.offerId)).toBe(9);
  });

  it('refuses a campaign not yet open and an ended one', async () => {
    const early = await makeGift({ code: 'early', startsInHours: 2 });
    const late = await makeGift({ code: 'late', startsInHours: -48, endsInHours: -1 });
    const [user] = await makeUsers(db, 1, '3605');
    await expect(
      claimGift(ctxOf(early.channelId, user!), { campaignId: early.campaignId, offerId: early.offerId, idempotencyKey: key() }),
    ).rejects.toMatchObject({ data: { reason: 'notOpen' } });
    await expect(
      claimGift(ctxOf(late.channelId, user!), { campaignId: late.campaignId, offerId: late.offerId, idempotencyKey: key() }),
    ).rejects.toMatchObject({ data: { reason: 'ended' } });
  });
});

describe('redeem codes', () => {
  it('uses a code once, even when 50 users try it at once', async () => {
    const gift = await makeGift({ code: 'race', codes: 1, total: 50 });
    const users = await makeUsers(db, 50, '3606');
    const { ok, errors } = await settle(
      users.map((u, i) =>
        claimGift(ctxOf(gift.channelId, u, `198.51.100.${i}`), {
          campaignId: gift.campaignId,
          offerId: gift.offerId,
          code: gift.codes[0],
          idempotencyKey: key(),
        }),
      ),
    );
    expect(ok).toHaveLength(1);
    expect(ok[0]!.byCode).toBe(true);
    expect(errors).toHaveLength(49);
    for (const e of errors) expect(e).toMatchObject({ code: 409, data: { reason: 'badCode' } });
    expect(await remaining(gift.offerId)).toBe(49);
  });

  it('answers a used, an unknown and another gift code alike; a code typed in lower case with spaces works', async () => {
    const gift = await makeGift({ code: 'alike', codes: 2 });
    const other = await makeGift({ code: 'alike-other', codes: 1 });
    const [first, second] = await makeUsers(db, 2, '3607');
    const claim = (user: number, code: string | undefined) =>
      claimGift(ctxOf(gift.channelId, user), { campaignId: gift.campaignId, offerId: gift.offerId, code, idempotencyKey: key() });

    await expect(claim(first!, gift.codes[0]!.toLowerCase().replace(/-/g, ' '))).resolves.toMatchObject({ byCode: true });
    const messages = [];
    for (const code of [gift.codes[0], generateCode(), other.codes[0]]) {
      const error = await claim(second!, code).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      messages.push((error as AppError).message);
    }
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toBe('This redeem code is not valid here, or has been used.');
    await expect(claim(second!, undefined)).rejects.toMatchObject({ code: 400, message: 'Please enter the redeem code for this gift.' });
    // Nothing was spent by the refusals: the unused code still works.
    await expect(claim(second!, gift.codes[1])).resolves.toMatchObject({ byCode: true });
    const [unused] = await db
      .select({ n: redeemCodes.id })
      .from(redeemCodes)
      .where(and(eq(redeemCodes.offerId, other.offerId), isNull(redeemCodes.usedBy)));
    expect(unused).toBeDefined();
  });

  it('stops a user guessing codes after too many wrong ones, whatever the code', async () => {
    const gift = await makeGift({ code: 'guess', codes: 1 });
    const [guesser] = await makeUsers(db, 1, '3608');
    const ctx = ctxOf(gift.channelId, guesser!, '192.0.2.55');
    for (let i = 0; i < CODE_LIMITS.wrongPerUser; i++) {
      await expect(
        claimGift(ctx, { campaignId: gift.campaignId, offerId: gift.offerId, code: generateCode(), idempotencyKey: key() }),
      ).rejects.toMatchObject({ code: 409 });
    }
    await expect(
      claimGift(ctx, { campaignId: gift.campaignId, offerId: gift.offerId, code: gift.codes[0], idempotencyKey: key() }),
    ).rejects.toMatchObject({ code: 429 });
  });
});

describe('tenancy', () => {
  it("never shows another channel's campaigns, nor another user's records", async () => {
    const gift = await makeGift({ code: 'mine-only' });
    const [a, b] = await makeUsers(db, 2, '3609');
    await claimGift(ctxOf(gift.channelId, a!), { campaignId: gift.campaignId, offerId: gift.offerId, idempotencyKey: key() });
    expect((await listReceived(ctxOf(gift.channelId, b!), { pageCount: 1, pageSize: 10 })).total).toBe(0);

    const aurora = await channelId('AURORA');
    expect((await listGiftCampaigns({ db, now: t0, channelId: aurora })).map((c) => c.name)).not.toContain('Gift mine-only');
    expect((await listReceived(ctxOf(aurora, a!), { pageCount: 1, pageSize: 10 })).total).toBe(0);
    await expect(getGift({ db, now: t0, channelId: aurora, userId: a! }, gift.campaignId, gift.offerId)).rejects.toMatchObject({
      code: 404,
    });
    await expect(
      claimGift(ctxOf(aurora, b!), { campaignId: gift.campaignId, offerId: gift.offerId, idempotencyKey: key() }),
    ).rejects.toMatchObject({ code: 404 });
  });

  it('lists open campaigns before upcoming and ended ones', async () => {
    await makeGift({ code: 'order-ended', channel: 'SWAP', startsInHours: -48, endsInHours: -1 });
    await makeGift({ code: 'order-soon', channel: 'SWAP', startsInHours: 5 });
    await makeGift({ code: 'order-open', channel: 'SWAP' });
    const list = await listGiftCampaigns({ db, now: t0, channelId: await channelId('SWAP') });
    const mine = list.filter((c) => c.name.startsWith('Gift order-')).map((c) => [c.name, c.status]);
    expect(mine).toEqual([
      ['Gift order-open', 1],
      ['Gift order-soon', 0],
      ['Gift order-ended', 2],
    ]);
  });
});
