import { and, eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { accountNumberOf } from '@/lib/auth/account-numbers';
import { buyerIdentities, buyerMessages, chainLedger, channels, holdings, holdingTransfers, users } from '@/lib/db/schema';
import { verifyLedger } from '@/lib/chain/ledger';
import { AppError } from '@/lib/procedure/errors';
import { renderMessage } from '@/lib/procedure/messages';
import type { UserScope } from '@/lib/procedure/scope';
import { listCollection } from '@/lib/collection/service';
import {
  acceptTransfer,
  expireDueTransfers,
  GIFTS_PER_DAY,
  giftability,
  giveHolding,
  listIncoming,
  listRecords,
  lookupReceiver,
  LOOKUPS_PER_MINUTE,
  maskedBuyerName,
  refuseTransfer,
} from './service';

// Gifts between buyers (转赠, issue 36; docs/gifting.md): what the sender and the receiver notice, and every refusal
// with nothing moved. Runs on PGlite and, with PG_TEST_PORT, on PostgreSQL.

const t0 = new Date('2026-11-28T08:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);

const db = seededTestDb(t0);

let aurora = 0;
let lumen = 0;
let commodityId = 0;
let boxCommodityId = 0;
let edition = 0;
let userSeq = 0;

beforeAll(async () => {
  const sale = await makeSale(db, { code: 'GIFT-T', amount: 500, amountSku: 500, limitPerUser: 10, now: t0 });
  const box = await makeSale(db, { code: 'GIFT-BOX', amount: 50, limitPerUser: 10, now: t0, isBlindBox: true });
  aurora = sale.channelId;
  commodityId = sale.commodityId;
  boxCommodityId = box.commodityId;
  const [l] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
  lumen = l!.id;
});

/** A buyer on AURORA with a nickname (or none), and their account number there. */
async function buyer(nickname: string | null = 'Alice Wang'): Promise<{ id: number; number: string }> {
  userSeq += 1;
  const [id] = await makeUsers(db, 1, `86${String(userSeq).padStart(2, '0')}`);
  await db.update(users).set({ nickname }).where(eq(users.id, id!));
  return { id: id!, number: await accountNumberOf(db, aurora, id!, t0) };
}

/** A holding of `userId`, bought `ageHours` before t0, on chain unless said otherwise. */
async function holding(userId: number, options: { ageHours?: number; onChain?: boolean; box?: boolean } = {}): Promise<number> {
  edition += 1;
  const [row] = await db
    .insert(holdings)
    .values({
      channelId: aurora,
      userId,
      commodityId: options.box ? boxCommodityId : commodityId,
      number: edition,
      createdAt: at(-(options.ageHours ?? 48)),
      chainStatus: options.onChain === false ? 0 : 1,
      tokenId: `token-${edition}`,
    })
    .returning({ id: holdings.id });
  return row!.id;
}

const scope = (userId: number, now = t0, channelId = aurora): UserScope => ({ db, now, channelId, userId, ip: '203.0.113.36' });

let keys = 0;
const key = () => `gift-key-${++keys}`;

/** The refusal as the buyer reads it, in both languages, with its code and field. */
async function refusal(p: Promise<unknown>): Promise<{ code: number; field: unknown; en: string; zh: string }> {
  try {
    await p;
  } catch (error) {
    if (!(error instanceof AppError) || !error.text) throw error;
    return {
      code: error.code,
      field: error.data?.field,
      en: renderMessage(error.text, 'en', 'Asia/Shanghai'),
      zh: renderMessage(error.text, 'zh-CN', 'Asia/Shanghai'),
    };
  }
  throw new Error('expected a refusal');
}

async function ownerOf(holdingId: number): Promise<number> {
  const [row] = await db.select({ userId: holdings.userId }).from(holdings).where(eq(holdings.id, holdingId));
  return row!.userId;
}

async function pendingCount(holdingId: number): Promise<number> {
  return (
    await db
      .select()
      .from(holdingTransfers)
      .where(and(eq(holdingTransfers.holdingId, holdingId), eq(holdingTransfers.status, 'pending')))
  ).length;
}

describe('masked names', () => {
  it('shows a nickname’s first and last character, or the phone’s last 4 digits, never the whole', () => {
    expect(maskedBuyerName({ nickname: 'Alice Wang', phone: '13800001234' })).toBe('A****g');
    expect(maskedBuyerName({ nickname: '张三', phone: '13800001234' })).toBe('张*');
    expect(maskedBuyerName({ nickname: '王小明', phone: '13800001234' })).toBe('王*明');
    expect(maskedBuyerName({ nickname: null, phone: '13800001234' })).toBe('****1234');
  });
});

describe('giving, accepting, refusing', () => {
  it('gives by account number: the receiver sees it and a message, accepts, and holds the same edition; provenance names both', async () => {
    const a = await buyer('Alice Wang');
    const b = await buyer('Bob Li');
    const h = await holding(a.id);
    expect(await lookupReceiver(scope(a.id), b.number)).toEqual({ accountNumber: b.number, maskedName: 'B****i' });

    const sent = await giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() });
    expect(sent).toMatchObject({ direction: 'sent', status: 'pending', otherName: 'B****i', collectible: { holdingId: String(h) } });
    expect((await giftability(scope(a.id), h)).why).toBe('offered');

    const incoming = await listIncoming(scope(b.id, at(1)));
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({ id: sent.id, direction: 'received', otherName: 'A****g' });
    const [message] = await db.select().from(buyerMessages).where(eq(buyerMessages.userId, b.id));
    expect(message).toMatchObject({ kind: 'giftOffered', params: { who: 'A****g', goods: 'Test GIFT-T' } });

    const number = (await db.select({ n: holdings.number }).from(holdings).where(eq(holdings.id, h)))[0]!.n;
    const accepted = await acceptTransfer(scope(b.id, at(2)), Number(sent.id));
    expect(accepted.status).toBe('accepted');
    expect(await ownerOf(h)).toBe(b.id);
    const collection = await listCollection(scope(b.id, at(2)), { pageCount: 1, pageSize: 50 });
    expect(collection.records.map((r) => [r.id, r.commoditySku.number])).toContainEqual([String(h), number]);
    expect((await listCollection(scope(a.id, at(2)), { pageCount: 1, pageSize: 50 })).records.map((r) => r.id)).not.toContain(String(h));

    const records = await listRecords(scope(a.id, at(2)), { pageCount: 1, pageSize: 10 });
    expect(records.records[0]).toMatchObject({ direction: 'sent', status: 'accepted', otherName: 'B****i' });
    const [told] = await db.select().from(buyerMessages).where(eq(buyerMessages.userId, a.id));
    expect(told).toMatchObject({ kind: 'giftAccepted' });

    // The edition was on chain: the ledger records the transfer from A to B by their public ids, hash-chained.
    const [entry] = await db
      .select()
      .from(chainLedger)
      .where(and(eq(chainLedger.holdingId, h), eq(chainLedger.kind, 'transfer')));
    const uuids = await db.select({ id: users.id, uuid: users.uuid }).from(users);
    const uuidOf = (id: number) => uuids.find((u) => u.id === id)!.uuid;
    expect(entry!.payload).toEqual({
      kind: 'transfer',
      holdingId: h,
      tokenId: expect.stringMatching(/^token-/),
      from: uuidOf(a.id),
      to: uuidOf(b.id),
    });
    expect(accepted.txHash).toBe(`0x${entry!.txHash}`);
    expect(await verifyLedger(db)).toBeNull();

    // The receiver's holding period starts again at receipt; the provenance lists A then B.
    const state = await giftability(scope(b.id, at(3)), h);
    expect(state).toMatchObject({ canGive: false, why: 'holdingPeriod', from: at(26).toISOString() });
    expect(state.provenance.map((p) => p.name)).toEqual(['A****g', 'B****i']);
    expect(await refusal(acceptTransfer(scope(b.id, at(3)), Number(sent.id)))).toMatchObject({ code: 409, field: 'transferId' });
  });

  it('a refused gift stays with its sender, who is told', async () => {
    const a = await buyer();
    const b = await buyer('Bob');
    const h = await holding(a.id);
    const sent = await giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() });
    const refused = await refuseTransfer(scope(b.id, at(1)), Number(sent.id));
    expect(refused.status).toBe('refused');
    expect(await ownerOf(h)).toBe(a.id);
    expect(await listIncoming(scope(b.id, at(1)))).toEqual([]);
    expect((await giftability(scope(a.id, at(1)), h)).canGive).toBe(true);
    const [told] = await db.select().from(buyerMessages).where(eq(buyerMessages.userId, a.id));
    expect(told).toMatchObject({ kind: 'giftReturned' });
    // Only its receiver answers a gift.
    const other = await buyer();
    const again = await giveHolding(scope(a.id, at(1)), { holdingId: h, accountNumber: b.number, idempotencyKey: key() });
    expect(await refusal(acceptTransfer(scope(other.id, at(1)), Number(again.id)))).toMatchObject({ code: 404, field: 'transferId' });
    expect(await refusal(acceptTransfer(scope(a.id, at(1)), Number(again.id)))).toMatchObject({ code: 404 });
  });

  it('an unanswered gift returns after 72 hours: never shown pending once stale, and the job ends it', async () => {
    const a = await buyer();
    const b = await buyer();
    const h = await holding(a.id);
    const sent = await giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() });
    expect(await listIncoming(scope(b.id, at(71)))).toHaveLength(1);
    // Read lazily after the deadline: gone from the receiver's list, back in the sender's hands.
    expect(await listIncoming(scope(b.id, at(72)))).toEqual([]);
    expect((await listRecords(scope(a.id, at(72)), { pageCount: 1, pageSize: 10 })).records[0]).toMatchObject({
      id: sent.id,
      status: 'expired',
    });
    expect(await ownerOf(h)).toBe(a.id);
    const late = await refusal(acceptTransfer(scope(b.id, at(73)), Number(sent.id)));
    expect(late).toMatchObject({ code: 409 });
    expect(late.en).toContain('not answered within 72 hours');
    expect(late.zh).toContain('72 小时内未回应');

    // The job's pass ends due gifts nobody read.
    const h2 = await holding(a.id);
    await giveHolding(scope(a.id), { holdingId: h2, accountNumber: b.number, idempotencyKey: key() });
    expect(await expireDueTransfers(db, at(80))).toBeGreaterThanOrEqual(1);
    expect(await pendingCount(h2)).toBe(0);
  });
});

describe('one gift per tap and per edition', () => {
  it('a double tap is one gift', async () => {
    const a = await buyer();
    const b = await buyer();
    const h = await holding(a.id);
    const k = key();
    const [one, two] = await Promise.all([
      giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: k }),
      giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: k }),
    ]);
    expect(one.id).toBe(two.id);
    const third = await giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: k });
    expect(third.id).toBe(one.id);
    expect(await db.select().from(holdingTransfers).where(eq(holdingTransfers.holdingId, h))).toHaveLength(1);
    expect(await db.select().from(buyerMessages).where(eq(buyerMessages.userId, b.id))).toHaveLength(1);
  });

  it('two concurrent gifts of one edition: one wins, the other is refused as already offered', async () => {
    const a = await buyer();
    const b = await buyer();
    const c = await buyer();
    const h = await holding(a.id);
    const results = await Promise.allSettled([
      giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() }),
      giveHolding(scope(a.id), { holdingId: h, accountNumber: c.number, idempotencyKey: key() }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(AppError);
    expect((lost.reason as AppError).code).toBe(409);
    expect((lost.reason as AppError).message).toContain('already offered');
    expect(await pendingCount(h)).toBe(1);
  });
});

describe('refusals, with nothing moved', () => {
  it('inside the holding period: says from when, in both languages', async () => {
    const a = await buyer();
    const b = await buyer();
    const h = await holding(a.id, { ageHours: 2 });
    const r = await refusal(giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() }));
    expect(r).toMatchObject({ code: 409, field: 'holdingId' });
    expect(r.en).toContain('You can give this collectible from');
    expect(r.en).toContain('24 hours');
    expect(r.zh).toContain('需持有 24 小时');
    expect(await giftability(scope(a.id), h)).toMatchObject({ canGive: false, why: 'holdingPeriod', from: at(22).toISOString() });
    expect(await pendingCount(h)).toBe(0);
    // The channel's own period: 0 hours gives at once.
    await db.update(channels).set({ giftHoldingHours: 0 }).where(eq(channels.id, aurora));
    try {
      expect((await giftability(scope(a.id), h)).canGive).toBe(true);
    } finally {
      await db.update(channels).set({ giftHoldingHours: 24 }).where(eq(channels.id, aurora));
    }
  });

  it('a locked edition: chain-up pending, already offered; a blind box; not one of mine', async () => {
    const a = await buyer();
    const b = await buyer();
    const pending = await holding(a.id, { onChain: false });
    const r = await refusal(giveHolding(scope(a.id), { holdingId: pending, accountNumber: b.number, idempotencyKey: key() }));
    expect(r.en).toContain('being recorded on the chain');
    expect(r.zh).toContain('正在上链');
    const box = await holding(a.id, { box: true });
    expect((await refusal(giveHolding(scope(a.id), { holdingId: box, accountNumber: b.number, idempotencyKey: key() }))).en).toContain(
      'blind box',
    );
    const theirs = await holding(b.id);
    expect(await refusal(giveHolding(scope(a.id), { holdingId: theirs, accountNumber: b.number, idempotencyKey: key() }))).toMatchObject({
      code: 404,
      field: 'holdingId',
    });
    expect(await ownerOf(theirs)).toBe(b.id);
    const h = await holding(a.id);
    await giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() });
    const twice = await refusal(giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() }));
    expect(twice).toMatchObject({ code: 409 });
    expect(twice.zh).toContain('已在一笔等待对方回应的转赠中');
  });

  it('a receiver unknown, on another channel, or oneself: the first two alike', async () => {
    const a = await buyer();
    const h = await holding(a.id);
    const unknown = await refusal(lookupReceiver(scope(a.id), '1000000009'));
    expect(unknown).toMatchObject({ code: 404, field: 'accountNumber' });
    const elsewhere = await buyer();
    const lumenNumber = await accountNumberOf(db, lumen, elsewhere.id, t0);
    expect(await refusal(lookupReceiver(scope(a.id), lumenNumber))).toEqual(unknown);
    const self = await refusal(giveHolding(scope(a.id), { holdingId: h, accountNumber: a.number, idempotencyKey: key() }));
    expect(self).toMatchObject({ code: 400, field: 'accountNumber' });
    expect(self.zh).toContain('这是你自己的账号');
    expect(await pendingCount(h)).toBe(0);
  });

  it('looking up account numbers is limited per sender', async () => {
    const a = await buyer();
    const now = at(500);
    for (let i = 0; i < LOOKUPS_PER_MINUTE; i++) await refusal(lookupReceiver(scope(a.id, now), `100000${String(1000 + i)}`));
    const flood = await refusal(lookupReceiver(scope(a.id, now), '1000009999'));
    expect(flood).toMatchObject({ code: 429, field: 'accountNumber' });
    expect(flood.en).toContain('Too many account numbers looked up');
  });

  it('at most GIFTS_PER_DAY gifts in 24 hours', async () => {
    const a = await buyer();
    const b = await buyer();
    const now = at(1000);
    for (let i = 0; i < GIFTS_PER_DAY; i++) {
      const h = await holding(a.id);
      await db.insert(holdingTransfers).values({
        channelId: aurora,
        holdingId: h,
        senderId: a.id,
        receiverId: b.id,
        status: 'refused',
        idempotencyKey: key(),
        createdAt: new Date(now.getTime() - HOUR),
        expiresAt: now,
      });
    }
    const h = await holding(a.id);
    const r = await refusal(giveHolding(scope(a.id, now), { holdingId: h, accountNumber: b.number, idempotencyKey: key() }));
    expect(r).toMatchObject({ code: 429 });
    expect(r.en).toContain(`at most ${GIFTS_PER_DAY} collectibles a day`);
    expect(await pendingCount(h)).toBe(0);
  });

  it('where the channel asks real names: both verified, the receiver of its minimum age', async () => {
    const a = await buyer();
    const b = await buyer();
    const h = await holding(a.id);
    await db
      .update(channels)
      .set({ identityPolicy: { minAge: 18 }, timeZone: 'Asia/Shanghai' })
      .where(eq(channels.id, aurora));
    const verify = async (userId: number, birthDate: string) =>
      db.insert(buyerIdentities).values({
        userId,
        idHash: `gift-hash-${userId}`,
        nameSealed: 'sealed',
        idNumberSealed: 'sealed',
        keyId: 'test',
        birthDate,
        maskedName: '张*',
        maskedIdNumber: '1101**********1234',
        provider: 'demo',
        verifiedAt: at(-48),
      });
    try {
      const give = () => giveHolding(scope(a.id), { holdingId: h, accountNumber: b.number, idempotencyKey: key() });
      expect(await refusal(give())).toMatchObject({ code: 1010 });
      await verify(a.id, '1990-01-01');
      const unverified = await refusal(give());
      expect(unverified).toMatchObject({ code: 409, field: 'accountNumber' });
      expect(unverified.zh).toContain('对方尚未实名认证');
      await verify(b.id, '2012-05-05');
      const young = await refusal(give());
      expect(young.en).toContain('at least 18');
      expect(young.zh).toContain('年满 18 周岁');
      expect(await pendingCount(h)).toBe(0);
    } finally {
      await db.update(channels).set({ identityPolicy: {} }).where(eq(channels.id, aurora));
    }
  });
});
