import { eq } from 'drizzle-orm';
import { countingTestDb, type CountingDb } from '@/test/statements';
import { holdNextRead } from '@/test/hold-read';
import { makeSale, makeUsers } from '@/test/buying';
import { queueEntries, saleAllocations, sales, type ChannelRow } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { joinQueue, queuePosition, snapshotOf, type QueuePosition } from './queue';

// issue 35, "the reads are answered from memory": 10,000 buyers polling once a second must not each make a database
// read. A process answers a sale's positions from its snapshot of the queue, read in one statement at most every 250 ms;
// 300 buyers polling in the same quarter second cost no statement each.

const now = new Date('2026-11-22T08:00:00Z');
const opening = new Date(now.getTime() + 3_600_000);
const at = (ms: number) => new Date(opening.getTime() + ms);
let db: Db;
let channel: ChannelRow;
let statementsOf: CountingDb['statementsOf'];
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, channel, statementsOf, close } = await countingTestDb(now));
}, 120_000);
afterAll(() => close());

/** A sale of 100 copies opening at `opening`, through a waiting room on the store's defaults (joining 10 minutes ahead). */
async function queueSale(code: string): Promise<number> {
  const { saleId } = await makeSale(db, { code, amount: 100, limitPerUser: 1, now });
  await db.update(sales).set({ saleStartTime: opening }).where(eq(sales.id, saleId));
  await db.insert(saleAllocations).values({
    saleId,
    channelId: channel.id,
    mode: 'queue',
    queueJoinMinutes: 10,
    queueGraceSeconds: 3,
    queueHoldSeconds: 180,
    queueAdmissionSeconds: 60,
    queueAdmitPerSecond: 50,
    createdAt: now,
    updatedAt: now,
  });
  return saleId;
}

it('answers 300 buyers polling within a quarter second from memory, and refreshes once after it in one read', async () => {
  const saleId = await queueSale('queue-statements');
  const users = await makeUsers(db, 300, '3541');
  const scope = (userId: number, when: Date) => ({ db, now: when, channelId: channel.id, userId, channel });
  for (const user of users) await joinQueue(scope(user, at(-60_000)), saleId);
  // The shuffle and the first admissions, then a fresh snapshot.
  await queuePosition(scope(users[0]!, at(3_100)), saleId);

  const polls = async (when: Date) => {
    const answers: QueuePosition[] = [];
    for (const user of users) answers.push(await queuePosition(scope(user, when), saleId));
    return answers;
  };
  // Within the snapshot's 250 ms: not one statement for 300 polls.
  let answers: QueuePosition[] = [];
  expect(await statementsOf(async () => (answers = await polls(at(3_200))))).toEqual([]);
  expect(answers.filter((a) => a.status === 'admitted')).toHaveLength(50);
  expect(
    answers
      .filter((a) => a.status === 'queued')
      .map((a) => a.position!)
      .sort((x, y) => x - y),
  ).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
  // The next quarter second: one refresh for all of them, whose read of the queue is one statement.
  const refresh = await statementsOf(() => polls(at(3_400)));
  expect(refresh.filter((s) => /from "sales" s/.test(s))).toHaveLength(1);
  // The rest is the upkeep (the seen buyers' write, the lock, the expiries, the admissions): a handful, not per buyer.
  expect(refresh.length).toBeLessThanOrEqual(8);
});

it('writes a rush of 200 joins in a few statements and reads the queue once for them, each answered waiting', async () => {
  const saleId = await queueSale('queue-join-rush');
  const users = await makeUsers(db, 200, '3542');
  const scope = (userId: number) => ({ db, now: at(-5_000), channelId: channel.id, userId, channel });
  // The first join reads the queue; the others, at the same moment, all at once.
  await joinQueue(scope(users[0]!), saleId);
  let answers: QueuePosition[] = [];
  const statements = await statementsOf(async () => {
    answers = await Promise.all(users.slice(1).map((user) => joinQueue(scope(user), saleId)));
  });
  expect(answers.map((a) => a.status)).toEqual(users.slice(1).map(() => 'waiting'));
  const inserts = statements.filter((s) => /^insert into "queue_entries"/.test(s));
  expect(inserts.length).toBeGreaterThanOrEqual(1);
  expect(inserts.length).toBeLessThanOrEqual(3);
  expect(statements.filter((s) => /from "sales" s/.test(s))).toHaveLength(0);
  // A double tap is one entry; the waiting count says everyone.
  expect((await joinQueue(scope(users[7]!), saleId)).status).toBe('waiting');
  expect((await queuePosition(scope(users[0]!), saleId)).waiting).toBe(200);
});

it('keeps a join written while a refresh was reading the queue: its buyer is answered from memory, not lost', async () => {
  const saleId = await queueSale('queue-join-refresh');
  const [first, second] = (await makeUsers(db, 2, '3543')) as [number, number];
  const scope = (userId: number, ms: number) => ({ db, now: at(ms), channelId: channel.id, userId, channel });
  await joinQueue(scope(first, -9_000), saleId);
  // A refresh whose read of the queue has run but not yet returned (PostgreSQL: another connection's read, begun before
  // the join's row was written), while the second buyer joins and is answered.
  const { readRan, release } = holdNextRead(db);
  const refreshing = snapshotOf(db, saleId, at(-8_900), true);
  await readRan;
  expect((await joinQueue(scope(second, -8_800), saleId)).status).toBe('waiting');
  release();
  await refreshing;
  // The refresh's read did not have the join; the buyer is still in the queue as this process answers, with no read.
  let answer: QueuePosition | undefined;
  expect(await statementsOf(async () => (answer = await queuePosition(scope(second, -8_800), saleId)))).toEqual([]);
  expect(answer).toMatchObject({ status: 'waiting', waiting: 2 });
});

it('answers a read from the snapshot it has while another caller’s refresh is in flight, rather than waiting for it', async () => {
  const saleId = await queueSale('queue-read-during-refresh');
  const [buyer] = (await makeUsers(db, 1, '3544')) as [number];
  const scope = (ms: number) => ({ db, now: at(ms), channelId: channel.id, userId: buyer, channel });
  await joinQueue(scope(-9_000), saleId);
  const { readRan, release } = holdNextRead(db);
  // A watch's tick refreshes (held here, as a slow refresh under a crowd); a poll comes 2.5 s after the last read,
  // past the snapshot's 2 s life before the shuffle but within STALE_READ_MS of it.
  const refreshing = snapshotOf(db, saleId, at(-8_500), true);
  await readRan;
  const poll = queuePosition(scope(-6_500), saleId);
  const first = await Promise.race([poll, new Promise<'waited'>((r) => setTimeout(() => r('waited'), 1_000))]);
  release();
  await refreshing;
  expect(first).not.toBe('waited');
  expect(first).toMatchObject({ status: 'waiting' });
  await poll;
});

it('before the shuffle reads the queue once in 2 s, not four times a second, and every 250 ms from a tick before it', async () => {
  const saleId = await queueSale('queue-quiet-reads');
  const [buyer] = (await makeUsers(db, 1, '3545')) as [number];
  const scope = (ms: number) => ({ db, now: at(ms), channelId: channel.id, userId: buyer, channel });
  await joinQueue(scope(-9_000), saleId);
  const reads = async (ms: number) => (await statementsOf(() => queuePosition(scope(ms), saleId))).filter((s) => /from "sales" s/.test(s));
  expect(await reads(-6_000)).toHaveLength(1);
  // 1.5 s later, still before the shuffle: answered from that read.
  expect(await reads(-4_500)).toHaveLength(0);
  expect(await reads(-3_900)).toHaveLength(1);
  // The grace is 3 s: from 250 ms before the shuffle the snapshot serves 250 ms again, so the shuffle is read at once.
  expect(await reads(2_000)).toHaveLength(1);
  expect(await reads(2_800)).toHaveLength(1);
  expect(await reads(3_100)).toHaveLength(1);
  expect(await queuePosition(scope(3_200), saleId)).toMatchObject({ status: 'admitted' });
});

it('writes a seen buyer’s row only once a third of the hold has passed since it was last written', async () => {
  const saleId = await queueSale('queue-seen-writes');
  const [buyer] = (await makeUsers(db, 1, '3546')) as [number];
  const scope = (ms: number) => ({ db, now: at(ms), channelId: channel.id, userId: buyer, channel });
  const lastSeen = async () =>
    (await db.select({ at: queueEntries.lastSeenAt }).from(queueEntries).where(eq(queueEntries.saleId, saleId)))[0]!.at.getTime();
  await joinQueue(scope(-300_000), saleId);
  // Polled every few seconds for 50 s (the hold is 180 s: a third is 60 s): the row is not rewritten.
  for (let ms = -299_000; ms <= -250_000; ms += 3_000) await queuePosition(scope(ms), saleId);
  expect(await lastSeen()).toBe(at(-300_000).getTime());
  // Past 60 s since the join, the next refresh writes the buyer seen (at its own time); 3 s later it is fresh again.
  await queuePosition(scope(-239_000), saleId);
  expect(await lastSeen()).toBe(at(-239_000).getTime());
  await queuePosition(scope(-236_000), saleId);
  await queuePosition(scope(-233_000), saleId);
  expect(await lastSeen()).toBe(at(-239_000).getTime());
});
