import type { ChannelSummary } from './theme';

/**
 * In-memory cache of channel summaries for the edge middleware (DESIGN §3, STYLE pitfalls):
 * fresh for `ttlMs`; after that a failed refresh serves the stale value for up to `staleMs` instead of
 * taking the storefront down with its backend. Unknown channels are cached too (shorter), so a flood of
 * requests for a bad host does not reach the API. Concurrent misses share one lookup.
 */
export type SummaryLookup = (key: string) => Promise<ChannelSummary | null>;

type Entry = { value: ChannelSummary | null; fetchedAt: number };

export class SummaryCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ChannelSummary | null>>();

  constructor(
    private readonly lookup: SummaryLookup,
    private readonly options: { ttlMs: number; missTtlMs: number; staleMs: number; maxEntries: number; now?: () => number },
  ) {}

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /** The summary, null for an unknown channel; throws only when the lookup fails and nothing stale is usable. */
  async get(key: string): Promise<ChannelSummary | null> {
    const entry = this.entries.get(key);
    const age = entry ? this.now() - entry.fetchedAt : Infinity;
    const ttl = entry?.value ? this.options.ttlMs : this.options.missTtlMs;
    if (entry && age < ttl) return entry.value;

    try {
      return await this.refresh(key);
    } catch (error) {
      if (entry && entry.value && age < this.options.ttlMs + this.options.staleMs) return entry.value;
      throw error;
    }
  }

  private refresh(key: string): Promise<ChannelSummary | null> {
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.lookup(key)
        .then((value) => {
          // Map keeps insertion order: re-inserting moves a refreshed key to the end, so the first key is
          // always the least recently fetched one, which goes when the cache is full.
          this.entries.delete(key);
          if (this.entries.size >= this.options.maxEntries) {
            const oldest = this.entries.keys().next().value;
            if (oldest !== undefined) this.entries.delete(oldest);
          }
          this.entries.set(key, { value, fetchedAt: this.now() });
          return value;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }
}
