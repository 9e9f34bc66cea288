import { eq } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PGlite } from '@electric-sql/pglite';
import type { Sql } from 'postgres';
import * as schema from '@/lib/db/schema';
import type { TestApi, TestBuyer } from '@/test/api';
import { makeSale, makeUsers } from '@/test/buying';
import type { LotteryStory } from '@/test/lottery-fixtures';
import { queueStory, type QueueStory } from '@/test/queue-fixtures';
import { channels, orders, queueEntries, saleAllocations, sales } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { joinQueue, queuePosition, signAdmission, type QueuePosition } from './queue';

// The waiting room (issue 35, "First come, through a waiting room"): the console puts a sale through one; logged-in
// buyers join from a set time before the opening, once each; everyone who joined before the opening plus the grace is
// shuffled together (not in join order), later arrivals behind; admissions are paced and never outnumber the copies
// left; an admission not used in its life passes to the next; a buyer not seen for the hold time loses their place;
// order/create takes only a valid admission (409 notAdmitted naming why, in both languages); sold out reaches every
// waiting buyer. Two database handles on one database (two server processes) see one queue.

// Shedding by event-loop lag has its own test (lib/server/load-shedding.test.ts); a loaded machine must not shed these buys.
process.env.BUY_MAX_LAG_MS = '60000';

let api: TestApi;
let story: LotteryStory;
let opening: QueueStory['opening'];
let atOpening: QueueStory['atOpening'];
let queueSale: QueueStory['queueSale'];
let scope: QueueStory['scope'];

const MINUTE = 60_000;
const ops = (path: string, body: unknown, now?: Date, locale?: string) => story.ops(path, body, now, locale);

beforeAll(async () => {
  ({ api, story, opening, atOpening, queueSale, scope } = await queueStory('queue.owner', '192.0.2.210'));
}, 120_000);
afterAll(() => api.close());

const join = (userId: number, saleId: number, now: Date, db: Db = api.db) => joinQueue(scope(db, userId, now), saleId);
const position = (userId: number, saleId: number, now: Date, db: Db = api.db) => queuePosition(scope(db, userId, now), saleId);
/** Every buyer's position at `now`, asked one after the other (each poll keeps the buyer's place). */
const positions = async (users: number[], saleId: number, now: Date, db: Db = api.db) => {
  const out: QueuePosition[] = [];
  for (const user of users) out.push(await position(user, saleId, now, db));
  return out;
};

/** The same database through a second handle: what a second server process sees. */
function secondHandle(db: Db): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  return typeof client === 'function'
    ? (drizzlePostgres(client as Sql, { schema }) as unknown as Db)
    : (drizzlePglite(client as PGlite, { schema }) as unknown as Db);
}

let keys = 0;
const buy = (buyer: TestBuyer, saleId: number, now: Date, admission: string | undefined, locale = 'en') =>
  api.callApi(
    '/market/api/order/create',
    { saleId: String(saleId), quantity: 1, idempotencyKey: `queue-buy-${++keys}`, ...(admission === undefined ? {} : { admission }) },
    { token: buyer.token, now, headers: { 'accept-language': locale } },
  );

describe('the console', () => {
  it('puts a sale through a waiting room with the defaults, and refuses joining that would already be open, naming the field', async () => {
    const { saleId } = await makeSale(api.db, { code: 'queue-console', amount: 5, limitPerUser: 1, now: api.now });
    await api.db.update(sales).set({ saleStartTime: opening() }).where(eq(sales.id, saleId));
    const set = await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'queue-console', joinMinutes: 10 });
    expect(set).toMatchObject({
      code: 200,
      data: {
        mode: 'queue',
        joinMinutes: 10,
        graceSeconds: 3,
        holdSeconds: 180,
        admissionSeconds: 60,
        admitPerSecond: 50,
        joinOpensAt: new Date(opening().getTime() - 10 * MINUTE).toISOString(),
        shuffleAt: atOpening(3000).toISOString(),
        frozen: false,
        joined: 0,
      },
    });
    expect(await ops('/ops/api/sale/queue', { channel: 'AURORA', sale: 'queue-console' })).toMatchObject({
      code: 200,
      data: { queue: { mode: 'queue', joinMinutes: 10 } },
    });
    // 90 minutes before an opening an hour away: joining would have opened half an hour ago.
    const past = await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'queue-console', joinMinutes: 90 });
    expect(past).toMatchObject({ code: 400, data: { field: 'joinMinutes' } });
    expect(past.message).toMatch(/^Joining must open in the future/);
    const zh = await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'queue-console', joinMinutes: 90 }, undefined, 'zh-CN');
    expect(zh.message).toMatch(/^开放排队时间须在将来/);
    const bad = await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'queue-console', joinMinutes: 'ten' });
    expect(bad).toMatchObject({ code: 400 });
    expect(bad.message).toMatch(/joinMinutes: must be a number of minutes/);
  });

  it('freezes the settings once joining opened: a change is refused naming it, the same settings answer the room as it is', async () => {
    await queueSale('queue-frozen', 5);
    const joining = new Date(opening().getTime() - 5 * MINUTE);
    const changed = await ops(
      '/ops/api/sale/queue/set',
      { channel: 'AURORA', sale: 'queue-frozen', joinMinutes: 10, graceSeconds: 5 },
      joining,
    );
    expect(changed).toMatchObject({ code: 409, data: { field: 'graceSeconds' } });
    expect(changed.message).toMatch(/^The waiting room’s grace cannot change any more: joining opened at /);
    const same = await ops('/ops/api/sale/queue/set', { channel: 'AURORA', sale: 'queue-frozen', joinMinutes: 10 }, joining);
    expect(same).toMatchObject({ code: 200, data: { frozen: true } });
  });
});

describe('joining', () => {
  it('is refused before joining opens and for a sale without a waiting room; 50 concurrent joins make one entry', async () => {
    const saleId = await queueSale('queue-join', 5);
    const buyer = await api.buyer('13935000001');
    const early = await api.callApi(
      '/market/api/queue/join',
      { saleId: String(saleId) },
      { token: buyer.token, now: new Date(opening().getTime() - 11 * MINUTE) },
    );
    expect(early).toMatchObject({ code: 409, data: { field: 'saleId' } });
    expect(early.message).toMatch(/^The waiting room of this sale opens at /);
    const { saleId: firstCome } = await makeSale(api.db, { code: 'queue-join-fc', amount: 5, limitPerUser: 1, now: api.now });
    expect(await api.callApi('/market/api/queue/join', { saleId: String(firstCome) }, { token: buyer.token })).toMatchObject({
      code: 404,
      message: 'This sale has no waiting room: there is no queue to join.',
    });

    const now = new Date(opening().getTime() - 2 * MINUTE);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.callApi('/market/api/queue/join', { saleId: String(saleId) }, { token: buyer.token, now })),
    );
    expect(answers.map((a) => a.code)).toEqual(Array(50).fill(200));
    expect(answers.every((a) => (a.data as QueuePosition).status === 'waiting')).toBe(true);
    expect(await api.db.select().from(queueEntries).where(eq(queueEntries.saleId, saleId))).toHaveLength(1);
    // Before the shuffle no one has a place yet: the page counts down to it.
    expect(answers[0]!.data).toMatchObject({ position: null, estimatedWaitSeconds: 123, shuffleAt: atOpening(3000).toISOString() });
  });
});

describe('a waiting room of 30 early buyers for 10 copies, 2 admissions a second, admissions of 10 s', () => {
  let saleId: number;
  let users: number[];

  beforeAll(async () => {
    saleId = await queueSale('queue-order', 10, { admitPerSecond: 2, admissionSeconds: 10 });
    users = await makeUsers(api.db, 30, '3536');
    // They join one after the other in the two minutes before the opening.
    for (const [i, user] of users.entries()) await join(user, saleId, new Date(opening().getTime() - 2 * MINUTE + i * 1000));
  });

  it('shuffles the early arrivals once, not in join order, the same order read through a second handle', async () => {
    const other = secondHandle(api.db);
    // Two "processes" see the opening plus the grace pass at the same moment: the shuffle is decided once.
    const now = atOpening(3100);
    const [a, b] = await Promise.all([positions(users, saleId, now), positions(users, saleId, now, other)]);
    const [row] = await api.db
      .select({ at: saleAllocations.queueShuffledAt })
      .from(saleAllocations)
      .where(eq(saleAllocations.saleId, saleId));
    expect(row!.at).toEqual(now);
    const ranks = await api.db
      .select({ userId: queueEntries.userId, rank: queueEntries.rank })
      .from(queueEntries)
      .where(eq(queueEntries.saleId, saleId));
    const byRank = [...ranks].sort((x, y) => x.rank! - y.rank!).map((r) => r.userId);
    expect(new Set(ranks.map((r) => r.rank))).toEqual(new Set(Array.from({ length: 30 }, (_, i) => i + 1)));
    // Not join order (the chance of 30 shuffled buyers coming out in join order is 1 in 30!).
    expect(byRank).not.toEqual(users);
    // Both handles answer the same: the first two in the shuffle admitted, the rest queued in its order.
    const summary = (list: QueuePosition[]) => list.map((p) => (p.status === 'admitted' ? 'admitted' : `${p.status}:${p.position}`));
    expect(summary(b)).toEqual(summary(a));
    const expected = users.map((user) => {
      const rank = byRank.indexOf(user) + 1;
      return rank <= 2 ? 'admitted' : `queued:${rank - 2}`;
    });
    expect(summary(a)).toEqual(expected);
    const third = a[users.indexOf(byRank[2]!)]!;
    expect(third).toMatchObject({ status: 'queued', position: 1, ahead: 0, estimatedWaitSeconds: 0, copiesLeft: 10, waiting: 28 });
    const last = a[users.indexOf(byRank[29]!)]!;
    expect(last).toMatchObject({ position: 28, ahead: 27, estimatedWaitSeconds: 14 });
    const admitted = a[users.indexOf(byRank[0]!)]!;
    expect(admitted.admission).toBe(signAdmission(saleId, byRank[0]!, atOpening(13_100)));
    expect(admitted.admissionExpiresAt).toEqual(atOpening(13_100));
  });

  it('admits at the pace set, in the shuffled order, and a late arrival queues behind everyone', async () => {
    const ranked = async () =>
      (
        await api.db
          .select({ userId: queueEntries.userId, rank: queueEntries.rank })
          .from(queueEntries)
          .where(eq(queueEntries.saleId, saleId))
      )
        .sort((x, y) => x.rank! - y.rank!)
        .map((r) => r.userId);
    const byRank = await ranked();
    // Half a second later: the second's two admissions are spent.
    await positions(users, saleId, atOpening(3600));
    const admittedSet = async () =>
      new Set(
        (
          await api.db
            .select({ userId: queueEntries.userId, outcome: queueEntries.outcome })
            .from(queueEntries)
            .where(eq(queueEntries.saleId, saleId))
        )
          .filter((r) => r.outcome === 'admitted')
          .map((r) => r.userId),
      );
    expect(await admittedSet()).toEqual(new Set(byRank.slice(0, 2)));
    // A buyer arriving after the grace joins behind the 30.
    const [late] = (await makeUsers(api.db, 1, '3537')) as [number];
    expect(await join(late, saleId, atOpening(3700))).toMatchObject({ status: 'queued', position: 29, ahead: 28 });
    // A second after the first admissions: two more, the next two in the shuffle.
    await positions([...users, late], saleId, atOpening(4200));
    expect(await admittedSet()).toEqual(new Set(byRank.slice(0, 4)));
    await positions([...users, late], saleId, atOpening(5300));
    expect(await admittedSet()).toEqual(new Set(byRank.slice(0, 6)));
  });

  it('an admission not used in its life expires and passes to the next in line', async () => {
    const byRank = (
      await api.db
        .select({ userId: queueEntries.userId, rank: queueEntries.rank })
        .from(queueEntries)
        .where(eq(queueEntries.saleId, saleId))
    )
      .filter((r) => r.rank !== null)
      .sort((x, y) => x.rank! - y.rank!)
      .map((r) => r.userId);
    // Everyone keeps polling; no admitted buyer buys. At 13.1 s the first two admissions (given at 3.1 s) end.
    for (let ms = 6300; ms <= 12_300; ms += 1000) await positions(users, saleId, atOpening(ms));
    // 10 copies, 10 unused admissions: no more until one is used or expires.
    const outcomes = async () =>
      new Map(
        (
          await api.db
            .select({ userId: queueEntries.userId, outcome: queueEntries.outcome })
            .from(queueEntries)
            .where(eq(queueEntries.saleId, saleId))
        ).map((r) => [r.userId, r.outcome]),
      );
    let now = await outcomes();
    expect(byRank.filter((u) => now.get(u) === 'admitted')).toEqual(byRank.slice(0, 10));
    const first = await position(byRank[0]!, saleId, atOpening(13_200));
    expect(first).toMatchObject({ status: 'expired', admission: null });
    await positions(users, saleId, atOpening(13_500));
    now = await outcomes();
    expect(now.get(byRank[0]!)).toBe('expired');
    expect(now.get(byRank[1]!)).toBe('expired');
    expect(byRank.filter((u) => now.get(u) === 'admitted')).toEqual(byRank.slice(2, 12));
  });
});

describe('the buy of a waiting room sale', () => {
  let saleId: number;
  let otherSaleId: number;
  let buyers: TestBuyer[];

  beforeAll(async () => {
    saleId = await queueSale('queue-buy', 2, { admitPerSecond: 1 });
    otherSaleId = await queueSale('queue-buy-other', 1);
    buyers = [];
    for (let i = 0; i < 4; i++) buyers.push(await api.buyer(`139350010${String(i).padStart(2, '0')}`));
    for (const buyer of buyers) await join(buyer.userId, saleId, new Date(opening().getTime() - MINUTE));
  });

  it('takes a valid admission and refuses a missing, expired, forged, another buyer’s or another sale’s one, in both languages', async () => {
    const now = atOpening(3500);
    const first = (
      await positions(
        buyers.map((b) => b.userId),
        saleId,
        now,
      )
    ).find((p) => p.status === 'admitted')!;
    const admitted = buyers.find((b) => first.admission!.split('.')[1] === String(b.userId))!;
    const waiting = buyers.find((b) => b !== admitted)!;
    const token = first.admission!;

    const cases: [string, string | undefined, TestBuyer, Date, RegExp, RegExp][] = [
      ['missing', undefined, waiting, now, /^This sale goes through a waiting room: join it on the sale’s page/, /^本商品需排队购买/],
      ['otherBuyer', token, waiting, now, /^This admission was given to another buyer/, /^该购买资格属于其他用户/],
      ['forged', `${token.slice(0, -2)}AA`, admitted, now, /^This admission was not given by this store/, /^该购买资格并非本店发放/],
      ['forged', 'anything', admitted, now, /^This admission was not given by this store/, /^该购买资格并非本店发放/],
      [
        'otherSale',
        signAdmission(otherSaleId, admitted.userId, atOpening(60_000)),
        admitted,
        now,
        /^This admission is for another sale/,
        /^该购买资格属于其他商品/,
      ],
      [
        'expired',
        token,
        admitted,
        atOpening(63_600),
        /^Your turn to buy ended at .+: join the waiting room again\.$/,
        /^您的购买资格已于 .+ 失效，请重新排队$/,
      ],
    ];
    for (const [why, admission, buyer, at, en, zh] of cases) {
      const refusedEn = await buy(buyer, saleId, at, admission);
      expect({ why, code: refusedEn.code, data: refusedEn.data }).toEqual({
        why,
        code: 409,
        data: { reason: 'notAdmitted', queue: why, field: 'admission' },
      });
      expect(refusedEn.message).toMatch(en);
      expect((await buy(buyer, saleId, at, admission, 'zh-CN')).message).toMatch(zh);
    }
    expect(await api.db.select().from(orders).where(eq(orders.saleId, saleId))).toHaveLength(0);

    const made = await buy(admitted, saleId, now, token);
    expect(made).toMatchObject({ code: 200, data: { saleId: String(saleId), quantity: 1 } });
    // The queue sees the buy: the buyer has bought; the copy is gone.
    expect(await position(admitted.userId, saleId, atOpening(3800))).toMatchObject({ status: 'bought', copiesLeft: 1 });
  });

  it('tells every waiting buyer the sale sold out once the last copy goes', async () => {
    const users = buyers.map((b) => b.userId);
    // A second later the next buyer is admitted and takes the last copy.
    const next = (await positions(users, saleId, atOpening(4600))).find((p) => p.status === 'admitted')!;
    const buyer = buyers.find((b) => next.admission!.split('.')[1] === String(b.userId))!;
    expect(await buy(buyer, saleId, atOpening(4700), next.admission!)).toMatchObject({ code: 200 });
    const after = await positions(users, saleId, atOpening(5000));
    const statuses = after.map((p) => p.status).sort();
    expect(statuses).toEqual(['bought', 'bought', 'soldOut', 'soldOut']);
    expect(after.filter((p) => p.status === 'soldOut').every((p) => p.copiesLeft === 0 && p.admission === null)).toBe(true);
    // Joining a sold-out sale is refused.
    const [late] = (await makeUsers(api.db, 1, '3538')) as [number];
    await expect(join(late, saleId, atOpening(5100))).rejects.toMatchObject({ code: 409 });
  });
});

describe('a buyer who stops polling', () => {
  it('keeps their place for the hold time, then loses it; joining again puts them at the back', async () => {
    const saleId = await queueSale('queue-hold', 1, { holdSeconds: 30, admitPerSecond: 1, admissionSeconds: 600 });
    const users = (await makeUsers(api.db, 3, '3539')) as [number, number, number];
    for (const user of users) await join(user, saleId, new Date(opening().getTime() - 20_000));
    const all = await positions(users, saleId, atOpening(3100));
    const order = users
      .map((u, i) => ({ u, p: all[i]! }))
      .sort((x, y) => (x.p.position ?? 0) - (y.p.position ?? 0))
      .map((x) => x.u);
    // order[0] is admitted (1 copy, 1 a second, for 10 minutes); order[1] is first in line and stops polling, order[2] keeps polling.
    for (let ms = 4100; ms <= 30_100; ms += 2000) await positions([order[0], order[2]] as number[], saleId, atOpening(ms));
    expect(await position(order[1]!, saleId, atOpening(30_200))).toMatchObject({ status: 'queued', position: 1 });
    for (let ms = 32_100; ms <= 70_100; ms += 2000) await positions([order[0], order[2]] as number[], saleId, atOpening(ms));
    expect(await position(order[1]!, saleId, atOpening(70_300))).toMatchObject({ status: 'left' });
    expect(await position(order[2]!, saleId, atOpening(70_300))).toMatchObject({ status: 'queued', position: 1 });
    expect(await join(order[1]!, saleId, atOpening(70_400))).toMatchObject({ status: 'queued', position: 2, ahead: 1 });
  });
});

it('answers another channel’s sale 404', async () => {
  const saleId = await queueSale('queue-channel', 1);
  const [lumen] = await api.db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
  const [user] = (await makeUsers(api.db, 1, '3540')) as [number];
  await expect(queuePosition({ db: api.db, now: atOpening(0), channelId: lumen!.id, userId: user }, saleId)).rejects.toMatchObject({
    code: 404,
  });
});
