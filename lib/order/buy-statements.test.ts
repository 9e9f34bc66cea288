import { countingTestDb, type CountingDb } from '@/test/statements';
import { makeSale, makeUsers } from '@/test/buying';
import {
  lotteryRanks,
  lotteryRegistrations,
  saleAllocations,
  salePriority,
  salePriorityBuyers,
  sales,
  type ChannelRow,
} from '@/lib/db/schema';
import { signAdmission } from '@/lib/sale/queue';
import { registerForLottery } from '@/lib/sale/lottery';
import { eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { createOrder, readBuyTerms } from './service';
import { readPayState } from './pay-state';

// issue 35: a lottery sale admits only its winners, and that check must cost a first-come sale nothing. Its buy makes
// the statements it made before lotteries (the sale's terms come from the process's cache, the allocation with them);
// a lottery sale's makes one more, the buyer's rank, and so does its pay state (counted as ./pay-state-statements.test.ts).

const now = new Date('2026-11-22T08:00:00Z');
let db: Db;
let channel: ChannelRow;
let statementsOf: CountingDb['statementsOf'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, channel, statementsOf, close } = await countingTestDb(now));
});
afterAll(() => close());

// The buyer's scope as order/create makes it: the channel's row comes with the host (lib/procedure/procedure.ts).
const scope = (userId: number) => ({ db, now, channelId: channel.id, userId, channel });
const buy = (userId: number, saleId: number, key: string) =>
  createOrder(scope(userId), { saleId, quantity: 1, idempotencyKey: key }, 300_000);

/** A lottery on `saleId`, drawn an hour ago with a two-hour purchase window; `ranks` are its registrants' ranks. */
async function drawnLottery(saleId: number, copies: number, ranks: [userId: number, rank: number][]) {
  const drawnAt = new Date(now.getTime() - 3_600_000);
  await db.insert(saleAllocations).values({
    saleId,
    channelId: channel.id,
    mode: 'lottery',
    copies,
    registrationOpensAt: new Date(now.getTime() - 3 * 3_600_000),
    registrationClosesAt: new Date(now.getTime() - 2 * 3_600_000),
    drawAt: drawnAt,
    purchaseWindowMinutes: 120,
    publicValueSource: 'a test',
    seed: '00'.repeat(32),
    commitment: 'c'.repeat(64),
    publicValue: '1',
    listHash: 'a'.repeat(64),
    published: '{}',
    drawnAt,
    ranked: ranks.length,
    // Round 1, the winners' (ranks 1 to N), open for the two hours from the draw.
    rounds: [
      {
        round: 1,
        from: 1,
        through: Math.min(copies, ranks.length),
        opensAt: drawnAt.toISOString(),
        endsAt: new Date(now.getTime() + 3_600_000).toISOString(),
      },
    ],
    createdAt: drawnAt,
    updatedAt: drawnAt,
  });
  await db.insert(lotteryRegistrations).values(
    ranks.map(([userId]) => ({
      saleId,
      channelId: channel.id,
      userId,
      accountNumber: String(1_000_000_000 + userId),
      createdAt: drawnAt,
    })),
  );
  await db.insert(lotteryRanks).values(ranks.map(([userId, rank]) => ({ saleId, rank, accountNumber: String(1_000_000_000 + userId) })));
}

it("a first-come sale's buy makes the statements it made before lotteries; a lottery sale's, one more: the buyer's rank", async () => {
  const firstCome = await makeSale(db, { code: 'buy-statements-fc', amount: 10, limitPerUser: 1, now });
  const lottery = await makeSale(db, { code: 'buy-statements-lottery', amount: 10, limitPerUser: 1, now });
  const [a, b, c, d] = (await makeUsers(db, 4, '3512')) as [number, number, number, number];
  await drawnLottery(lottery.saleId, 10, [
    [c, 1],
    [d, 2],
  ]);
  // The sales' terms come from the process's cache from here on, as in a drop.
  await readBuyTerms(db, channel.id, firstCome.saleId);
  await readBuyTerms(db, channel.id, lottery.saleId);

  const plain = await statementsOf(() => buy(a, firstCome.saleId, 'buy-statements-a'));
  // The buyer's risk (one statement) and the claim (`claim_copies`, one statement): nothing of lotteries.
  expect(plain).toHaveLength(2);
  expect(plain[1]).toMatch(/claim_copies/);
  expect(plain.join('\n')).not.toMatch(/lottery|sale_allocations/);
  // The same for a second buyer: nothing was left to read once.
  expect(await statementsOf(() => buy(b, firstCome.saleId, 'buy-statements-b'))).toEqual(plain);

  const winner = await statementsOf(() => buy(c, lottery.saleId, 'buy-statements-c'));
  expect(winner).toHaveLength(plain.length + 1);
  expect(winner[0]).toMatch(/from "lottery_registrations"/);
  expect(winner.slice(1)).toEqual(plain);
});

it("a waiting room sale's buy with its admission makes the statements a first-come sale's makes: the token is checked in memory", async () => {
  // issue 35, "First come, through a waiting room": the admission is signed, so checking it reads nothing.
  const firstCome = await makeSale(db, { code: 'buy-statements-fc2', amount: 10, limitPerUser: 1, now });
  const queued = await makeSale(db, { code: 'buy-statements-queue', amount: 10, limitPerUser: 1, now });
  const [a, b] = (await makeUsers(db, 2, '3514')) as [number, number];
  await db.insert(saleAllocations).values({
    saleId: queued.saleId,
    channelId: channel.id,
    mode: 'queue',
    queueJoinMinutes: 10,
    queueGraceSeconds: 3,
    queueHoldSeconds: 180,
    queueAdmissionSeconds: 60,
    queueAdmitPerSecond: 50,
    queueShuffledAt: now,
    createdAt: now,
    updatedAt: now,
  });
  await readBuyTerms(db, channel.id, firstCome.saleId);
  await readBuyTerms(db, channel.id, queued.saleId);

  const plain = await statementsOf(() => buy(a, firstCome.saleId, 'buy-statements-fc2-a'));
  const admission = signAdmission(queued.saleId, b, new Date(now.getTime() + 60_000));
  const admitted = await statementsOf(() =>
    createOrder(scope(b), { saleId: queued.saleId, quantity: 1, idempotencyKey: 'buy-statements-queue-b', admission }, 300_000),
  );
  expect(admitted).toHaveLength(plain.length);
  expect(admitted.join('\n')).not.toMatch(/queue_entries|sale_allocations/);
});

it("a priority sale's buy reads the buyer's eligibility in its early window only: one statement more there, none after the opening", async () => {
  // issue 35, priority purchase: the terms carry the priority; only an early buy asks whether this buyer is eligible.
  const plainSale = await makeSale(db, { code: 'buy-statements-fc3', amount: 10, limitPerUser: 1, now });
  const early = await makeSale(db, { code: 'buy-statements-early', amount: 10, limitPerUser: 1, now });
  const opened = await makeSale(db, { code: 'buy-statements-opened', amount: 10, limitPerUser: 1, now });
  await db
    .update(sales)
    .set({ saleStartTime: new Date(now.getTime() + 30 * 60_000) })
    .where(eq(sales.id, early.saleId));
  const [a, b, c] = (await makeUsers(db, 3, '3515')) as [number, number, number];
  for (const { saleId } of [early, opened]) {
    const decidedAt = new Date(now.getTime() - 3_600_000);
    await db.insert(salePriority).values({
      saleId,
      channelId: channel.id,
      minutesEarly: 60,
      minPaidOrders: 1,
      decideAt: decidedAt,
      decidedAt,
      eligibleCount: 1,
      createdAt: decidedAt,
      updatedAt: decidedAt,
    });
    await db.insert(salePriorityBuyers).values({ saleId, userId: b, reasons: ['orders'] });
  }
  for (const { saleId } of [plainSale, early, opened]) await readBuyTerms(db, channel.id, saleId);

  const plain = await statementsOf(() => buy(a, plainSale.saleId, 'buy-statements-fc3-a'));
  const eligible = await statementsOf(() => buy(b, early.saleId, 'buy-statements-early-b'));
  expect(eligible).toHaveLength(plain.length + 1);
  expect(eligible[0]).toMatch(/from "sale_priority_buyers"/);
  expect(eligible.at(-1)).toMatch(/claim_copies/);
  expect(await statementsOf(() => buy(c, opened.saleId, 'buy-statements-opened-c'))).toHaveLength(plain.length);
});

it("a lottery sale's pay state reads the buyer's rank in one statement more; a first-come sale's stays one", async () => {
  const firstCome = await makeSale(db, { code: 'pay-statements-fc', amount: 10, limitPerUser: 1, now });
  const lottery = await makeSale(db, { code: 'pay-statements-lottery', amount: 2, limitPerUser: 1, now });
  const [a, b] = (await makeUsers(db, 2, '3513')) as [number, number];
  await drawnLottery(lottery.saleId, 1, [
    [a, 1],
    [b, 2],
  ]);
  const ask = (userId: number, saleId: number) => readPayState(scope(userId), saleId, { locale: 'zh-CN', cookieHeader: null });
  await ask(a, firstCome.saleId);
  await ask(a, lottery.saleId);

  let state!: Awaited<ReturnType<typeof readPayState>>;
  expect(await statementsOf(async () => (state = await ask(a, firstCome.saleId)))).toHaveLength(1);
  expect(state.lottery).toBeNull();
  expect(await statementsOf(async () => (state = await ask(a, lottery.saleId)))).toHaveLength(2);
  expect(state.lottery).toMatchObject({ status: 'winner', mayBuy: true, refusal: null, message: null });
  expect(await statementsOf(async () => (state = await ask(b, lottery.saleId)))).toHaveLength(2);
  expect(state.lottery).toMatchObject({
    status: 'waitlist',
    mayBuy: false,
    waitlistPosition: 1,
    refusal: 'waitlist',
    message: '您未中签，现为候补名单第 1 位',
  });
});

it('writes a rush of registrations in a few statements, each buyer registered once with their own account number', async () => {
  const { saleId } = await makeSale(db, { code: 'register-rush', amount: 10, limitPerUser: 1, now });
  await db.insert(saleAllocations).values({
    saleId,
    channelId: channel.id,
    mode: 'lottery',
    copies: 10,
    registrationOpensAt: new Date(now.getTime() - 3_600_000),
    registrationClosesAt: new Date(now.getTime() + 3_600_000),
    drawAt: new Date(now.getTime() + 3_600_000),
    purchaseWindowMinutes: 60,
    publicValueSource: 'a test',
    seed: '00'.repeat(32),
    commitment: 'c'.repeat(64),
    createdAt: now,
    updatedAt: now,
  });
  const users = await makeUsers(db, 120, '3591');
  const register = (userId: number) => registerForLottery(scope(userId), saleId);
  await register(users[0]!); // the lottery's settings come from the process's cache from here on
  let answers: Awaited<ReturnType<typeof register>>[] = [];
  // 119 buyers at once, one of them tapping twice.
  const made = await statementsOf(async () => (answers = await Promise.all([...users.slice(1), users[1]!].map(register))));
  const writes = made.filter((query) => /insert into "lottery_registrations"/.test(query));
  expect(writes.length).toBeGreaterThanOrEqual(1);
  expect(writes.length).toBeLessThanOrEqual(3);
  expect(answers.every((a) => a.status === 'registered')).toBe(true);
  expect(answers.at(-1)!.accountNumber).toBe(answers[0]!.accountNumber);
  expect(new Set(answers.slice(0, -1).map((a) => a.accountNumber)).size).toBe(119);
  const rows = await db.select().from(lotteryRegistrations).where(eq(lotteryRegistrations.saleId, saleId));
  expect(rows).toHaveLength(120);
});
