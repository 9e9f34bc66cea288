import 'server-only';
import type { Db } from '../db/client';
import { env } from '../env';
import { raiseAlert } from './alerts';

/**
 * The live drop view's counters (issue 32, "A live view of a running drop: … buy calls per second, busy answers"):
 * kept in memory per process, one small ring of per-second counts per sale, and one for the busy answers of the
 * whole process (the buy lane and the dispatcher's load shedding answer busy before a call's body is read, so a busy
 * answer has no sale). Figures are this process's own: with several processes behind a balancer each shows its share
 * (docs/reports.md); no database write per call, so counting costs a drop nothing measurable.
 */

/** Seconds of history kept per counter. */
export const METER_SECONDS = 60;

class SecondCounter {
  private counts = new Int32Array(METER_SECONDS);
  private seconds = new Float64Array(METER_SECONDS).fill(-1);

  add(nowMs: number, n = 1): void {
    const second = Math.floor(nowMs / 1000);
    const slot = second % METER_SECONDS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot]! += n;
  }

  /** The counts of the `n` whole seconds before the current one, oldest first. */
  lastSeconds(nowMs: number, n: number): number[] {
    const current = Math.floor(nowMs / 1000);
    const out: number[] = [];
    for (let s = current - n; s < current; s++) {
      const slot = ((s % METER_SECONDS) + METER_SECONDS) % METER_SECONDS;
      out.push(this.seconds[slot] === s ? this.counts[slot]! : 0);
    }
    return out;
  }

  /** The count of the last `seconds` seconds, the current one included. */
  within(nowMs: number, seconds: number): number {
    const current = Math.floor(nowMs / 1000);
    let total = 0;
    for (let s = current - seconds + 1; s <= current; s++) {
      const slot = ((s % METER_SECONDS) + METER_SECONDS) % METER_SECONDS;
      if (this.seconds[slot] === s) total += this.counts[slot]!;
    }
    return total;
  }
}

export class DropMeter {
  private buys = new Map<number, SecondCounter>();
  private busy = new SecondCounter();

  /** A buy call that reached the sale (lib/order/procedures.ts). */
  countBuyCall(saleId: number, nowMs: number): void {
    let counter = this.buys.get(saleId);
    if (!counter) {
      // A process serves a handful of live sales; an id from a hostile body never reaches here unparsed.
      if (this.buys.size >= 10_000) this.buys.clear();
      counter = new SecondCounter();
      this.buys.set(saleId, counter);
    }
    counter.add(nowMs);
  }

  /** A busy answer of this process (the buy lane, load shedding); answers the busy answers of the last minute. */
  countBusy(nowMs: number): number {
    this.busy.add(nowMs);
    return this.busy.within(nowMs, 60);
  }

  /** The last `seconds` whole seconds of a sale's buy calls and of the process's busy answers, oldest first. */
  recent(saleId: number, nowMs: number, seconds = 10): { buyCalls: number[]; busyAnswers: number[] } {
    return {
      buyCalls: this.buys.get(saleId)?.lastSeconds(nowMs, seconds) ?? new Array<number>(seconds).fill(0),
      busyAnswers: this.busy.lastSeconds(nowMs, seconds),
    };
  }
}

const globalForMeter = globalThis as unknown as { storefrontDropMeter?: DropMeter };

/** This process's meter (on globalThis: the server's modules and the app's bundle share one). */
export function dropMeter(): DropMeter {
  return (globalForMeter.storefrontDropMeter ??= new DropMeter());
}

/**
 * One busy answer of this process (lib/server/buy-lane.ts, lib/server/dispatcher.ts): counted for the live view, and
 * the minute's count passing ALERT_BUSY_PER_MINUTE raises a `busy` alert (at most one an hour). `db` is asked for only
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
