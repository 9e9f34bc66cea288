import { LRUCache } from 'lru-cache';

/**
 * Cached reads of what every visitor of a channel sees alike (issue 15; docs/caching.md): channel config, sales,
 * campaign lists, and the rendered public pages. Each entry carries tags; a write invalidates the tags it changed and
 * every entry carrying one is gone at once, in this process, and in the other processes when they hear its notice
 * (lib/cache/store.ts, issue 31). A write no notice tells of (made outside the storefront) shows when entries expire:
 * the time to live (for a page, with its stale time and the age of the reads it rendered from); docs/caching.md.
 *
 * Invalidation is a clock, not a walk over entries: a tag remembers the tick of its last invalidation, an entry the
 * tick its read began, and an entry is good only while none of its tags was invalidated since. A read that began
 * before a write and ends after it is therefore never stored as fresh, and concurrent misses share one read.
 */
export class TagClock {
  private tick = 0;
  private readonly invalidatedAt = new Map<string, number>();
  private clearedAt = 0;

  now(): number {
    return this.tick;
  }

  invalidate(tags: readonly string[]): void {
    const tick = ++this.tick;
    for (const tag of tags) this.invalidatedAt.set(tag, tick);
  }

  /** Every entry, whatever its tags (a new seed, a test's fresh start). */
  clear(): void {
    this.clearedAt = ++this.tick;
  }

  /** Whether a read that began at `since` with these tags still stands. */
  holds(tags: readonly string[], since: number): boolean {
    if (this.clearedAt > since) return false;
    return tags.every((tag) => (this.invalidatedAt.get(tag) ?? 0) <= since);
  }
}

type Entry<V> = {
  value: V;
  tags: readonly string[];
  since: number;
  freshUntil: number;
  staleUntil: number;
  /** Until when it stands in for a read that fails (stale if error). */
  errorUntil: number;
  /** While its reads fail: no new read is tried before this time, the value is answered. */
  retryAt: number;
};

/** After a read failed, the last good value is answered for this long before a read is tried again. */
export const RETRY_AFTER_ERROR_MS = 1000;
type Pending<V> = { promise: Promise<V | undefined>; tags: readonly string[]; since: number };

export type ReadOptions = {
  tags: readonly string[];
  /** How long the value is served as fresh. */
  ttlMs: number;
  /**
   * After that, how long it may still be served while one read in the background refreshes it (stale while
   * revalidate). Never after an invalidation of its tags: that is a miss, and readers wait for the new value.
   */
  staleMs?: number;
  /**
   * After the time to live, how long the last value still stands in for a read that fails (stale if error, issue 29):
   * a short database outage does not take down what every visitor sees alike. Invalidated or not, the last value is
   * answered when the read throws; while it keeps failing, a read is tried again at most every RETRY_AFTER_ERROR_MS.
   */
  errorMs?: number;
  /**
   * After an invalidation or past its grace, the last value is answered while one read is on its way to replace it
   * (issue 34: the rendered pages and flight answers, which a drop's stock moves invalidate many times a second, and
   * whose render under a drop's load takes longer than their grace). A reader that finds no read on its way starts one
   * and waits for it, so a page read after a write (with no render already going) is exact; while one goes, no second
   * starts, and what it brings is kept even if an invalidation came meanwhile (it is then one write behind, and the
   * next reader starts the next read). Without it, every reader waits for a read begun after the last invalidation, a
   * read that an invalidation overtakes is never kept, and past the grace every reader waits for the read.
   */
  behind?: boolean;
};

export class TaggedCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly pending = new Map<string, Pending<V>>();

  private readonly nowMs: () => number;

  constructor(
    private readonly clock: TagClock,
    options: { maxEntries: number; now?: () => number },
  ) {
    this.entries = new LRUCache<string, Entry<V>>({ max: options.maxEntries });
    this.nowMs = options.now ?? Date.now;
  }

  /** The cached value of `key`, or `load`'s, stored under `tags`; `undefined` from `load` is answered, never stored. */
  async read(key: string, options: ReadOptions, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    const now = this.nowMs();
    if (entry && this.clock.holds(entry.tags, entry.since)) {
      if (now < entry.freshUntil) return entry.value;
      if (now < entry.staleUntil) {
        void this.refresh(key, options, load).catch(() => {
          // The stale value stands until staleUntil; the next read after it tries again and reports.
        });
        return entry.value;
      }
    }
    if (entry && this.answersBehind(key, entry, options, now)) return entry.value;
    if (!entry || now >= entry.errorUntil) return this.refresh(key, options, load);
    // Stale if error: the read is tried (at most every RETRY_AFTER_ERROR_MS while it fails), the last value answered
    // if it throws.
    if (now < entry.retryAt) return entry.value;
    try {
      return await this.refresh(key, options, load);
    } catch (error) {
      if (entry.retryAt <= now) {
        console.error(
          `[cache] ${key}: the read failed; answering the value of ${new Date(entry.freshUntil).toISOString()} meanwhile`,
          error,
        );
      }
      entry.retryAt = Math.max(entry.retryAt, this.nowMs() + RETRY_AFTER_ERROR_MS);
      return entry.value;
    }
  }

  /**
   * Whether an entry invalidated or past its grace stands while a read is on its way to replace it (ReadOptions
   * `behind`): as long as that read takes (its loader bounds it: a page's render times out after 10 s), and never past
   * the entry's grace or its time as a stand-in for failing reads, whichever is later.
   */
  private answersBehind(key: string, entry: Entry<V>, options: ReadOptions, now: number): boolean {
    return options.behind === true && this.pending.has(key) && now < Math.max(entry.staleUntil, entry.errorUntil);
  }

  /** Drops `key` (e.g. a value found wrong after the read). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private refresh(key: string, options: ReadOptions, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const inFlight = this.pending.get(key);
    if (inFlight && (options.behind || this.clock.holds(inFlight.tags, inFlight.since))) return inFlight.promise;
    const since = this.clock.now();
    const store = (value: V | undefined): V | undefined => {
      // A read behind (ReadOptions `behind`) that brings nothing to keep (the page is no longer one to keep) drops the
      // value it would have replaced, so it is not answered again while the next read goes.
      if (value === undefined && options.behind) this.entries.delete(key);
      if (value !== undefined && (options.behind || this.clock.holds(options.tags, since))) {
        const at = this.nowMs();
        const staleMs = options.staleMs ?? 0;
        this.entries.set(key, {
          value,
          tags: options.tags,
          since,
          freshUntil: at + options.ttlMs,
          staleUntil: at + options.ttlMs + staleMs,
          errorUntil: options.errorMs ? at + options.ttlMs + options.errorMs : 0,
          retryAt: 0,
        });
      }
      return value;
    };
    const promise: Promise<V | undefined> = load()
      .then(store)
      .finally(() => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
      });
    this.pending.set(key, { promise, tags: options.tags, since });
    return promise;
  }
}
