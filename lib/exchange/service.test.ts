import { and, eq, isNotNull, like } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers, minted } from '@/test/buying';
import {
  campaignOffers,
  campaigns,
  channels,
  holdings,
  offerClaims,
  offerInputs,
  offerQuotas,
  rateLimits,
  redeemCodes,
  sales,
} from '@/lib/db/schema';
import { generateCode, hashCode } from '@/lib/redeem-code/service';
import { mintHoldings } from '@/lib/collection/mint';
import { AppError } from '@/lib/procedure/errors';
import { exchange, findInputSources, getExchangeOffer, listDestroyed, listExchangeActivities, listExchanges } from './service';
import type { UserScope } from '@/lib/procedure/scope';

// Exchanges (label 2): the recipe's collectibles are spent and one new collectible is minted, all or nothing.

const t0 = new Date('2026-11-22T08:00:00Z');
const HOUR = 3_600_000;

const db = seededTestDb(t0);

async function channelId(key: string): Promise<number> {
  const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return row!.id;
}

/** A commodity of its own (made through the sale fixture; the sale is not used). */
async function commodity(code: string, channelKey = 'AURORA', amountSku = 1000): Promise<number> {
  return (await makeSale(db, { channelKey, code, amount: 10, amountSku, limitPerUser: 1, now: t0 })).commodityId;
}

/** An exchange campaign with one offer: gives `output`, asks the `inputs` recipe. */
async function makeExchange(input: {
  code: string;
  channelKey?: string;
  inputs: { commodityId: number; quantity: number }[];
  total?: number;
  remaining?: number;
  limitPerUser?: number;
  startTime?: Date;
  endTime?: Date | null;
  /** Redeem codes the recipe asks for (one per exchange). */
  codes?: string[];
}): Promise<{ campaignId: number; offerId: number; outputId: number; channelId: number }> {
  const key = input.channelKey ?? 'AURORA';
  const chId = await channelId(key);
  const outputId = await commodity(`${input.code}-out`, key);
  const [campaign] = await db
    .insert(campaigns)
    .values({
      channelId: chId,
      kind: 'exchange',
      code: input.code,
      name: `Trade ${input.code}`,
      cover: '/goods/star-fox.svg',
      startTime: input.startTime ?? new Date(t0.getTime() - HOUR),
      endTime: input.endTime === undefined ? new Date(t0.getTime() + 24 * HOUR) : input.endTime,
    })
    .returning({ id: campaigns.id });
  const total = input.total ?? 100;
  const [offer] = await db
    .insert(campaignOffers)
    .values({
      campaignId: campaign!.id,
      channelId: chId,
      commodityId: outputId,
      total,
      remaining: input.remaining ?? total,
      limitPerUser: input.limitPerUser ?? 5,
      requiresCode: Boolean(input.codes),
    })
    .returning({ id: campaignOffers.id });
  if (input.inputs.length) await db.insert(offerInputs).values(input.inputs.map((i) => ({ offerId: offer!.id, ...i })));
  if (input.codes?.length) await db.insert(redeemCodes).values(input.codes.map((c) => ({ offerId: offer!.id, codeHash: hashCode(c) })));
  return { campaignId: campaign!.id, offerId: offer!.id, outputId, channelId: chId };
}

/** Gives a user `n` holdings of a commodity, minted at `at`. */
async function give(userId: number, commodityId: number, n: number, channelKey = 'AURORA', at = t0): Promise<number[]> {
  const chId = await channelId(channelKey);
  const rows = await db.transaction((tx) =>
    mintHoldings(tx, { channelId: chId, userId, commodity: { id: commodityId, amountSku: 1000 }, quantity: n, source: 'order', now: at }),
  );
  return rows.map((r) => r.id);
}

function ctxFor(userId: number, chId: number, now = t0, ip = '203.0.113.7'): UserScope {
  return { db, now, channelId: chId, userId, ip };
}

async function destroyedOf(userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: holdings.id })
    .from(holdings)
    .where(and(eq(holdings.userId, userId), isNotNull(holdings.destroyedAt)))
    .orderBy(holdings.id);
  return rows.map((r) => r.id);
}

async function remaining(offerId: number): Promise<number> {
  const [row] = await db.select({ remaining: campaignOffers.remaining }).from(campaignOffers).where(eq(campaignOffers.id, offerId));
  return row!.remaining;
}

async function taken(offerId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ taken: offerQuotas.taken })
    .from(offerQuotas)
    .where(and(eq(offerQuotas.offerId, offerId), eq(offerQuotas.userId, userId)));
  return row?.taken ?? 0;
}

async function reasonOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, reason: error.data?.reason ?? null, message: error.message };
    throw error;
  }
}

describe('exchanging', () => {
  it('destroys exactly the recipe, the oldest first, and mints one output', async () => {
    const a = await commodity('x1-a');
    const b = await commodity('x1-b');
    const x = await makeExchange({
      code: 'x1',
      inputs: [
        { commodityId: a, quantity: 2 },
        { commodityId: b, quantity: 1 },
      ],
      total: 10,
    });
    const [user, other] = await makeUsers(db, 2, '3901');
    const oldA = await give(user!, a, 2, 'AURORA', new Date(t0.getTime() - 2 * HOUR));
    const newA = await give(user!, a, 1);
    const bs = await give(user!, b, 2);
    const othersA = await give(other!, a, 2, 'AURORA', new Date(t0.getTime() - 3 * HOUR));

    const record = await exchange(ctxFor(user!, x.channelId), {
      campaignId: x.campaignId,
      offerId: x.offerId,
      idempotencyKey: 'x1-key-0001',
    });

    expect(await destroyedOf(user!)).toEqual([...oldA, bs[0]!].sort((p, q) => p - q));
    expect(await destroyedOf(other!)).toEqual([]);
    expect(newA).toHaveLength(1);
    expect(record.output.commodity.id).toBe(String(x.outputId));
    expect(record.output.number).toBe(1);
    expect(record.inputs.map((i) => Number(i.holdingId)).sort((p, q) => p - q)).toEqual([...oldA, bs[0]!].sort((p, q) => p - q));
    const [output] = await db
      .select()
      .from(holdings)
      .where(eq(holdings.id, Number(record.output.holdingId)));
    expect(output).toMatchObject({ userId: user, channelId: x.channelId, commodityId: x.outputId, source: 'exchange', destroyedAt: null });
    const spent = await db
      .select({ by: holdings.destroyedByExchangeId })
      .from(holdings)
      .where(and(isNotNull(holdings.destroyedAt), eq(holdings.userId, user!)));
    expect(spent.map((s) => s.by)).toEqual([Number(record.id), Number(record.id), Number(record.id)]);
    expect(await remaining(x.offerId)).toBe(9);
    expect(await taken(x.offerId, user!)).toBe(1);
    expect(await minted(db, x.outputId)).toBe(1);
    expect(othersA).toHaveLength(2);
  });

  it('changes nothing when an input is missing, and names it', async () => {
    const a = await commodity('x2-a');
    const b = await commodity('x2-b');
    const x = await makeExchange({
      code: 'x2',
      inputs: [
        { commodityId: a, quantity: 2 },
        { commodityId: b, quantity: 2 },
      ],
      total: 10,
    });
    const [user] = await makeUsers(db, 1, '3902');
    await give(user!, a, 2);
    await give(user!, b, 1);

    const outcome = await reasonOf(
      exchange(ctxFor(user!, x.channelId), { campaignId: x.campaignId, offerId: x.offerId, idempotencyKey: 'x2-key-0001' }),
    );

    expect(outcome).toMatchObject({ code: 409, reason: 'missingInputs', message: expect.stringContaining('Test x2-b') });
    expect(await destroyedOf(user!)).toEqual([]);
    expect(await remaining(x.offerId)).toBe(10);
    expect(await taken(x.offerId, user!)).toBe(0);
    expect(await minted(db, x.outputId)).toBe(0);
    expect(await db.select().from(offerClaims).where(eq(offerClaims.userId, user!))).toEqual([]);
  });

  it('spends exactly the chosen holdings, and refuses a choice that does not fit the recipe', async () => {
    const a = await commodity('x3-a');
    const b = await commodity('x3-b');
    const x = await makeExchange({ code: 'x3', inputs: [{ commodityId: a, quantity: 2 }], total: 10 });
    const [user, other] = await makeUsers(db, 2, '3903');
    const as = await give(user!, a, 4);
    const [bId] = await give(user!, b, 1);
    const [othersA] = await give(other!, a, 1);
    const ctx = ctxFor(user!, x.channelId);
    const base = { campaignId: x.campaignId, offerId: x.offerId };

    expect(await reasonOf(exchange(ctx, { ...base, idempotencyKey: 'x3-key-bad1', holdingIds: [as[0]!] }))).toMatchObject({ code: 400 });
    expect(await reasonOf(exchange(ctx, { ...base, idempotencyKey: 'x3-key-bad2', holdingIds: [as[0]!, bId!] }))).toMatchObject({
      code: 400,
    });
    expect(await reasonOf(exchange(ctx, { ...base, idempotencyKey: 'x3-key-bad3', holdingIds: [as[0]!, as[0]!] }))).toMatchObject({
      code: 400,
    });
    expect(await reasonOf(exchange(ctx, { ...base, idempotencyKey: 'x3-key-bad4', holdingIds: [as[0]!, othersA!] }))).toMatchObject({
      code: 400,
    });
    expect(await destroyedOf(user!)).toEqual([]);

    const record = await exchange(ctx, { ...base, idempotencyKey: 'x3-key-good', holdingIds: [as[3]!, as[2]!] });
    expect(record.inputs.map((i) => Number(i.holdingId)).sort((p, q) => p - q)).toEqual([as[2]!, as[3]!]);
    expect(await destroyedOf(user!)).toEqual([as[2]!, as[3]!]);

    // Already spent: the conditional update finds them gone, and the whole exchange rolls back.
    const again = await reasonOf(exchange(ctx, { ...base, idempotencyKey: 'x3-key-agai', holdingIds: [as[3]!, as[0]!] }));
    expect(again).toMatchObject({ code: 409, reason: 'missingInputs' });
    expect(await destroyedOf(user!)).toEqual([as[2]!, as[3]!]);
    expect(await taken(x.offerId, user!)).toBe(1);
  });

  it('gives one exchange for one idempotency key, also when the two requests race', async () => {
    const a = await commodity('x4-a');
    const x = await makeExchange({ code: 'x4', inputs: [{ commodityId: a, quantity: 1 }], total: 10 });
    const [user] = await makeUsers(db, 1, '3904');
    await give(user!, a, 6);
    const ctx = ctxFor(user!, x.channelId);
    const input = { campaignId: x.campaignId, offerId: x.offerId, idempotencyKey: 'x4-key-0001' };

    const first = await exchange(ctx, input);
    const second = await exchange(ctx, input);
    expect(second).toEqual(first);

    const raced = await Promise.all([1, 2, 3].map(() => exchange(ctx, { ...input, idempotencyKey: 'x4-key-0002' })));
    expect(new Set(raced.map((r) => r.id)).size).toBe(1);
    expect(raced[0]!.id).not.toBe(first.id);

    expect(await db.select().from(offerClaims).where(eq(offerClaims.userId, user!))).toHaveLength(2);
    expect(await destroyedOf(user!)).toHaveLength(2);
    expect(await taken(x.offerId, user!)).toBe(2);
    expect(await remaining(x.offerId)).toBe(8);
  });

  it('lets one user exchange exactly up to the limit when 20 requests arrive at once', async () => {
    const a = await commodity('x5-a');
    const x = await makeExchange({ code: 'x5', inputs: [{ commodityId: a, quantity: 2 }], total: 100, limitPerUser: 3 });
    const [user] = await makeUsers(db, 1, '3905');
    await give(user!, a, 40);
    const ctx = ctxFor(user!, x.channelId);

    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        reasonOf(exchange(ctx, { campaignId: x.campaignId, offerId: x.offerId, idempotencyKey: `x5-key-${String(i).padStart(4, '0')}` })),
      ),
    );

    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => (o as { reason: string }).reason === 'limit')).toBe(true);
    expect(await taken(x.offerId, user!)).toBe(3);
    expect(await remaining(x.offerId)).toBe(97);
    expect(await destroyedOf(user!)).toHaveLength(6);
    expect(await minted(db, x.outputId)).toBe(3);
  });

  it('never takes the stock below zero when many users exchange at once', async () => {
    const a = await commodity('x6-a');
    const x = await makeExchange({ code: 'x6', inputs: [{ commodityId: a, quantity: 1 }], total: 5, limitPerUser: 2 });
    const users = await makeUsers(db, 12, '3906');
    for (const u of users) await give(u, a, 2);

    const outcomes = await Promise.all(
      users.flatMap((u, i) =>
        [0, 1].map((k) =>
          reasonOf(
            exchange(ctxFor(u, x.channelId), { campaignId: x.campaignId, offerId: x.offerId, idempotencyKey: `x6-key-${i}-${k}-pad` }),
          ),
        ),
      ),
    );

    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(5);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => (o as { reason: string }).reason === 'soldOut')).toBe(true);
    expect(await remaining(x.offerId)).toBe(0);
    expect(await minted(db, x.outputId)).toBe(5);
    let spent = 0;
    for (const u of users) spent += (await destroyedOf(u)).length;
    expect(spent).toBe(5);
  });

  it('refuses before the window opens and after it ends, spending nothing', async () => {
    const a = await commodity('x7-a');
    const early = await makeExchange({
      code: 'x7-early',
      inputs: [{ commodityId: a, quantity: 1 }],
      startTime: new Date(t0.getTime() + HOUR),
    });
    const late = await makeExchange({
      code: 'x7-late',
      inputs: [{ commodityId: a, quantity: 1 }],
      startTime: new Date(t0.getTime() - 2 * HOUR),
      endTime: t0,
    });
    const [user] = await makeUsers(db, 1, '3907');
    await give(user!, a, 1);
    const ctx = ctxFor(user!, early.channelId);

    expect(
      await reasonOf(exchange(ctx, { campaignId: early.campaignId, offerId: early.offerId, idempotencyKey: 'x7-key-0001' })),
    ).toMatchObject({ code: 409, reason: 'notOpen' });
    expect(
      await reasonOf(exchange(ctx, { campaignId: late.campaignId, offerId: late.offerId, idempotencyKey: 'x7-key-0002' })),
    ).toMatchObject({ code: 409, reason: 'ended' });
    expect(
      await reasonOf(exchange(ctx, { campaignId: early.campaignId, offerId: late.offerId, idempotencyKey: 'x7-key-0003' })),
    ).toMatchObject({ code: 404 });
    expect(await destroyedOf(user!)).toEqual([]);
  });
});

describe('exchanging with a code', () => {
  it('spends the code with the recipe: a wrong code spends nothing, the right one works once, typed loosely', async () => {
    const a = await commodity('x10-a');
    const code = generateCode();
    const x = await makeExchange({ code: 'x10', inputs: [{ commodityId: a, quantity: 1 }], codes: [code] });
    const [user, other] = await makeUsers(db, 2, '3910');
    await give(user!, a, 2);
    await give(other!, a, 1);
    const ctx = ctxFor(user!, x.channelId);
    const base = { campaignId: x.campaignId, offerId: x.offerId };

    expect(await reasonOf(exchange(ctx, { ...base, idempotencyKey: 'x10-key-0001' }))).toMatchObject({
      code: 400,
      message: 'Please enter the redeem code for this exchange.',
    });
    const wrong = await reasonOf(exchange(ctx, { ...base, code: generateCode(), idempotencyKey: 'x10-key-0002' }));
    expect(wrong).toMatchObject({ code: 409, reason: 'badCode' });
    expect(await destroyedOf(user!)).toEqual([]);
    expect(await taken(x.offerId, user!)).toBe(0);

    const record = await exchange(ctx, { ...base, code: code.toLowerCase().replace(/-/g, ' '), idempotencyKey: 'x10-key-0003' });
    expect(record.inputs).toHaveLength(1);
    const [row] = await db.select().from(redeemCodes).where(eq(redeemCodes.offerId, x.offerId));
    expect(row).toMatchObject({ usedBy: user });

    // Used: the next try, by anyone, gets the same answer as an unknown code.
    expect(await reasonOf(exchange(ctxFor(other!, x.channelId), { ...base, code, idempotencyKey: 'x10-key-0004' }))).toEqual(wrong);
    expect(await destroyedOf(other!)).toEqual([]);
  });

  it('lets exactly one of 50 concurrent tries of one code through', async () => {
    const a = await commodity('x11-a');
    const code = generateCode();
    const x = await makeExchange({ code: 'x11', inputs: [{ commodityId: a, quantity: 1 }], codes: [code], total: 100 });
    const users = await makeUsers(db, 50, '3911');
    for (const u of users) await give(u, a, 1);

    const outcomes = await Promise.all(
      users.map((u, i) =>
        reasonOf(
          exchange(ctxFor(u, x.channelId, t0, `198.51.100.${i}`), {
            campaignId: x.campaignId,
            offerId: x.offerId,
            code,
            idempotencyKey: `x11-key-${i}-pad`,
          }),
        ),
      ),
    );

    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => (o as { reason: string }).reason === 'badCode')).toBe(true);
    expect(await remaining(x.offerId)).toBe(99);
    expect(await minted(db, x.outputId)).toBe(1);
    let spent = 0;
    for (const u of users) spent += (await destroyedOf(u)).length;
    expect(spent).toBe(1);
  });

  it('stops a user after 10 wrong codes in an hour with 429, also for a right code', async () => {
    const a = await commodity('x12-a');
    const code = generateCode();
    const x = await makeExchange({ code: 'x12', inputs: [{ commodityId: a, quantity: 1 }], codes: [code] });
    const [user] = await makeUsers(db, 1, '3912');
    await give(user!, a, 1);
    const ctx = ctxFor(user!, x.channelId, t0, '192.0.2.12');
    for (let i = 0; i < 10; i++) {
      expect(
        await reasonOf(
          exchange(ctx, { campaignId: x.campaignId, offerId: x.offerId, code: generateCode(), idempotencyKey: `x12-key-${i}-pad` }),
        ),
      ).toMatchObject({ reason: 'badCode' });
    }
    expect(
      await reasonOf(exchange(ctx, { campaignId: x.campaignId, offerId: x.offerId, code, idempotencyKey: 'x12-key-last' })),
    ).toMatchObject({ code: 429 });
    const [counted] = await db
      .select({ hits: rateLimits.hits })
      .from(rateLimits)
      .where(like(rateLimits.bucket, `code:redeem:user:${user!}`));
    expect(counted?.hits).toBe(10);
    // An hour later the user may try again.
    const later = await exchange(ctxFor(user!, x.channelId, new Date(t0.getTime() + HOUR + 1000), '192.0.2.12'), {
      campaignId: x.campaignId,
      offerId: x.offerId,
      code,
      idempotencyKey: 'x12-key-later',
    });
    expect(later.inputs).toHaveLength(1);
  });
});

describe('reading exchanges', () => {
  it('lists the activities with their recipes, and one offer with what the user can spend', async () => {
    const a = await commodity('x8-a');
    const b = await commodity('x8-b', 'AURORA');
    const box = (await makeSale(db, { code: 'x8-box', amount: 10, limitPerUser: 1, now: t0, isBlindBox: true })).commodityId;
    const x = await makeExchange({
      code: 'x8',
      inputs: [
        { commodityId: a, quantity: 2 },
        { commodityId: b, quantity: 1 },
      ],
      total: 7,
      limitPerUser: 2,
    });
    const [user] = await makeUsers(db, 1, '3908');
    const as = await give(user!, a, 3);
    await give(user!, box, 1);

    const list = await listExchangeActivities({ db, now: t0, channelId: x.channelId });
    const mine = list.find((c) => c.id === String(x.campaignId))!;
    expect(mine).toMatchObject({ name: 'Trade x8', status: 1 });
    expect(mine.offers).toEqual([
      expect.objectContaining({
        id: String(x.offerId),
        commodity: expect.objectContaining({ id: String(x.outputId), name: 'Test x8-out' }),
        total: 7,
        remaining: 7,
        inputs: [
          { commodity: expect.objectContaining({ id: String(a), name: 'Test x8-a', cover: '/goods/aurora-dawn.svg' }), quantity: 2 },
          { commodity: expect.objectContaining({ id: String(b), name: 'Test x8-b' }), quantity: 1 },
        ],
      }),
    ]);
    expect(list.every((c) => c.offers.every((o) => o.inputs.length > 0))).toBe(true);

    const visitor = await getExchangeOffer({ db, now: t0, channelId: x.channelId, userId: null }, x.campaignId, x.offerId);
    expect(visitor.mine).toBeNull();

    const detail = await getExchangeOffer({ db, now: t0, channelId: x.channelId, userId: user! }, x.campaignId, x.offerId);
    expect(detail.mine).toMatchObject({ taken: 0, timesLeft: 2, canExchange: false, reason: 'missingInputs' });
    expect(detail.mine!.inputs[0]!.holdings.map((h) => Number(h.id))).toEqual(as);
    expect(detail.mine!.inputs.map((line) => line.have)).toEqual([as.length, 0]);
    expect(detail.mine!.inputs[1]!.holdings).toEqual([]);

    await give(user!, b, 1);
    await exchange(ctxFor(user!, x.channelId), { campaignId: x.campaignId, offerId: x.offerId, idempotencyKey: 'x8-key-0001' });
    const after = await getExchangeOffer({ db, now: t0, channelId: x.channelId, userId: user! }, x.campaignId, x.offerId);
    expect(after.mine).toMatchObject({ taken: 1, timesLeft: 1, canExchange: false, reason: 'missingInputs' });
    expect(after.mine!.inputs[0]!.holdings.map((h) => Number(h.id))).toEqual([as[2]]);
    expect(after.offer.remaining).toBe(6);

    const swap = await channelId('SWAP');
    await expect(getExchangeOffer({ db, now: t0, channelId: swap, userId: user! }, x.campaignId, x.offerId)).rejects.toMatchObject({
      code: 404,
    });
  });

  it('counts every holding that can be spent, while listing the oldest 100', async () => {
    const a = await commodity('x13-a', 'AURORA', 5000);
    const x = await makeExchange({ code: 'x13', inputs: [{ commodityId: a, quantity: 2 }] });
    const [user] = await makeUsers(db, 1, '3913');
    await give(user!, a, 105);
    const detail = await getExchangeOffer({ db, now: t0, channelId: x.channelId, userId: user! }, x.campaignId, x.offerId);
    expect(detail.mine!.inputs[0]).toMatchObject({ have: 105, quantity: 2 });
    expect(detail.mine!.inputs[0]!.holdings).toHaveLength(100);
  });

  it('shows a user only their own records on this channel, and what each exchange spent', async () => {
    const a = await commodity('x9-a');
    const x = await makeExchange({ code: 'x9', inputs: [{ commodityId: a, quantity: 2 }], total: 10 });
    const sa = await commodity('x9-sa', 'SWAP');
    const y = await makeExchange({ code: 'x9-swap', channelKey: 'SWAP', inputs: [{ commodityId: sa, quantity: 1 }], total: 10 });
    const [user, other] = await makeUsers(db, 2, '3909');
    const mineA = await give(user!, a, 4);
    await give(other!, a, 2);
    const mineSwap = await give(user!, sa, 1, 'SWAP');

    const first = await exchange(ctxFor(user!, x.channelId, t0), {
      campaignId: x.campaignId,
      offerId: x.offerId,
      idempotencyKey: 'x9-key-0001',
    });
    const second = await exchange(ctxFor(user!, x.channelId, new Date(t0.getTime() + 60_000)), {
      campaignId: x.campaignId,
      offerId: x.offerId,
      idempotencyKey: 'x9-key-0002',
    });
    await exchange(ctxFor(other!, x.channelId), { campaignId: x.campaignId, offerId: x.offerId, idempotencyKey: 'x9-key-0001' });
    const onSwap = await exchange(ctxFor(user!, y.channelId), {
      campaignId: y.campaignId,
      offerId: y.offerId,
      idempotencyKey: 'x9-key-0003',
    });

    const records = await listExchanges(ctxFor(user!, x.channelId), { pageCount: 1, pageSize: 10 });
    expect(records).toMatchObject({ total: 2, current: 1, pages: 1, size: 10 });
    expect(records.records.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(records.records[1]).toMatchObject({
      campaign: { id: String(x.campaignId), name: 'Trade x9' },
      offerId: String(x.offerId),
      output: { commodity: { name: 'Test x9-out' }, number: 1, amountNumber: 1000 },
    });
    expect(records.records[1]!.inputs.map((i) => Number(i.holdingId))).toEqual([mineA[0], mineA[1]]);
    expect(records.records[0]!.inputs.map((i) => Number(i.holdingId))).toEqual([mineA[2], mineA[3]]);

    const paged = await listExchanges(ctxFor(user!, x.channelId), { pageCount: 2, pageSize: 1 });
    expect(paged).toMatchObject({ total: 2, current: 2, pages: 2, size: 1 });
    expect(paged.records.map((r) => r.id)).toEqual([first.id]);

    const swapRecords = await listExchanges(ctxFor(user!, y.channelId), { pageCount: 1, pageSize: 10 });
    expect(swapRecords.records.map((r) => r.id)).toEqual([onSwap.id]);

    const destroyed = await listDestroyed(ctxFor(user!, x.channelId), { pageCount: 1, pageSize: 10 });
    expect(destroyed.total).toBe(4);
    expect(destroyed.records.map((d) => Number(d.id))).toEqual([mineA[3], mineA[2], mineA[1], mineA[0]]);
    expect(destroyed.records[0]).toMatchObject({
      commodity: { id: String(a), name: 'Test x9-a', cover: '/goods/aurora-dawn.svg' },
      amountNumber: 1000,
      destroyTime: new Date(t0.getTime() + 60_000).toISOString(),
      exchange: { id: second.id, campaign: { id: String(x.campaignId), name: 'Trade x9' } },
    });
    expect(destroyed.records[3]).toMatchObject({ destroyTime: t0.toISOString(), exchange: { id: first.id } });

    const swapDestroyed = await listDestroyed(ctxFor(user!, y.channelId), { pageCount: 1, pageSize: 10 });
    expect(swapDestroyed.records.map((d) => Number(d.id))).toEqual(mineSwap);
    expect(swapDestroyed.records[0]!.exchange).toMatchObject({ id: onSwap.id, campaign: { name: 'Trade x9-swap' } });

    const othersDestroyed = await listDestroyed(ctxFor(other!, x.channelId), { pageCount: 1, pageSize: 10 });
    expect(othersDestroyed.total).toBe(2);
    expect(othersDestroyed.records.every((d) => !mineA.includes(Number(d.id)))).toBe(true);
  });
});

describe('where the store gives what a recipe spends (issue 30)', () => {
  /** A gift campaign of AURORA with one gift of the commodity: its window and its stock. */
  async function giftOf(commodityId: number, code: string, window: { startTime: Date; endTime: Date | null }, remaining = 10) {
    const chId = await channelId('AURORA');
    const [campaign] = await db
      .insert(campaigns)
      .values({ channelId: chId, kind: 'gift', code, name: `Gift ${code}`, cover: '/goods/star-fox.svg', ...window })
      .returning({ id: campaigns.id });
    const [offer] = await db
      .insert(campaignOffers)
      .values({ campaignId: campaign!.id, channelId: chId, commodityId, total: 10, remaining })
      .returning({ id: campaignOffers.id });
    return { campaignId: String(campaign!.id), offerId: String(offer!.id) };
  }
  const everywhere = { gifts: true, sales: true };

  it("SWAP's Starter Cards: the gift campaign that gives them; Star Fox on AURORA: its sale", async () => {
    const swap = await channelId('SWAP');
    const activity = (await listExchangeActivities({ db, now: t0, channelId: swap })).find((a) => a.name === 'Starter trade-up')!;
    const starterCard = activity.offers[0]!.inputs[0]!.commodity;
    expect(starterCard.name).toBe('Starter Card');
    const found = await findInputSources({ db, now: t0, channelId: swap }, [starterCard.id], everywhere);
    const [gift] = await db
      .select({ campaignId: campaigns.id, offerId: campaignOffers.id })
      .from(campaignOffers)
      .innerJoin(campaigns, eq(campaigns.id, campaignOffers.campaignId))
      .where(and(eq(campaigns.code, 'starter-cards'), eq(campaigns.channelId, swap)));
    expect(found.get(starterCard.id)).toEqual({ kind: 'gift', campaignId: String(gift!.campaignId), offerId: String(gift!.offerId) });

    const aurora = await channelId('AURORA');
    const constellation = (await listExchangeActivities({ db, now: t0, channelId: aurora })).find((a) => a.name === 'Constellation trade')!;
    const starFox = constellation.offers[0]!.inputs[0]!.commodity;
    const [sale] = await db
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(sales.channelId, aurora), eq(sales.code, 'star-fox')));
    expect((await findInputSources({ db, now: t0, channelId: aurora }, [starFox.id], everywhere)).get(starFox.id)).toEqual({
      kind: 'sale',
      saleId: String(sale!.id),
    });
    // A channel whose pages offer no sale (no label 1) has no page to send the buyer to.
    expect((await findInputSources({ db, now: t0, channelId: aurora }, [starFox.id], { gifts: true, sales: false })).size).toBe(0);
  });

  it('only where the buyer can still get one: not an ended gift, not one given out, not another channel; open before upcoming', async () => {
    const aurora = await channelId('AURORA');
    const scope = { db, now: t0, channelId: aurora };
    const { commodityId, saleId } = await makeSale(db, { code: 'source-card', amount: 5, limitPerUser: 1, now: t0 });
    const id = String(commodityId);
    await giftOf(commodityId, 'source-ended', { startTime: new Date(t0.getTime() - 48 * HOUR), endTime: new Date(t0.getTime() - HOUR) });
    await giftOf(commodityId, 'source-gone', { startTime: new Date(t0.getTime() - HOUR), endTime: null }, 0);
    // Nothing to give but the sale: its goods page.
    expect((await findInputSources(scope, [id], everywhere)).get(id)).toEqual({ kind: 'sale', saleId: String(saleId) });
    // Another channel is told nothing about it.
    expect((await findInputSources({ ...scope, channelId: await channelId('SWAP') }, [id], everywhere)).size).toBe(0);

    const upcoming = await giftOf(commodityId, 'source-later', { startTime: new Date(t0.getTime() + 24 * HOUR), endTime: null });
    expect((await findInputSources(scope, [id], everywhere)).get(id)).toEqual({ kind: 'gift', ...upcoming });
    const open = await giftOf(commodityId, 'source-open', { startTime: new Date(t0.getTime() - 2 * HOUR), endTime: null });
    expect((await findInputSources(scope, [id], everywhere)).get(id)).toEqual({ kind: 'gift', ...open });
  });
});
