import 'server-only';
import { and, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dropMeterSeconds } from '../db/schema';
import { env } from '../env';
import { raiseAlert } from './alerts';

/**
 * The live drop view's counters (issue 32, "A live view of a running drop: … buy calls per second, busy answers"),
 * for the whole deployment: several server processes behind a balancer each take a share of a drop's calls.
 *
 * - Counting is a map update in memory (`countBuyCall`, `countBusy`): no database write on a buy's path, which is what
 *   the buy lane exists to keep short (docs/orders.md).
 * - Once a second, and only with something to count, each process adds its counts of the seconds that have ended to
 *   `drop_meter_seconds` by ONE multi-row upsert that adds into the row of (kind, sale, second) (`flush`). Adding into
 *   a shared row rather than keeping a row per process (summed at read) keeps the table at one row per sale and second
 *   whatever the number of processes, needs no process identity that survives a restart, and lets the one-second poll
 *   read exactly the rows it shows; a process's upsert holds each row for one statement once a second.
 * - A flush that fails (the database away) keeps its counts for the next one and is logged; it never reaches a buy.
 * - Seconds older than METER_KEEP_SECONDS are pruned by the flushes, at most once a minute per process.
 * - Busy answers are answered before a call's body is read (the buy lane, the dispatcher's load shedding), so they have
 *   no sale and, without reading the host's channel on the very path that is overloaded, no channel: they are counted
 *   for the whole deployment (sale id 0). The busy alert's threshold stays per process (docs/reports.md).
 */

/** How often a process adds its counts to the shared table (at most; only when it has any). */
export const METER_FLUSH_MS = 1_000;
/** Seconds of counts the shared table keeps; older ones are pruned (the view shows the last 10). */
export const METER_KEEP_SECONDS = 600;
/** The whole seconds the live view shows. */
export const LIVE_SECONDS = 10;
/**
 * How many seconds behind the clock the view's last second is: a second is flushed by every process within about a
 * second of its end (the flush runs just after each second turns), so the second before the current one may still be
 * missing some processes' counts; the one before that has them all.
 */
export const LIVE_LAG_SECONDS = 2;
/**
 * Distinct (sale, second) counts a process holds unflushed: a signed-in buyer's sale ids that do not exist cannot grow
 * it beyond this, nor a flush beyond one statement of 2,000 rows (about 0.1 s of the embedded database). A deployment's
 * running sales, a few dozen, are far below it.
 */
export const MAX_PENDING_ROWS = 2_000;
/** How often a process's flush also deletes the seconds past METER_KEEP_SECONDS. */
const PRUNE_EVERY_MS = 60_000;

/** The sale id that busy answers are kept under (they have no sale; sale ids start at 1). */
const DEPLOYMENT = 0;

/** Per-second counts of one process for its own busy alert (a minute of history, in a ring). */
class MinuteCounter {
  private counts = new Int32Array(60);
  private seconds = new Float64Array(60).fill(-1);

  /** Adds one at `nowMs`; answers the count of the last 60 seconds, the current one included. */
  add(nowMs: number): number {
    const current = Math.floor(nowMs / 1000);
    const slot = current % 60;
    if (this.seconds[slot] !== current) {
      this.seconds[slot] = current;
      this.counts[slot] = 0;
    }
    this.counts[slot]! += 1;
    let total = 0;
    for (let s = current - 59; s <= current; s++) {
      const at = ((s % 60) + 60) % 60;
      if (this.seconds[at] === s) total += this.counts[at]!;
    }
    return total;
  }
}

type Kind = 'buy' | 'busy';
type Row = { kind: Kind; saleId: number; second: number; count: number };

export class DropMeter {
  /** Counts not yet in the shared table, by `kind|saleId|second`. */
  private pendingCounts = new Map<string, Row>();
  private busyMinute = new MinuteCounter();
  private prunedAt = Number.NEGATIVE_INFINITY;
  /** Whether the last flush failed (so a database that stays away is logged once, and its return once). */
  private failing = false;

  private add(kind: Kind, saleId: number, nowMs: number, count = 1): void {
    const second = Math.floor(nowMs / 1000);
    const key = `${kind}|${saleId}|${second}`;
    const row = this.pendingCounts.get(key);
    if (row) row.count += count;
    else if (this.pendingCounts.size < MAX_PENDING_ROWS) this.pendingCounts.set(key, { kind, saleId, second, count });
  }

  /** A buy call that reached the sale (lib/order/procedures.ts): a map update, nothing else. */
  countBuyCall(saleId: number, nowMs: number): void {
    this.add('buy', saleId, nowMs);
  }

  /** A busy answer of this process (the buy lane, load shedding); answers this process's busy answers of the last minute. */
  countBusy(nowMs: number): number {
    this.add('busy', DEPLOYMENT, nowMs);
    return this.busyMinute.add(nowMs);
  }

  /** Counts not yet added to the table (for the flush timer and tests). */
  pending(): number {
    let total = 0;
    for (const row of this.pendingCounts.values()) total += row.count;
    return total;
  }

  /**
   * Adds the counts of the seconds that ended before `nowMs` (all of them with `everything`, at shutdown) to the shared
   * table by one multi-row upsert, and forgets them; on failure they are kept (those older than the table keeps are
   * dropped: the view would never show them) and the error is logged, never thrown. Then, at most once a minute,
   * deletes the seconds past METER_KEEP_SECONDS. Answers how many counts were written.
   */
  async flush(db: Db, nowMs: number, options: { everything?: boolean } = {}): Promise<number> {
    const current = Math.floor(nowMs / 1000);
    const rows: Row[] = [];
    for (const [key, row] of this.pendingCounts) {
      if (options.everything || row.second < current) {
        rows.push(row);
        this.pendingCounts.delete(key);
      }
    }
    let written = 0;
    if (rows.length > 0) {
      try {
        // One statement whatever the number of rows: the rows travel as one JSON parameter. Drizzle's multi-row
        // `values()` builds its SQL on this thread in time that grows faster than the rows (about a second for 1,000
        // here), which a flush beside a drop's buys cannot afford. Rows go in ordered by the key in every process, so
        // two processes' upserts never wait on each other in a cycle.
        await db.execute(sql`
          insert into drop_meter_seconds (kind, sale_id, second, count)
          select r.kind, r.sale_id, r.second, r.count
            from json_to_recordset(${JSON.stringify(rows.map((r) => ({ kind: r.kind, sale_id: r.saleId, second: r.second, count: r.count })))}::json)
              as r(kind text, sale_id integer, second bigint, count integer)
           order by r.kind, r.sale_id, r.second
          on conflict (kind, sale_id, second) do update set count = drop_meter_seconds.count + excluded.count`);
        written = rows.reduce((total, row) => total + row.count, 0);
        if (this.failing) console.error(`[drop meter] the live view's counts reach the database again`);
        this.failing = false;
      } catch (error) {
        this.keep(rows, current);
        if (!this.failing) {
          console.error(
            `[drop meter] could not add ${rows.length} second(s) of buy calls and busy answers to the live view; kept for the next flush`,
            error,
          );
        }
        this.failing = true;
        return 0;
      }
    }
    if (nowMs - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = nowMs;
      try {
        await db.delete(dropMeterSeconds).where(lt(dropMeterSeconds.second, current - METER_KEEP_SECONDS));
      } catch (error) {
        console.error("[drop meter] could not delete the live view's old seconds; the next flush tries again", error);
        this.prunedAt = Number.NEGATIVE_INFINITY;
      }
    }
    return written;
  }

  /** Puts back the counts of a failed flush, adding to any counted since. */
  private keep(rows: Row[], current: number): void {
    for (const row of rows) {
      if (row.second < current - METER_KEEP_SECONDS) continue;
      const key = `${row.kind}|${row.saleId}|${row.second}`;
      const since = this.pendingCounts.get(key);
      if (since) since.count += row.count;
      else if (this.pendingCounts.size < MAX_PENDING_ROWS) this.pendingCounts.set(key, row);
    }
  }
}

export type LiveMeter = {
  /** Buy calls of each sale asked for, in each of the LIVE_SECONDS seconds shown, oldest first, every process summed. */
  buyCalls: Map<number, number[]>;
  /** The deployment's busy answers in those seconds. */
  busyAnswers: number[];
};

/**
 * The live view's figures for `saleIds` (issue 32): the LIVE_SECONDS whole seconds ending LIVE_LAG_SECONDS before
 * `now`, as every process added them. One indexed read of at most (sales + 1) × 10 rows.
 */
export async function readLiveMeter(db: Db, saleIds: number[], now: Date): Promise<LiveMeter> {
  const last = Math.floor(now.getTime() / 1000) - LIVE_LAG_SECONDS;
  const first = last - LIVE_SECONDS + 1;
  const busy = and(eq(dropMeterSeconds.kind, 'busy'), eq(dropMeterSeconds.saleId, DEPLOYMENT));
  const rows = await db
    .select({
      kind: dropMeterSeconds.kind,
      saleId: dropMeterSeconds.saleId,
      second: dropMeterSeconds.second,
      count: dropMeterSeconds.count,
    })
    .from(dropMeterSeconds)
    .where(
      and(
        saleIds.length > 0 ? or(busy, and(eq(dropMeterSeconds.kind, 'buy'), inArray(dropMeterSeconds.saleId, saleIds))) : busy,
        gte(dropMeterSeconds.second, first),
        lte(dropMeterSeconds.second, last),
      ),
    );
  const buyCalls = new Map(saleIds.map((id) => [id, new Array<number>(LIVE_SECONDS).fill(0)]));
  const busyAnswers = new Array<number>(LIVE_SECONDS).fill(0);
  for (const row of rows) {
    const series = row.kind === 'busy' ? busyAnswers : buyCalls.get(row.saleId);
    if (series) series[Number(row.second) - first] = Number(row.count);
  }
  return { buyCalls, busyAnswers };
}

const globalForMeter = globalThis as unknown as {
  storefrontDropMeter?: DropMeter;
  storefrontDropMeterFlush?: MeterFlush;
  storefrontShutdownHooks?: (() => Promise<void>)[];
};

/** This process's meter (on globalThis: the server's modules and the app's bundle share one). */
export function dropMeter(): DropMeter {
  return (globalForMeter.storefrontDropMeter ??= new DropMeter());
}

export type MeterFlush = {
  /** Settles once the flushes started so far have (for tests and shutdown). */
  idle: () => Promise<void>;
  /** Stops the timer and flushes every count left, the running second's too. */
  stop: () => Promise<void>;
};

/**
 * Flushes `meter` to `db()` just after each second turns (METER_FLUSH_MS, plus 50 ms so the second just ended is
 * complete in this process), only when it holds counts; one flush at a time, a failed one never stops the next.
 * `clock` and `setTimer` are the real ones but for tests.
 */
export function startMeterFlush(
  meter: DropMeter,
  db: () => Db,
  options: { clock?: () => number; setTimer?: (run: () => void, ms: number) => ReturnType<typeof setTimeout> } = {},
): MeterFlush {
  const clock = options.clock ?? Date.now;
  const setTimer = options.setTimer ?? setTimeout;
  let flushing: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (everything: boolean) =>
    (flushing = flushing.then(() => (meter.pending() > 0 ? meter.flush(db(), clock(), { everything }) : 0)).catch(() => 0));
  const schedule = () => {
    if (stopped) return;
    timer = setTimer(
      () => {
        void flush(false);
        schedule();
      },
      METER_FLUSH_MS - (clock() % METER_FLUSH_MS) + 50,
    );
    timer?.unref?.();
  };
  schedule();
  return {
    idle: () => flushing.then(() => undefined),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await flush(true);
    },
  };
}

/**
 * Starts this process's flush of its meter (instrumentation.ts, once per server process, whatever JOBS says: every
 * process that answers buys counts them), and flushes what is left at shutdown (server.ts awaits
 * `storefrontShutdownHooks`).
 */
export function startDropMeterFlush(db: () => Db): void {
  if (globalForMeter.storefrontDropMeterFlush) return;
  const flushing = startMeterFlush(dropMeter(), db);
  globalForMeter.storefrontDropMeterFlush = flushing;
  (globalForMeter.storefrontShutdownHooks ??= []).push(flushing.stop);
}

/**
 * One busy answer of this process (lib/server/buy-lane.ts, lib/server/dispatcher.ts): counted for the live view, and
 * this process's minute passing ALERT_BUSY_PER_MINUTE raises a `busy` alert (at most one an hour). The threshold is
 * per process, counted in memory at the moment of the answer (docs/reports.md, "Alerts"). `db` is asked for only
 * then, so a busy answer never opens the database.
 */
export function noteBusyAnswer(db: () => Db, nowMs: number = Date.now()): void {
  const threshold = env().ALERT_BUSY_PER_MINUTE;
  if (dropMeter().countBusy(nowMs) !== threshold + 1) return;
  void raiseAlert(
    db(),
    {
      kind: 'busy',
      channelId: null,
      subject: 'buy',
      detail: `more than ${threshold} buy calls answered busy within a minute in one process: buyers are being turned away; see docs/reports.md`,
    },
    new Date(nowMs),
  );
}
