import { MAX_BATCH, MAX_RECORDS_PER_REQUEST } from './constants';
import type { TrackingRecord } from './schema';

/** spec §9: batches of 10 records or every 10 s, whichever comes first. */
export const FLUSH_INTERVAL_MS = 10_000;
/** Records kept while the log service is unreachable; the oldest go first beyond this. */
export const MAX_QUEUED = 200;

/** Sends records; resolves true when the log service took them. 'beacon' is used when the page is going away. */
export type TrackingSender = (records: TrackingRecord[], mode: 'fetch' | 'beacon') => Promise<boolean> | boolean;

/**
 * Client-side batching of tracking records. A record is either queued or in flight, never both, so nothing is
 * sent twice; a failed send puts its records back at the front for the next try.
 */
export class TrackingQueue {
  private queue: TrackingRecord[] = [];
  private inFlight = false;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly send: TrackingSender,
    private readonly options: { maxBatch?: number; intervalMs?: number; maxQueued?: number } = {},
  ) {}

  get size(): number {
    return this.queue.length;
  }

  add(record: TrackingRecord): void {
    this.queue.push(record);
    this.trim();
    if (this.queue.length >= (this.options.maxBatch ?? MAX_BATCH)) void this.flush();
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.options.intervalMs ?? FLUSH_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends queued records in batches of 10 until the queue is empty or a send fails. */
  async flush(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch ?? MAX_BATCH);
        let ok = false;
        try {
          ok = await this.send(batch, 'fetch');
        } catch {
          ok = false;
        }
        if (!ok) {
          this.queue.unshift(...batch);
          this.trim();
          return;
        }
      }
    } finally {
      this.inFlight = false;
    }
  }

  /** The page is being hidden: hand everything queued to the browser's beacon, which outlives the page. */
  flushOnHide(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, MAX_RECORDS_PER_REQUEST);
      let queued = false;
      try {
        queued = this.send(batch, 'beacon') === true;
      } catch {
        queued = false;
      }
      if (!queued) return;
      this.queue.splice(0, batch.length);
    }
  }

  private trim(): void {
    const max = this.options.maxQueued ?? MAX_QUEUED;
    if (this.queue.length > max) this.queue.splice(0, this.queue.length - max);
  }
}
