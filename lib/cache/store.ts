/**
 * The process's caches, one set per database handle (so two databases in one process, as in the tests, never share
 * an entry), kept on globalThis: the proxy, the pages and the API handlers are bundled apart but run in one Node
 * process, and a write in an API handler must reach the pages the proxy serves. Times and bounds: docs/caching.md.
 *
 * Invalidation (issue 31): every cache of a handle shares one tag clock, and the functions of this module are the only
 * way to move it. A write's tags are dropped here at once and published to every other process on the same database
 * (PostgreSQL NOTIFY on `cache_tags`, lib/cache/notices.ts), which drop them when they hear them (`watchTagNotices`).
 * A cache added later (`namedCache`) is invalidated by the same calls, here and everywhere, with nothing to add.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { isEmbeddedDb, listenerOf, type Db } from '../db/client';
import { readTagNotice, TAG_NOTICE_CHANNEL, tagNotices } from './notices';
import { TagClock, TaggedCache } from './tagged-cache';
export type { ReadOptions } from './tagged-cache';

/**
 * How long a cached read is served as fresh. It bounds what a process shows of a write it was not told of: one made
 * outside the storefront (SQL by hand), or while its listener was down (docs/caching.md has the bound for pages).
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
  /** Rows and lists read from the database. */
  data: TaggedCache<unknown>;
  /** Rendered public pages (lib/page/rendered.ts). */
  pages: TaggedCache<unknown>;
};

type Handle = {
  clock: TagClock;
  caches: Caches;
  named: Map<string, TaggedCache<unknown>>;
  /** This handle's name in its notices: its own echo is skipped by it. */
  origin: string;
  /** Tags invalidated here after a commit, waiting for the next notice (sent once per turn of the event loop). */
  unsent: Set<string> | null;
  /** Everything was invalidated: the next notice says so. */
  unsentAll: boolean;
  /** The notices being sent, for `tagNoticesSent`. */
  sending: Promise<void>;
  sendScheduled: boolean;
  /** Resolves true once this handle hears other processes' notices. */
  watching: Promise<boolean> | null;
};

const registry = globalThis as unknown as { storefrontCaches?: WeakMap<object, Handle> };

function handleOf(db: object): Handle {
  registry.storefrontCaches ??= new WeakMap();
  let handle = registry.storefrontCaches.get(db);
  if (!handle) {
    const clock = new TagClock();
    handle = {
      clock,
      caches: {
        data: new TaggedCache<unknown>(clock, { maxEntries: 5000 }),
        // A page is 20–60 kB of HTML: 500 pages stay under 30 MB.
        pages: new TaggedCache<unknown>(clock, { maxEntries: 500 }),
      },
      named: new Map(),
      origin: randomBytes(12).toString('base64url'),
      unsent: null,
      unsentAll: false,
      sending: Promise.resolve(),
      sendScheduled: false,
      watching: null,
    };
    registry.storefrontCaches.set(db, handle);
  }
  return handle;
}

/** The caches of `db` (any handle from lib/db/client). */
export function cachesOf(db: object): Caches {
  return handleOf(db).caches;
}

/**
 * A cache of `db` other than the data and the pages (a later one: flight answers, sessions), on the same tag clock:
 * every invalidation below reaches it, in this process and in every other, with nothing else to wire.
 */
export function namedCache(db: object, name: string, options: { maxEntries: number }): TaggedCache<unknown> {
  const handle = handleOf(db);
  let cache = handle.named.get(name);
  if (!cache) {
    cache = new TaggedCache<unknown>(handle.clock, options);
    handle.named.set(name, cache);
  }
  return cache;
}

/**
 * A read every visitor sees alike, cached across requests under the tags of the writes that change it, fresh for
 * CACHE_TTL_MS (docs/caching.md), and standing in for a failing read for STALE_IF_ERROR_MS after that. Values are
 * shared between requests: read them, never change them. A miss (null, unknown) is cached too, as `{ value: null }`,
 * so a flood of bad ids costs one query per key and TTL.
 */
export async function cachedRead<V>(db: object, key: string, entryTags: readonly string[], load: () => Promise<V>): Promise<V> {
  const options = { tags: entryTags, ttlMs: CACHE_TTL_MS, errorMs: STALE_IF_ERROR_MS };
  const box = (await cachesOf(db).data.read(key, options, async () => ({ value: await load() }))) as {
    value: V;
  };
  return box.value;
}

/** Whether other processes may read `db` and must be told (the embedded database belongs to this process alone). */
function sharedDb(db: object): boolean {
  return !isEmbeddedDb(db as Db);
}

/** NOTIFY the notices of `tags` (null: everything) on `on`: a transaction (delivered only if it commits) or the handle. */
async function notify(on: Db, origin: string, tags: readonly string[] | null): Promise<void> {
  for (const payload of tagNotices(origin, tags)) {
    await on.execute(sql`select pg_notify(${TAG_NOTICE_CHANNEL}, ${payload})`);
  }
}

/**
 * Queues `tags` (null: everything) for the other processes, sent after this turn of the event loop: the writes of one
 * moment (a drop's buys) share one notice, and the write's own answer waits for none.
 */
function publishAfterCommit(db: object, tags: readonly string[] | null): void {
  if (!sharedDb(db)) return;
  const handle = handleOf(db);
  if (tags === null) handle.unsentAll = true;
  else for (const tag of tags) (handle.unsent ??= new Set()).add(tag);
  if (handle.sendScheduled) return;
  handle.sendScheduled = true;
  const previous = handle.sending;
  handle.sending = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => previous)
    .then(async () => {
      handle.sendScheduled = false;
      const all = handle.unsentAll;
      const unsent = handle.unsent ? [...handle.unsent] : [];
      handle.unsentAll = false;
      handle.unsent = null;
      if (!all && unsent.length === 0) return;
      try {
        await notify(db as Db, handle.origin, all ? null : unsent);
      } catch (error) {
        // The write stands; the other processes see it when their entries run out (docs/caching.md).
        const what = all ? 'everything' : `${unsent.slice(0, 10).join(', ')}${unsent.length > 10 ? ` and ${unsent.length - 10} more` : ''}`;
        console.error(`[cache] could not tell the other processes of invalidated tags (${what})`, error);
      }
    });
}

/** Resolves once the notices queued by `invalidate` and `invalidateAll` on `db` are sent (a script before it closes). */
export function tagNoticesSent(db: object): Promise<void> {
  return handleOf(db).sending;
}

/**
 * Call after the write committed: every cached read and page of `db` carrying one of `tags` is gone here at once, and
 * in every other process on the same database as soon as it hears the notice sent after this turn. A write made in a
 * transaction publishes with its commit instead: `writeInvalidating`.
 */
export function invalidate(db: object, tags: readonly string[]): void {
  if (tags.length === 0) return;
  handleOf(db).clock.invalidate(tags);
  publishAfterCommit(db, tags);
}

/** Drops every cached read and page of `db`, here and in every other process (the seed changed the catalogue). */
export function invalidateAll(db: object): void {
  handleOf(db).clock.clear();
  publishAfterCommit(db, null);
}

/**
 * A write in one transaction that invalidates tags: `write` names them with `changed` as it goes. Their notice is sent
 * inside the transaction, so PostgreSQL delivers it to the other processes only when it commits, never for a write
 * rolled back, and never before the write can be read; they are dropped here once it committed.
 */
export async function writeInvalidating<T>(db: Db, write: (tx: Db, changed: (tags: readonly string[]) => void) => Promise<T>): Promise<T> {
  const handle = handleOf(db);
  const changed = new Set<string>();
  const result = await db.transaction(async (tx) => {
    const value = await write(tx, (tags) => tags.forEach((tag) => changed.add(tag)));
    if (changed.size > 0 && sharedDb(db)) await notify(tx, handle.origin, [...changed]);
    return value;
  });
  if (changed.size > 0) handle.clock.invalidate([...changed]);
  return result;
}

type Listener = NonNullable<ReturnType<typeof listenerOf>>;

/**
 * Starts hearing the tags other processes invalidate on `db` (once per handle; each server process at start,
 * instrumentation.ts). Each notice drops its tags here; this handle's own are skipped. Once listening, and again after
 * the listener reconnected, every entry is dropped: a notice may have been missed meanwhile, and a missed notice must
 * not leave a stale page for ever. Resolves true once listening; false when the handle cannot listen (then entries
 * last their time to live, as before). On the embedded database nothing is heard: no other process writes to it.
 */
export function watchTagNotices(db: Db, listener: Listener | null = listenerOf(db)): Promise<boolean> {
  const handle = handleOf(db);
  if (handle.watching) return handle.watching;
  if (!sharedDb(db)) return (handle.watching = Promise.resolve(true));
  if (!listener) return (handle.watching = Promise.resolve(false));
  handle.watching = new Promise<boolean>((resolve) => {
    listener
      .listen(
        TAG_NOTICE_CHANNEL,
        (payload) => {
          const notice = readTagNotice(handle.origin, payload);
          if (notice.kind === 'all') handle.clock.clear();
          else if (notice.kind === 'tags' && notice.tags.length > 0) handle.clock.invalidate(notice.tags);
        },
        () => {
          // Up, or up again after a reconnect: what was kept may have missed a notice.
          handle.clock.clear();
          resolve(true);
        },
      )
      .catch((error: unknown) => {
        console.error(
          '[alert] [cache] cannot listen for invalidated tags: writes made by other processes show only when entries expire',
          error,
        );
        resolve(false);
      });
  });
  return handle.watching;
}

/**
 * The tags. What a buyer sees of a sale is its look (name, pictures, price, status) and its stock (copies left); the
 * data reads carry both kinds, the rendered pages the look tags. Every stock move invalidates both today, so a page
 * shows copies left exactly (docs/caching.md); the split lets a page drop its stock later (a client leaf) without a
 * drop re-rendering it at every buy.
 */
export const tags = {
  /** The channel's row and everything drawn from it (its rendered pages among them). */
  channel: (key: string) => `channel:${key}`,
  /**
   * The channel's row only: a change of the skin's colours and nothing else, which pages from the rendered-page cache
   * take from the row when they are answered (lib/page/page-skin.ts), so they are kept.
   */
  channelColours: (key: string) => `channel-colours:${key}`,
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
  /** The channel's notices (issue 32): published, edited or withdrawn in the console, on the store at once. */
  notices: (channelId: number) => `notices:${channelId}`,
};

/** The tags a move of a sale's copies left changes: its reads and the pages that show it. */
export function stockTags(sale: { channelId: number; saleId: number }): string[] {
  return [tags.stock(sale.saleId), tags.stocks(sale.channelId), tags.sale(sale.saleId), tags.sales(sale.channelId)];
}

/** After a committed write (outside a transaction of `writeInvalidating`) moved a sale's copies left. */
export function stockMoved(db: object, sale: { channelId: number; saleId: number }): void {
  invalidate(db, stockTags(sale));
}
