import { LRUCache } from 'lru-cache';

/**
 * Cached reads of what every visitor of a channel sees alike (issue 15; docs/caching.md): channel config, sales,
 * campaign lists, and the rendered public pages. Each entry carries tags; a write invalidates the tags it changed and
 * every entry carrying one is gone at once, in this process. Other processes (a worker, a second server) see a write
 * when their entries expire: the time to live bounds what a buyer can see.
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

type Entry<V> = { value: V; tags: readonly string[]; since: number; freshUntil: number; staleUntil: number };
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
    return this.refresh(key, options, load);
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
    if (inFlight && this.clock.holds(inFlight.tags, inFlight.since)) return inFlight.promise;
    const since = this.clock.now();
    const store = (value: V | undefined): V | undefined => {
      if (value !== undefined && this.clock.holds(options.tags, since)) {
        const at = this.nowMs();
        const staleMs = options.staleMs ?? 0;
        this.entries.set(key, {
          value,
          tags: options.tags,
          since,
          freshUntil: at + options.ttlMs,
          staleUntil: at + options.ttlMs + staleMs,
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
