import 'server-only';
import type { Db } from '../db/client';

/**
 * Sales this process knows to be sold out (issue 16; docs/orders.md, "Sold out without the database"). In a drop,
 * nearly every buyer arrives after the last copy went: each of them is answered "sold out" from here instead of
 * reading the sale and asking to free overdue orders again.
 *
 * What keeps it true:
 * - It is noted only by a buy that found no copy left after the overdue orders were freed, and it lapses by itself
 *   at the sale's next unpaid order's expiry (that copy comes back then) and at most `RECHECK_MS` after it was noted.
 * - Every stock move committed in this process forgets it at once (`stockCommitted`, lib/order/service.ts), and the
 *   seed forgets every sale.
 * - A copy returned by another process (a cancel, a failed payment, the expiry sweep in `npm run worker`) reaches
 *   this one through the database: a trigger on `sales` notifies `sale_stock_returned` with the sale's id when its
 *   copies left grow (drizzle/0006_sale_stock_notify.sql), and this process listens. Nothing is noted before the
 *   listener is up, and a listener that reconnects forgets everything (it may have missed a notice).
 */

/** A sold-out sale is asked of the database again this long after it was noted, whatever was heard. */
export const RECHECK_MS = 1000;

/** The channel the database notifies on when a sale's copies left grow; the payload is the sale id. */
export const STOCK_RETURNED_CHANNEL = 'sale_stock_returned';

/** What a buy asks: the store it is made in, the sale, how many copies. */
export type BuyAsk = { channelId: number; saleId: number; quantity: number };
/** The sale as the buy that found it sold out read it. */
export type SoldOutSale = { channelId: number; saleId: number; limitPerUser: number };

type Entry = { channelId: number; limitPerUser: number; until: number };

type Known = {
  /** Sale id → what was noted, and the time (ms) until which it holds. */
  until: Map<number, Entry>;
  /** True once the listener for returned stock is up (the process may then trust what it notes). */
  listening: boolean;
  /** Resolves true once listening, false when the driver cannot listen or failed to. */
  ready: Promise<boolean> | null;
};

const registry = globalThis as unknown as { storefrontSoldOut?: WeakMap<object, Known> };

function knownOf(db: Db): Known {
  registry.storefrontSoldOut ??= new WeakMap();
  let known = registry.storefrontSoldOut.get(db);
  if (!known) {
    known = { until: new Map(), listening: false, ready: null };
    registry.storefrontSoldOut.set(db, known);
  }
  return known;
}

/**
 * True when the buy can be answered "sold out" at `nowMs` without the database. Only a buy the full path would
 * answer so: in the sale's own store, within its per-buyer limit (other asks get their own answers there).
 */
export function knownSoldOut(db: Db, ask: BuyAsk, nowMs: number): boolean {
  const known = knownOf(db);
  const entry = known.until.get(ask.saleId);
  if (!entry) return false;
  if (nowMs >= entry.until) {
    known.until.delete(ask.saleId);
    return false;
  }
  return entry.channelId === ask.channelId && ask.quantity <= entry.limitPerUser;
}

/**
 * Notes that a buy found `sale` sold out at `nowMs`, after freeing its overdue orders. It holds until the earliest of
 * `endsMs` (the sale's next unpaid order's expiry, its end), at most `RECHECK_MS`. Ignored until this process hears
 * returned stock (the first call starts listening).
 */
export function noteSoldOut(db: Db, sale: SoldOutSale, nowMs: number, endsMs: number[]): void {
  const known = knownOf(db);
  if (!known.listening) {
    void watchStockReturns(db);
    return;
  }
  const until = Math.min(nowMs + RECHECK_MS, ...endsMs);
  if (until > nowMs) known.until.set(sale.saleId, { channelId: sale.channelId, limitPerUser: sale.limitPerUser, until });
}

/** A copy of `saleId` came back, or its stock moved: ask the database again. */
export function forgetSoldOut(db: Db, saleId: number): void {
  knownOf(db).until.delete(saleId);
}

/** Every sale: ask the database again (the catalogue changed). */
export function forgetAllSoldOut(db: Db): void {
  knownOf(db).until.clear();
}

type Listener = {
  listen: (channel: string, onNotice: (payload: string) => void, onListen?: () => void) => Promise<unknown>;
};

/**
 * The driver's LISTEN, as one shape: postgres.js (`sql.listen(channel, fn, onlisten)`, on a connection of its own,
 * relistening after a reconnect) or PGlite (`pg.listen(channel, fn)`, resolved once listening).
 */
function listenerOf(db: Db): Listener | null {
  const client = (db as unknown as { $client?: { listen?: unknown; query?: unknown; options?: unknown } }).$client;
  if (!client || typeof client.listen !== 'function') return null;
  const listen = client.listen.bind(client) as (channel: string, fn: (payload: string) => void, onListen?: () => void) => Promise<unknown>;
  // postgres.js is a function with `options`; PGlite a class instance with `query`.
  const isPostgresJs = typeof client === 'function';
  return {
    listen: async (channel, onNotice, onListen) => {
      if (isPostgresJs) return listen(channel, onNotice, onListen);
      const stop = await listen(channel, onNotice);
      onListen?.();
      return stop;
    },
  };
}

/** Starts listening for returned stock on `db` (once); resolves true when listening. */
export function watchStockReturns(db: Db): Promise<boolean> {
  const known = knownOf(db);
  if (known.ready) return known.ready;
  const listener = listenerOf(db);
  if (!listener) return (known.ready = Promise.resolve(false));
  known.ready = new Promise<boolean>((resolve) => {
    listener
      .listen(
        STOCK_RETURNED_CHANNEL,
        (payload) => {
          const saleId = Number(payload);
          if (Number.isInteger(saleId)) known.until.delete(saleId);
        },
        () => {
          // Up, or up again after a reconnect: anything noted before may have missed a notice.
          known.until.clear();
          known.listening = true;
          resolve(true);
        },
      )
      .catch((error: unknown) => {
        // Safe, only slower: without the listener nothing is noted, and every buy asks the database.
        console.error('[sold-out] cannot listen for returned stock; every buy asks the database', error);
        known.listening = false;
        resolve(false);
      });
  });
  return known.ready;
}
