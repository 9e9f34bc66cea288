/**
 * The process's caches, one set per database handle (so two databases in one process, as in the tests, never share
 * an entry), kept on globalThis: the proxy, the pages and the API handlers are bundled apart but run in one Node
 * process, and a write in an API handler must reach the pages the proxy serves. Times and bounds: docs/caching.md.
 */
import { TagClock, TaggedCache } from './tagged-cache';

/**
 * How long a cached read is served as fresh. Short, because a write made in another process (the second server, the
 * worker) invalidates nothing here: it shows once this runs out (a rendered page: docs/caching.md has the bound).
 */
export const CACHE_TTL_MS = 750;
/** A rendered page may be served this much longer while one request renders it again in the background. */
export const PAGE_STALE_MS = 250;
/**
 * How long the last good read or render stands in for one that fails (stale if error, issue 29): a database outage of
 * up to this long does not take down the channels' shared links, home pages and config (docs/caching.md).
 */
export const STALE_IF_ERROR_MS = 10 * 60_000;

export type Caches = {
  clock: TagClock;
  /** Rows and lists read from the database. */
  data: TaggedCache<unknown>;
  /** Rendered public pages (lib/page/rendered.ts). */
  pages: TaggedCache<unknown>;
};

const registry = globalThis as unknown as { storefrontCaches?: WeakMap<object, Caches> };

/** The caches of `db` (any handle from lib/db/client). */
export function cachesOf(db: object): Caches {
  registry.storefrontCaches ??= new WeakMap();
  let caches = registry.storefrontCaches.get(db);
  if (!caches) {
    const clock = new TagClock();
    caches = {
      clock,
      data: new TaggedCache<unknown>(clock, { maxEntries: 5000 }),
      // A page is 20–60 kB of HTML: 500 pages stay under 30 MB.
      pages: new TaggedCache<unknown>(clock, { maxEntries: 500 }),
    };
    registry.storefrontCaches.set(db, caches);
  }
  return caches;
}

/**
 * A read every visitor sees alike, cached across requests under the tags of the writes that change it, fresh for
 * CACHE_TTL_MS (docs/caching.md), and standing in for a failing read for STALE_IF_ERROR_MS after that. Values are
 * shared between requests: read them, never change them. A miss (null,
 * unknown) is cached too, as `{ value: null }`, so a flood of bad ids costs one query per key and TTL.
 */
export async function cachedRead<V>(db: object, key: string, entryTags: readonly string[], load: () => Promise<V>): Promise<V> {
  const options = { tags: entryTags, ttlMs: CACHE_TTL_MS, errorMs: STALE_IF_ERROR_MS };
  const box = (await cachesOf(db).data.read(key, options, async () => ({ value: await load() }))) as {
    value: V;
  };
  return box.value;
}

/** Call after the write committed: every cached read of `db` carrying one of `tags` is gone. */
export function invalidate(db: object, tags: readonly string[]): void {
  if (tags.length > 0) cachesOf(db).clock.invalidate(tags);
}

/** Drops every cached read of `db` (the seed changed the catalogue). */
export function invalidateAll(db: object): void {
  cachesOf(db).clock.clear();
}

/**
 * The tags. What a buyer sees of a sale is its look (name, pictures, price, status) and its stock (copies left); the
 * data reads carry both kinds, the rendered pages the look tags. Every stock move invalidates both today, so a page
 * shows copies left exactly (docs/caching.md); the split lets a page drop its stock later (a client leaf) without a
 * drop re-rendering it at every buy.
 */
export const tags = {
  channel: (key: string) => `channel:${key}`,
  /** The look of any sale of the channel (lists). */
  sales: (channelId: number) => `sales:${channelId}`,
  sale: (saleId: number | string) => `sale:${saleId}`,
  /** Copies left of any sale of the channel (lists). */
  stocks: (channelId: number) => `stocks:${channelId}`,
  stock: (saleId: number | string) => `stock:${saleId}`,
  /** What a buy reads of a sale (price, times, limit, commodity; not its copies left): only the catalogue changes it. */
  saleTerms: (saleId: number | string) => `sale-terms:${saleId}`,
  /** The channel's gift, exchange and chain-up campaigns with what their offers have left. */
  campaigns: (channelId: number) => `campaigns:${channelId}`,
};

/** After a committed write moved a sale's copies left: its reads and the pages that show it. */
export function stockMoved(db: object, sale: { channelId: number; saleId: number }): void {
  invalidate(db, [tags.stock(sale.saleId), tags.stocks(sale.channelId), tags.sale(sale.saleId), tags.sales(sale.channelId)]);
}
