import { LRUCache } from 'lru-cache';
import type { ChannelSummary } from './theme';

/**
 * In-memory cache of channel summaries for the edge middleware (DESIGN §3, STYLE pitfalls):
 * fresh for `ttlMs`; after that a failed refresh serves the stale value for up to `staleMs` instead of
 * taking the storefront down with its backend. Unknown channels are cached too (shorter), so a flood of
 * requests for a bad host does not reach the API. Concurrent misses share one lookup.
 *
 * lru-cache (pure JS, so it runs on the Edge) keeps the entries, their ttl, the one lookup in flight per key (its
 * `fetch`) and the bound on entries; what it has no word for is how long a stale value may stand in, checked here.
 */
export type SummaryLookup = (key: string) => Promise<ChannelSummary | null>;

/** lru-cache holds no null: an unknown channel is an entry whose value is null. */
type Entry = { value: ChannelSummary | null; fetchedAt: number };

export class SummaryCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly now: () => number;

  constructor(
    lookup: SummaryLookup,
    private readonly options: { ttlMs: number; missTtlMs: number; staleMs: number; maxEntries: number; now?: () => number },
  ) {
    const now = options.now ?? (() => Date.now());
    this.now = now;
    // lru-cache keeps an entry fresh through its ttl's last millisecond; here it is stale once ttl ms have passed.
    const ttl = (ms: number) => Math.max(1, ms - 1);
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      ttl: ttl(options.ttlMs),
      perf: { now },
      // Read the clock at every check (lru-cache otherwise reuses one reading for a millisecond, through a timer).
      ttlResolution: 0,
      // A failed refresh leaves the stale entry in place (get serves it within staleMs) and fails every waiting request.
      noDeleteOnFetchRejection: true,
      fetchMethod: async (key, _stale, { options: entry }) => {
        const value = await lookup(key);
        if (value === null) entry.ttl = ttl(options.missTtlMs);
        return { value, fetchedAt: now() };
      },
    });
  }

  /** The summary, null for an unknown channel; throws only when the lookup fails and nothing stale is usable. */
  async get(key: string): Promise<ChannelSummary | null> {
    try {
      const entry = await this.entries.fetch(key);
      return entry?.value ?? null;
    } catch (error) {
      const stale = this.entries.peek(key, { allowStale: true });
      if (stale?.value && this.now() - stale.fetchedAt < this.options.ttlMs + this.options.staleMs) return stale.value;
      throw error;
    }
  }
}
