import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { buyerIdentities, campaignOffers, campaigns, chainCampaigns, chainCodes, channels, offerInputs } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import type { IdentityPolicyJson } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import type { UserScope } from '@/lib/procedure/scope';
import { mintHoldings } from '@/lib/collection/mint';
import { generateCode, hashCode } from '@/lib/redeem-code/service';
import { createOrder } from '@/lib/order/service';
import { claimGift } from '@/lib/gift/service';
import { exchange } from '@/lib/exchange/service';
import { chainUp } from '@/lib/chain/chain-up';
import { requireIdentity } from './gate';

// issue 33, "Per-channel policy": a channel's real-name and age rules are kept by every action (buying, receiving a
// gift, an exchange, chain-up), on the channel's own day, telling the buyer the channel's rule and never their age.

// 01:00 on 22 November in Shanghai, still 21 November in UTC: an age turns over at the channel's midnight.
const t0 = new Date('2026-11-21T17:00:00Z');
const HOUR = 3_600_000;
const db = seededTestDb(t0);

let seq = 0;
const next = () => ++seq;

async function channelId(key: string): Promise<number> {
  const [row] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
  return row!.id;
}

async function setPolicy(key: string, identityPolicy: IdentityPolicyJson): Promise<void> {
  await db.update(channels).set({ identityPolicy, timeZone: 'Asia/Shanghai' }).where(eq(channels.key, key));
}

/** A buyer, verified with this birth date when one is given (rows as the verification writes them). */
async function buyer(birthDate?: string): Promise<number> {
  const n = next();
  const [userId] = await makeUsers(db, 1, `77${String(n).padStart(2, '0')}`);
  if (birthDate) {
    await db.insert(buyerIdentities).values({
      userId: userId!,
      idHash: `test-hash-${n}`,
      nameSealed: 'sealed',
      idNumberSealed: 'sealed',
      keyId: 'test',
      birthDate,
      maskedName: '张*',
      maskedIdNumber: '1101**********1234',
      provider: 'demo',
      verifiedAt: new Date(t0.getTime() - HOUR),
    });
  }
  return userId!;
}

const scope = (channel: number, userId: number): UserScope => ({ db, now: t0, channelId: channel, userId, ip: '203.0.113.33' });

async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, data: error.data, message: error.message };
    throw error;
  }
}

const required = (action: string) => ({
  code: 1010,
  data: { reason: 'identityRequired', action },
  message: expect.stringContaining('Verify your real name before you') as unknown,
});

describe('buying', () => {
  async function sale(isBlindBox = false) {
    return makeSale(db, { channelKey: 'AURORA', code: `gate-buy-${next()}`, amount: 10, limitPerUser: 2, now: t0, isBlindBox });
  }
  const buy = (s: { saleId: number; channelId: number }, userId: number) =>
    createOrder(scope(s.channelId, userId), { saleId: s.saleId, quantity: 1, idempotencyKey: `gate-${next()}` }, 15 * 60_000);

  it('a channel that asks real-name refuses an unverified buyer with 1010 and lets a verified one buy', async () => {
    await setPolicy('AURORA', { realName: { buy: true } });
    const s = await sale();
    expect(await outcome(buy(s, await buyer()))).toEqual({
      code: 1010,
      data: { reason: 'identityRequired', action: 'buy' },
      message: 'Verify your real name before you buy.',
    });
    expect(await outcome(buy(s, await buyer('1990-05-01')))).toBe('ok');
  });

  it('on a 14+ channel refuses a buyer one day short of 14 on the channel’s today, naming the rule, and allows them on their birthday', async () => {
    await setPolicy('AURORA', { minAge: 14 });
    const s = await sale();
    // The channel's today is 2026-11-22 (Shanghai); born 2012-11-23 they are 13 for one more day.
    const thirteen = await buyer('2012-11-23');
    const refused = await outcome(buy(s, thirteen));
    expect(refused).toEqual({
      code: 1011,
      data: { reason: 'ageRestricted', action: 'buy', minAge: 14 },
      message: 'This store sells its collectibles only to buyers aged 14 and over.',
    });
    expect(JSON.stringify(refused)).not.toContain('13');
    // Born 2012-11-22: 14 today in Shanghai, though it is still the 21st in UTC.
    expect(await outcome(buy(s, await buyer('2012-11-22')))).toBe('ok');
    // The minimum age turns real-name on: no identity, no buy.
    expect(await outcome(buy(s, await buyer()))).toEqual(required('buy'));
  });

  it('a blind box on an 18 blind-box channel refuses a 16-year-old whose plain buys pass', async () => {
    await setPolicy('AURORA', { blindBoxMinAge: 18 });
    const sixteen = await buyer('2010-06-01');
    expect(await outcome(buy(await sale(false), sixteen))).toBe('ok');
    expect(await outcome(buy(await sale(true), sixteen))).toEqual({
      code: 1011,
      data: { reason: 'ageRestricted', action: 'buy', minAge: 18 },
      message: 'This store sells blind boxes only to buyers aged 18 and over.',
    });
    expect(await outcome(buy(await sale(true), await buyer('2000-01-01')))).toBe('ok');
  });

  it('a retried tap still answers with the order it made before the channel asked real-name', async () => {
    await setPolicy('AURORA', {});
    const s = await sale();
    const userId = await buyer();
    const input = { saleId: s.saleId, quantity: 1, idempotencyKey: `gate-retry-${next()}` };
    const made = await createOrder(scope(s.channelId, userId), input, 15 * 60_000);
    await setPolicy('AURORA', { realName: { buy: true } });
    expect((await createOrder(scope(s.channelId, userId), input, 15 * 60_000)).orderNo).toBe(made.orderNo);
    expect(await outcome(buy(s, userId))).toEqual(required('buy'));
  });

  it('a channel with no policy ({}) sells to a buyer with no identity', async () => {
    await setPolicy('AURORA', {});
    expect(await outcome(buy(await sale(true), await buyer()))).toBe('ok');
  });

  it('a channel with no policy reads nothing: not the identity, not what is bought', async () => {
    const untouchable = new Proxy({} as Db, {
      get() {
        throw new Error('the database was read');
      },
    });
    const blindBox = jest.fn(async () => true);
    await expect(
      requireIdentity(untouchable, {
        channel: { identityPolicy: {}, timeZone: 'Asia/Shanghai' },
        userId: 1,
        action: 'buy',
        blindBox,
        now: t0,
      }),
    ).resolves.toBeUndefined();
    expect(blindBox).not.toHaveBeenCalled();
  });

  it('uses the channel row the API call already has, reading no channel', async () => {
    const s = await sale();
    const [row] = await db.select().from(channels).where(eq(channels.key, 'AURORA'));
    const channel = { ...row!, identityPolicy: { realName: { buy: true } } };
    const userId = await buyer();
    expect(
      await outcome(
        createOrder(
          { ...scope(s.channelId, userId), channel },
          { saleId: s.saleId, quantity: 1, idempotencyKey: `gate-${next()}` },
          60_000,
        ),
      ),
    ).toEqual(required('buy'));
    await setPolicy('AURORA', {});
  });
});

describe('receiving a gift', () => {
  async function gift(isBlindBox = false) {
    const { commodityId, channelId: ch } = await makeSale(db, {
      channelKey: 'GIFT',
      code: `gate-gift-${next()}`,
      amount: 1,
      limitPerUser: 1,
      amountSku: 100,
      now: t0,
      isBlindBox,
    });
    const [campaign] = await db
      .insert(campaigns)
      .values({
        channelId: ch,
        kind: 'gift',
        code: `gate-g${next()}`,
        name: 'Gate gift',
        cover: '/goods/aurora-dawn.svg',
        startTime: new Date(t0.getTime() - HOUR),
      })
      .returning({ id: campaigns.id });
    const [offer] = await db
      .insert(campaignOffers)
      .values({ campaignId: campaign!.id, channelId: ch, commodityId, total: 10, remaining: 10, limitPerUser: 1 })
      .returning({ id: campaignOffers.id });
    return { channelId: ch, campaignId: campaign!.id, offerId: offer!.id };
  }
  const receive = (g: { channelId: number; campaignId: number; offerId: number }, userId: number) =>
    claimGift(scope(g.channelId, userId), { campaignId: g.campaignId, offerId: g.offerId, idempotencyKey: `gate-${next()}` });

  it('asks real-name when the channel does, and lets a verified buyer receive', async () => {
    await setPolicy('GIFT', { realName: { receive: true } });
    const g = await gift();
    expect(await outcome(receive(g, await buyer()))).toEqual({
      ...required('receive'),
      message: 'Verify your real name before you receive this.',
    });
    expect(await outcome(receive(g, await buyer('1995-01-01')))).toBe('ok');
  });

  it('keeps the blind-box age for a box given away, not for a plain gift', async () => {
    await setPolicy('GIFT', { blindBoxMinAge: 18 });
    const sixteen = await buyer('2010-06-01');
    expect(await outcome(receive(await gift(false), sixteen))).toBe('ok');
    expect(await outcome(receive(await gift(true), sixteen))).toMatchObject({
      code: 1011,
      data: { reason: 'ageRestricted', action: 'receive', minAge: 18 },
    });
    await setPolicy('GIFT', {});
  });
});

describe('an exchange', () => {
  it('asks real-name when the channel does, before anything is spent, and lets a verified buyer exchange', async () => {
    await setPolicy('AURORA', { realName: { exchange: true } });
    const ch = await channelId('AURORA');
    const input = await makeSale(db, {
      channelKey: 'AURORA',
      code: `gate-in-${next()}`,
      amount: 10,
      amountSku: 100,
      limitPerUser: 1,
      now: t0,
    });
    const output = await makeSale(db, {
      channelKey: 'AURORA',
      code: `gate-out-${next()}`,
      amount: 10,
      amountSku: 100,
      limitPerUser: 1,
      now: t0,
    });
    const [campaign] = await db
      .insert(campaigns)
      .values({
        channelId: ch,
        kind: 'exchange',
        code: `gate-x${next()}`,
        name: 'Gate trade',
        cover: '/goods/star-fox.svg',
        startTime: new Date(t0.getTime() - HOUR),
      })
      .returning({ id: campaigns.id });
    const [offer] = await db
      .insert(campaignOffers)
      .values({ campaignId: campaign!.id, channelId: ch, commodityId: output.commodityId, total: 10, remaining: 10, limitPerUser: 5 })
      .returning({ id: campaignOffers.id });
    await db.insert(offerInputs).values({ offerId: offer!.id, commodityId: input.commodityId, quantity: 1 });
    const holder = async (birthDate?: string) => {
      const userId = await buyer(birthDate);
      await db.transaction((tx) =>
        mintHoldings(tx, {
          channelId: ch,
          userId,
          commodity: { id: input.commodityId, amountSku: 100 },
          quantity: 1,
          source: 'order',
          now: t0,
        }),
      );
      return userId;
    };
    const trade = (userId: number) =>
      exchange(scope(ch, userId), { campaignId: campaign!.id, offerId: offer!.id, idempotencyKey: `gate-${next()}` });

    expect(await outcome(trade(await holder()))).toEqual({
      ...required('exchange'),
      message: 'Verify your real name before you exchange.',
    });
    expect(await outcome(trade(await holder('1990-01-01')))).toBe('ok');
    await setPolicy('AURORA', {});
  });
});

describe('chain-up', () => {
  it('asks real-name when the channel does, before a code try is taken, and lets a verified buyer chain up', async () => {
    await setPolicy('CHAIN', { realName: { chainUp: true } });
    const ch = await channelId('CHAIN');
    const { commodityId } = await makeSale(db, {
      channelKey: 'CHAIN',
      code: `gate-twin-${next()}`,
      amount: 10,
      amountSku: 100,
      limitPerUser: 1,
      now: t0,
    });
    const [campaign] = await db
      .insert(chainCampaigns)
      .values({
        channelId: ch,
        name: 'Gate chain-up',
        cover: '/goods/crystal-owl.svg',
        commodityId,
        authorStageName: 'Mo Studio',
        startTime: new Date(t0.getTime() - HOUR),
      })
      .returning({ id: chainCampaigns.id });
    const code = generateCode();
    await db.insert(chainCodes).values({ campaignId: campaign!.id, codeHash: hashCode(code), type: 1 });
    const chain = (userId: number) => chainUp(scope(ch, userId), { campaignId: campaign!.id, code, type: 1, storeCode: 'SH003' });

    expect(await outcome(chain(await buyer()))).toEqual({ ...required('chainUp'), message: 'Verify your real name before you chain up.' });
    expect(await outcome(chain(await buyer('1990-01-01')))).toBe('ok');
    await setPolicy('CHAIN', {});
  });
});
