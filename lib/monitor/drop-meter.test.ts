import { createTestDb } from '@/test/db';
import type { Db } from '@/lib/db/client';
import { dropMeterSeconds } from '@/lib/db/schema';
import {
  DropMeter,
  LIVE_LAG_SECONDS,
  LIVE_SECONDS,
  MAX_PENDING_ROWS,
  METER_KEEP_SECONDS,
  readLiveMeter,
  startMeterFlush,
} from './drop-meter';

// The live drop view's counters across server processes (issue 32, "Reports: live view"): each process counts in
// memory and adds its ended seconds to one shared table, so the view shows the whole deployment whichever process
// answers the poll. Two DropMeter instances stand for two server processes on one database.

let db: Db;
/** A database that is away: every statement fails as it is made. */
const away = {
  execute: () => Promise.reject(new Error('connection refused')),
  delete: () => {
    throw new Error('connection refused');
  },
} as unknown as Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await createTestDb());
});
afterAll(() => close());
beforeEach(async () => {
  await db.delete(dropMeterSeconds);
});

/** A whole second well away from the others' tests; the view at `VIEW` shows seconds T0 … T0 + 9. */
const T0 = 1_795_000_000;
const at = (second: number, ms = 0) => second * 1000 + ms;
const VIEW = new Date(at(T0 + LIVE_SECONDS - 1 + LIVE_LAG_SECONDS, 300));
const SALE_A = 41;
const SALE_B = 42;

describe('two server processes flushing into one database', () => {
  it('shows buy calls and busy answers summed over both processes, second by second', async () => {
    const first = new DropMeter();
    const second = new DropMeter();
    for (let i = 0; i < 3; i++) first.countBuyCall(SALE_A, at(T0, 100 + i));
    for (let i = 0; i < 5; i++) second.countBuyCall(SALE_A, at(T0, 900));
    second.countBuyCall(SALE_A, at(T0 + 9, 10));
    first.countBuyCall(SALE_B, at(T0 + 4));
    first.countBusy(at(T0 + 1));
    second.countBusy(at(T0 + 1, 500));
    second.countBusy(at(T0 + 2));

    expect(await first.flush(db, at(T0 + 10))).toBe(5);
    expect(await second.flush(db, at(T0 + 10))).toBe(8);

    const live = await readLiveMeter(db, [SALE_A, SALE_B], VIEW);
    expect(live.buyCalls.get(SALE_A)).toEqual([8, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(live.buyCalls.get(SALE_B)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    expect(live.busyAnswers).toEqual([0, 2, 1, 0, 0, 0, 0, 0, 0, 0]);
    // One row per sale and second however many processes counted it.
    expect(await db.select().from(dropMeterSeconds)).toHaveLength(5);
  });

  it('adds a later flush of the same second to what is there, and keeps the second still running for the next flush', async () => {
    const first = new DropMeter();
    const second = new DropMeter();
    first.countBuyCall(SALE_A, at(T0 + 3));
    second.countBuyCall(SALE_A, at(T0 + 3));
    await first.flush(db, at(T0 + 4));
    second.countBuyCall(SALE_A, at(T0 + 3, 999));
    // The second flushes while T0 + 5 is still running: its count there waits for that second to end.
    second.countBuyCall(SALE_A, at(T0 + 5, 200));
    await second.flush(db, at(T0 + 5, 600));
    expect(second.pending()).toBe(1);
    first.countBuyCall(SALE_A, at(T0 + 3, 500)); // a call counted late, after its second's first flush
    await first.flush(db, at(T0 + 6));
    await second.flush(db, at(T0 + 6));
    expect(second.pending()).toBe(0);

    const live = await readLiveMeter(db, [SALE_A], VIEW);
    expect(live.buyCalls.get(SALE_A)).toEqual([0, 0, 0, 4, 0, 1, 0, 0, 0, 0]);
  });

  it('shows only the seconds of the window, and no other sale', async () => {
    const meter = new DropMeter();
    meter.countBuyCall(SALE_A, at(T0 - 1)); // before the window
    meter.countBuyCall(SALE_A, at(T0 + LIVE_SECONDS)); // within the last LIVE_LAG_SECONDS: not shown yet
    meter.countBuyCall(SALE_B, at(T0 + 2));
    await meter.flush(db, at(T0 + 20));
    const live = await readLiveMeter(db, [SALE_A], VIEW);
    expect(live.buyCalls.get(SALE_A)).toEqual(new Array(LIVE_SECONDS).fill(0));
    expect(live.buyCalls.has(SALE_B)).toBe(false);
    expect(await readLiveMeter(db, [], VIEW)).toEqual({ buyCalls: new Map(), busyAnswers: new Array(LIVE_SECONDS).fill(0) });
  });
});

describe("a process's flush timer", () => {
  it('flushes the ended second just after it turns, only with counts, and everything at stop', async () => {
    let clock = at(T0, 400);
    const timers: { run: () => void; ms: number }[] = [];
    const meter = new DropMeter();
    let opened = 0;
    const flushing = startMeterFlush(
      meter,
      () => {
        opened += 1;
        return db;
      },
      {
        clock: () => clock,
        setTimer: (run, ms) => {
          timers.push({ run, ms });
          return undefined as unknown as ReturnType<typeof setTimeout>;
        },
      },
    );
    expect(timers[0]!.ms).toBe(650); // 50 ms into the next second

    // Nothing counted: the turn of the second asks nothing of the database.
    clock = at(T0 + 1, 50);
    timers[0]!.run();
    await flushing.idle();
    expect(opened).toBe(0);

    meter.countBuyCall(SALE_A, at(T0 + 1, 300));
    meter.countBuyCall(SALE_A, at(T0 + 2, 10));
    clock = at(T0 + 2, 50);
    expect(timers[1]!.ms).toBe(1000);
    timers[1]!.run();
    await flushing.idle();
    expect(opened).toBe(1);
    // The ended second is in the table; the running one waits in memory.
    expect(await db.select({ second: dropMeterSeconds.second, count: dropMeterSeconds.count }).from(dropMeterSeconds)).toEqual([
      { second: T0 + 1, count: 1 },
    ]);
    expect(meter.pending()).toBe(1);

    await flushing.stop();
    expect(meter.pending()).toBe(0);
    expect(await db.select().from(dropMeterSeconds)).toHaveLength(2);
    const scheduled = timers.length;
    timers[timers.length - 1]!.run(); // a turn that was already due when the server stopped schedules nothing more
    expect(timers).toHaveLength(scheduled);
  });
});

describe('a flush that fails', () => {
  it('keeps its counts for the next flush, logs once, and never throws', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    const meter = new DropMeter();
    for (let i = 0; i < 6; i++) meter.countBuyCall(SALE_A, at(T0 + 1));
    meter.countBusy(at(T0 + 1));

    await expect(meter.flush(away, at(T0 + 2))).resolves.toBe(0);
    meter.countBuyCall(SALE_A, at(T0 + 1, 800)); // counted while the database was away
    await expect(meter.flush(away, at(T0 + 3))).resolves.toBe(0);
    expect(meter.pending()).toBe(8);
    expect(errors.mock.calls.filter(([line]) => String(line).startsWith('[drop meter] could not add'))).toHaveLength(1);

    expect(await meter.flush(db, at(T0 + 4))).toBe(8);
    expect(meter.pending()).toBe(0);
    const live = await readLiveMeter(db, [SALE_A], VIEW);
    expect(live.buyCalls.get(SALE_A)![1]).toBe(7);
    expect(live.busyAnswers[1]).toBe(1);
    expect(errors.mock.calls.some(([line]) => String(line).includes('reach the database again'))).toBe(true);
    errors.mockRestore();
  });

  it('drops kept seconds once they are older than the table keeps', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    const meter = new DropMeter();
    meter.countBuyCall(SALE_A, at(T0));
    await meter.flush(away, at(T0 + METER_KEEP_SECONDS + 5));
    expect(meter.pending()).toBe(0);
    errors.mockRestore();
  });
});

describe('pruning', () => {
  it('deletes the seconds older than METER_KEEP_SECONDS when a process flushes, at most once a minute', async () => {
    const now = T0 + 5_000;
    await db.insert(dropMeterSeconds).values([
      { kind: 'buy', saleId: SALE_A, second: now - METER_KEEP_SECONDS - 1, count: 3 },
      { kind: 'busy', saleId: 0, second: now - METER_KEEP_SECONDS - 30, count: 2 },
      { kind: 'buy', saleId: SALE_A, second: now - METER_KEEP_SECONDS + 1, count: 4 },
    ]);
    const meter = new DropMeter();
    meter.countBuyCall(SALE_B, at(now - 1));
    await meter.flush(db, at(now));
    const left = await db.select({ second: dropMeterSeconds.second }).from(dropMeterSeconds);
    expect(left.map((r) => r.second).sort((a, b) => a - b)).toEqual([now - METER_KEEP_SECONDS + 1, now - 1]);

    // Within the minute the next flush only adds.
    await db.insert(dropMeterSeconds).values({ kind: 'buy', saleId: SALE_A, second: now - METER_KEEP_SECONDS - 5, count: 1 });
    meter.countBuyCall(SALE_B, at(now + 30));
    await meter.flush(db, at(now + 31));
    expect(await db.select().from(dropMeterSeconds)).toHaveLength(4);
    meter.countBuyCall(SALE_B, at(now + 60));
    await meter.flush(db, at(now + 61));
    const kept = await db.select({ second: dropMeterSeconds.second }).from(dropMeterSeconds);
    // A minute on, the seconds past the ten minutes before now + 61 go, the new one is added.
    expect(kept.map((r) => r.second).sort((a, b) => a - b)).toEqual([now - 1, now + 30, now + 60]);
  });
});

describe('what a hostile body can make a process hold', () => {
  it('holds at most MAX_PENDING_ROWS distinct sale seconds, and still counts the ones it holds', () => {
    const meter = new DropMeter();
    for (let id = 1; id <= MAX_PENDING_ROWS + 500; id++) meter.countBuyCall(id, at(T0));
    meter.countBuyCall(1, at(T0));
    expect(meter.pending()).toBe(MAX_PENDING_ROWS + 1);
  });

  it('stays within the cap when a failed flush puts its counts back, and the full cap goes in one statement', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    const meter = new DropMeter();
    for (let id = 1; id <= MAX_PENDING_ROWS; id++) meter.countBuyCall(id, at(T0));
    // The database answers the flush's upsert with an error a moment later; meanwhile other sale ids keep coming.
    let answered!: (error: Error) => void;
    const slow = {
      execute: () => new Promise((_, fail) => (answered = fail)),
    } as unknown as Db;
    const failing = meter.flush(slow, at(T0 + 1));
    for (let id = 1; id <= MAX_PENDING_ROWS; id++) meter.countBuyCall(MAX_PENDING_ROWS + id, at(T0 + 1));
    answered(new Error('connection reset'));
    await expect(failing).resolves.toBe(0);
    expect(meter.pending()).toBe(MAX_PENDING_ROWS);
    expect(await meter.flush(db, at(T0 + 2))).toBe(MAX_PENDING_ROWS);
    expect(meter.pending()).toBe(0);
    errors.mockRestore();
  });
});

describe('the busy alert stays per process', () => {
  it("answers this process's busy answers of the last minute, not the other process's", () => {
    const first = new DropMeter();
    const second = new DropMeter();
    for (let i = 0; i < 5; i++) second.countBusy(at(T0 + i));
    expect(first.countBusy(at(T0 + 10))).toBe(1);
    expect(first.countBusy(at(T0 + 30))).toBe(2);
    expect(first.countBusy(at(T0 + 71))).toBe(2); // the first one is more than a minute old
  });
});
