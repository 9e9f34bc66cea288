import { eq } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PGlite } from '@electric-sql/pglite';
import type { Sql } from 'postgres';
import { createTestDb } from '@/test/db';
import { tagNoticesSent } from '@/lib/cache/store';
import { seed } from '@/lib/demo/seed';
import { makeSale, makeUsers, stockLeft } from '@/test/buying';
import * as schema from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { AppError } from '@/lib/procedure/errors';
import type { UserScope } from '@/lib/procedure/scope';
import { cancelOrder, createOrder } from './service';
import { ORDER_STATUS } from './status';
import { knownSoldOut, RECHECK_MS, soldOutVerdict, watchStockReturns } from './sold-out';

// A sale sold out is answered from memory (issue 16), and reopens whenever a copy comes back, in this process or
// another one, so no buyer is refused while a copy is left.

const t0 = new Date('2026-11-23T08:00:00Z');
const FIVE_MIN = 5 * 60_000;
let keySeq = 0;
const key = () => `sold-out-key-${++keySeq}`;

// A handle of its own (not seededTestDb's stand-in), so a test can count what it sends.
let db: Db;
let closeDb: () => Promise<void>;
beforeAll(async () => {
  ({ db, close: closeDb } = await createTestDb());
  await seed(db, t0);
});
afterAll(() => closeDb());

/** A second handle on the same database, with memory of its own: another server process, as far as this is concerned. */
function otherProcess(): Db {
  const client = (db as unknown as { $client: unknown }).$client;
  return typeof client === 'function'
    ? (drizzlePostgres(client as Sql, { schema }) as unknown as Db)
    : (drizzlePglite(client as PGlite, { schema }) as unknown as Db);
}

const ctxOf = (handle: Db, channelId: number, userId: number, now = t0): UserScope => ({ db: handle, now, channelId, userId });
const buy = (ctx: UserScope, saleId: number, idempotencyKey = key()) => createOrder(ctx, { saleId, quantity: 1, idempotencyKey }, FIVE_MIN);

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return String(error.data?.reason ?? error.code);
    throw error;
  }
}

/**
 * Counts the statements and transactions `handle`'s driver is asked for while `run` runs. The notice of an earlier
 * buy's invalidated tags (sent after its answer, for the other processes: lib/cache/store.ts) goes out first.
 */
async function statementsDuring(handle: Db, run: () => Promise<unknown>): Promise<number> {
  await tagNoticesSent(handle);
  const client = (handle as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  // postgres.js: a function with unsafe() and begin(); PGlite: an object with query(), exec() and transaction().
  const methods = typeof client === 'function' ? ['unsafe', 'begin'] : ['query', 'exec', 'transaction'];
  const originals = methods.map((m) => client[m]!);
  let n = 0;
  methods.forEach((m, i) => {
    client[m] = (...args: unknown[]) => {
      n++;
      return originals[i]!.apply(client, args);
    };
  });
  try {
    await run();
  } catch {
    // the answer is not what is counted
  } finally {
    methods.forEach((m, i) => (client[m] = originals[i]!));
  }
  return n;
}

/** Waits until `check` holds (a notice from the database arrives on its own connection), for up to 5 s. */
async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  expect(await watchStockReturns(db)).toBe(true);
});

/** A sale of `amount` copies, bought out by as many buyers; then one more buyer is refused and the sale noted. */
async function soldOutSale(code: string, amount: number, prefix: string, payTimeoutMs = FIVE_MIN) {
  const { saleId, channelId } = await makeSale(db, { code, amount, limitPerUser: 1, now: t0 });
  const buyers = await makeUsers(db, amount + 3, prefix);
  const holders = buyers.slice(0, amount).map((userId) => ({ userId, key: key(), orderNo: '' }));
  for (const h of holders) {
    h.orderNo = (await createOrder(ctxOf(db, channelId, h.userId), { saleId, quantity: 1, idempotencyKey: h.key }, payTimeoutMs)).orderNo;
  }
  const late = buyers.slice(amount);
  expect(await refusal(buy(ctxOf(db, channelId, late[0]!), saleId))).toBe('soldOut');
  expect(knownSoldOut(db, { channelId, saleId, quantity: 1 }, t0.getTime())).toBe(true);
  return { saleId, channelId, holders, late };
}

describe('a sale sold out is answered from memory', () => {
  it('costs a new buyer no statement at all; a retried tap of a holder still gets its own order', async () => {
    const { saleId, channelId, holders, late } = await soldOutSale('so-fast', 2, '3901');
    const ctx = ctxOf(db, channelId, late[1]!);
    expect(await statementsDuring(db, () => buy(ctx, saleId))).toBe(0);
    expect(await refusal(buy(ctx, saleId))).toBe('soldOut');
    const retry = () =>
      createOrder(ctxOf(db, channelId, holders[0]!.userId), { saleId, quantity: 1, idempotencyKey: holders[0]!.key }, FIVE_MIN);
    expect((await retry()).orderNo).toBe(holders[0]!.orderNo);
    // A holder's tap is read by its key: one statement, then the order as the first answer gave it.
    expect(await statementsDuring(db, retry)).toBeGreaterThan(0);
  });

  it('reads the key of a buyer whose order of the sale was cancelled: a retry of that tap gets the cancelled order', async () => {
    const { saleId, channelId, holders, late } = await soldOutSale('so-cancelled', 1, '3907');
    await cancelOrder(ctxOf(db, channelId, holders[0]!.userId), holders[0]!.orderNo);
    // The copy came back: the next buyer takes it and the sale is noted sold out again, with both buyers in it.
    expect((await buy(ctxOf(db, channelId, late[1]!), saleId)).orderNo).toMatch(/^\d{22}$/);
    expect(await refusal(buy(ctxOf(db, channelId, late[2]!), saleId))).toBe('soldOut');
    expect(knownSoldOut(db, { channelId, saleId, quantity: 1 }, t0.getTime())).toBe(true);
    const again = await createOrder(
      ctxOf(db, channelId, holders[0]!.userId),
      { saleId, quantity: 1, idempotencyKey: holders[0]!.key },
      FIVE_MIN,
    );
    expect(again.orderNo).toBe(holders[0]!.orderNo);
    expect(again.statusTrade).toBe(ORDER_STATUS.cancelled);
  });

  it('answers other asks as before: another store gets 404, a quantity over the limit 400', async () => {
    const { saleId, late } = await soldOutSale('so-asks', 1, '3902');
    const [other] = await db.select({ id: schema.channels.id }).from(schema.channels).where(eq(schema.channels.key, 'LUMEN'));
    await expect(buy(ctxOf(db, other!.id, late[1]!), saleId)).rejects.toMatchObject({ code: 404 });
    const { channelId } = (
      await db.select({ channelId: schema.sales.channelId }).from(schema.sales).where(eq(schema.sales.id, saleId))
    )[0]!;
    await expect(
      createOrder(ctxOf(db, channelId, late[1]!), { saleId, quantity: 2, idempotencyKey: key() }, FIVE_MIN),
    ).rejects.toMatchObject({
      code: 400,
    });
  });
});

describe('no buyer is refused while a copy is left', () => {
  it('reopens when a buyer cancels: the next buyer gets the copy', async () => {
    const { saleId, channelId, holders, late } = await soldOutSale('so-cancel', 2, '3903');
    await cancelOrder(ctxOf(db, channelId, holders[0]!.userId), holders[0]!.orderNo);
    expect(knownSoldOut(db, { channelId, saleId, quantity: 1 }, t0.getTime())).toBe(false);
    expect((await buy(ctxOf(db, channelId, late[1]!), saleId)).orderNo).toMatch(/^\d{22}$/);
    expect(await stockLeft(db, saleId)).toBe(0);
  });

  it('reopens when an unpaid order expires, even within a second of the sell-out', async () => {
    // Orders that expire 500 ms after they are made: the sell-out is noted until the first of them expires.
    const { saleId, channelId, late } = await soldOutSale('so-expiry', 2, '3904', 500);
    const after = new Date(t0.getTime() + 600);
    expect(knownSoldOut(db, { channelId, saleId, quantity: 1 }, after.getTime())).toBe(false);
    expect((await buy(ctxOf(db, channelId, late[1]!, after), saleId)).orderNo).toMatch(/^\d{22}$/);
  });

  it('asks the database again at most RECHECK_MS after the sell-out was noted', async () => {
    const { saleId, channelId } = await soldOutSale('so-recheck', 1, '3905');
    expect(knownSoldOut(db, { channelId, saleId, quantity: 1 }, t0.getTime() + RECHECK_MS - 1)).toBe(true);
    expect(knownSoldOut(db, { channelId, saleId, quantity: 1 }, t0.getTime() + RECHECK_MS)).toBe(false);
  });

  it('when the recheck is due, one buy asks the database and the buyers meanwhile are answered from memory', async () => {
    const { saleId, channelId, late } = await soldOutSale('so-herd', 1, '3908');
    const ask = (userId: number, at: number) => soldOutVerdict(db, { channelId, saleId, quantity: 1, userId }, at);
    const due = t0.getTime() + RECHECK_MS;
    expect(ask(late[1]!, due)).toBe('ask');
    expect(ask(late[2]!, due + 1)).toBe('soldOut');
    // A recheck that never reports back is taken again after RECHECK_MS.
    expect(ask(late[2]!, due + RECHECK_MS - 1)).toBe('soldOut');
    expect(ask(late[2]!, due + RECHECK_MS)).toBe('ask');
    // With real buys: the one that takes the recheck asks the database; the next one, a moment later, does not.
    const later = due + 3 * RECHECK_MS;
    const buyAt = (userId: number, at: number) => buy(ctxOf(db, channelId, userId, new Date(at)), saleId);
    expect(await statementsDuring(db, () => buyAt(late[1]!, later))).toBeGreaterThan(0);
    expect(await statementsDuring(db, () => buyAt(late[2]!, later + 1))).toBe(0);
    expect(await refusal(buyAt(late[2]!, later + 2))).toBe('soldOut');
  });

  it('two processes agree: a copy given back in one reopens the sale in the other', async () => {
    const other = otherProcess();
    expect(await watchStockReturns(other)).toBe(true);
    const { saleId, channelId, holders, late } = await soldOutSale('so-two', 1, '3906');
    // The other process learns of the sell-out by refusing a buyer itself.
    expect(await refusal(buy(ctxOf(other, channelId, late[1]!), saleId))).toBe('soldOut');
    expect(knownSoldOut(other, { channelId, saleId, quantity: 1 }, t0.getTime())).toBe(true);

    // The holder cancels, answered by this process (as a failed payment or the worker's expiry sweep would be).
    await cancelOrder(ctxOf(db, channelId, holders[0]!.userId), holders[0]!.orderNo);
    // The other process hears it from the database, and its next buyer gets the copy.
    await eventually(() => !knownSoldOut(other, { channelId, saleId, quantity: 1 }, t0.getTime()));
    expect((await buy(ctxOf(other, channelId, late[2]!), saleId)).orderNo).toMatch(/^\d{22}$/);
  });
});

describe('a buy with copies left is one statement', () => {
  it("costs a buyer the claim alone once the sale's terms are read; a retried tap costs the claim and the order's read", async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'one-statement', amount: 5, limitPerUser: 1, now: t0 });
    const [first, second] = await makeUsers(db, 2, '3921');
    // As an API call's scope: with the channel row the dispatcher already read, so the channel's real-name and age rules
    // (issue 33), which ask nothing here, cost no statement.
    const [channel] = await db.select().from(schema.channels).where(eq(schema.channels.id, channelId));
    const ctxOf = (handle: Db, chId: number, userId: number): UserScope => ({ db: handle, now: t0, channelId: chId, userId, channel });
    // The first buy of the sale in this process reads its terms (cached for every buyer after it), then claims.
    expect(await statementsDuring(db, () => buy(ctxOf(db, channelId, first!), saleId))).toBe(2);
    const tap = key();
    let made = '';
    expect(
      await statementsDuring(db, async () => {
        made = (await buy(ctxOf(db, channelId, second!), saleId, tap)).orderNo;
      }),
    ).toBe(1);
    expect(made).toMatch(/^\d{22}$/);
    // The same tap again: the claim finds the key's order (nothing more is reserved) and the order is read for the answer.
    let again = '';
    const retryStatements = await statementsDuring(db, async () => {
      again = (await buy(ctxOf(db, channelId, second!), saleId, tap)).orderNo;
    });
    expect(again).toBe(made);
    expect(retryStatements).toBeGreaterThan(1);
    expect(await stockLeft(db, saleId)).toBe(3);
  });

  it('answers a retried tap with its order after the sale ended, and a new tap that the sale has ended', async () => {
    const { saleId, channelId } = await makeSale(db, { code: 'ended-retry', amount: 5, limitPerUser: 1, now: t0 });
    const endsAt = new Date(t0.getTime() + 60_000);
    await db.update(schema.sales).set({ saleEndTime: endsAt }).where(eq(schema.sales.id, saleId));
    const [buyer, late] = await makeUsers(db, 2, '3922');
    const tap = key();
    const made = await buy(ctxOf(db, channelId, buyer!), saleId, tap);
    const after = new Date(endsAt.getTime() + 1);
    expect((await buy(ctxOf(db, channelId, buyer!, after), saleId, tap)).orderNo).toBe(made.orderNo);
    expect(await refusal(buy(ctxOf(db, channelId, late!, after), saleId))).toBe('ended');
    expect(await refusal(buy(ctxOf(db, channelId, buyer!, after), saleId))).toBe('ended');
  });
});
