import 'server-only';
import { listenerOf, type Db } from '../db/client';
import { raiseAlert } from '../monitor/alerts';

/**
 * Sales this process knows to be sold out (issue 16; docs/orders.md, "Sold out without the database"). In a drop,
 * nearly every buyer arrives after the last copy went: each of them is answered "sold out" from here instead of
 * reading the sale and asking to free overdue orders again.
 *
 * What keeps it true:
 * - It is noted only by a buy that found no copy left after the overdue orders were freed, and it lapses by itself
 *   at the sale's next unpaid order's expiry (that copy comes back then) and at the sale's end.
 * - `RECHECK_MS` after it was noted, one buy of this process asks the database again (and notes it anew, or takes the
 *   copy it finds); the others are answered from memory meanwhile, so a drop of buyers does not all ask at once.
 * - Every stock move committed in this process forgets it at once (`stockCommitted`, lib/order/service.ts), and the
 *   seed forgets every sale.
 * - A copy returned by another process (a cancel, a failed payment, the expiry sweep in `npm run worker`) reaches
 *   this one through the database: a trigger on `sales` notifies `sale_stock_returned` with the sale's id when its
 *   copies left grow (drizzle/0006_sale_stock_notify.sql), and this process listens. Nothing is noted before the
 *   listener is up, and a listener that reconnects forgets everything (it may have missed a notice).
 */

/** A sold-out sale is asked of the database again (by one buy) this long after it was noted, whatever was heard. */
export const RECHECK_MS = 1000;

/**
 * The buyers of a sold-out sale kept in memory at most: a buyer outside them made no order of the sale, so their tap
 * cannot be a retry of one, and the answer needs no read of their key. A sale with more buyers keeps none (every buyer's
 * key is read).
 */
export const MAX_KEPT_BUYERS = 20_000;

/** The channel the database notifies on when a sale's copies left grow; the payload is the sale id. */
export const STOCK_RETURNED_CHANNEL = 'sale_stock_returned';

/** What a buy asks: the store it is made in, the sale, how many copies. */
export type BuyAsk = { channelId: number; saleId: number; quantity: number };
/** The sale as the buy that found it sold out read it. */
export type SoldOutSale = { channelId: number; saleId: number; limitPerUser: number };

type Entry = {
  channelId: number;
  limitPerUser: number;
  /** Ms time at which it lapses: the sale's next unpaid order's expiry, or its end. */
  until: number;
  /** Ms time from which one buy asks the database again; the one asking took it at `recheckTakenAt`. */
  recheckAt: number;
  recheckTakenAt: number | null;
  /** The users holding an order of the sale (any state) when it was noted; null when there were too many to keep. */
  buyers: ReadonlySet<number> | null;
};

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

/** The note of `ask`'s sale that still holds at `nowMs` for this ask (its store, within its limit), or null. */
function liveEntry(known: Known, ask: BuyAsk, nowMs: number): Entry | null {
  const entry = known.until.get(ask.saleId);
  if (!entry) return null;
  if (nowMs >= entry.until) {
    known.until.delete(ask.saleId);
    return null;
  }
  return entry.channelId === ask.channelId && ask.quantity <= entry.limitPerUser ? entry : null;
}

const recheckInFlight = (entry: Entry, nowMs: number) => entry.recheckTakenAt !== null && nowMs - entry.recheckTakenAt < RECHECK_MS;

/**
 * True when memory vouches at `nowMs` that the buy would be answered "sold out": the sale is noted, the note has not
 * lapsed, and its recheck is not due (or one buy is rechecking it). Only a buy the full path would answer so: in the
 * sale's own store, within its per-buyer limit (other asks get their own answers there).
 */
export function knownSoldOut(db: Db, ask: BuyAsk, nowMs: number): boolean {
  const entry = liveEntry(knownOf(db), ask, nowMs);
  return entry !== null && (nowMs < entry.recheckAt || recheckInFlight(entry, nowMs));
}

/**
 * True when the sale is noted sold out for this ask at `nowMs`, its recheck due or not: the buy may then be answered
 * "sold out" from memory before anything else is checked, so the buy lane's gate (lib/order/buy-gate.ts) lets it in.
 */
export function soldOutNoted(db: Db, ask: BuyAsk, nowMs: number): boolean {
  return liveEntry(knownOf(db), ask, nowMs) !== null;
}

/**
 * How a buy is answered, as far as memory goes:
 * - `soldOut`: at once, with no statement. The sale is known sold out and the buyer held no order of it when that was
 *   noted, so the tap is no retry of one (none can have been made since: no copy was left, and a copy coming back
 *   forgets the note).
 * - `soldOutUnlessRetry`: the buyer's key is read first (a retry gets its order), then "sold out".
 * - `ask`: the database. When the note's recheck is due, the first buy to see it takes it and gets `ask`.
 */
export type SoldOutVerdict = 'soldOut' | 'soldOutUnlessRetry' | 'ask';

export function soldOutVerdict(db: Db, ask: BuyAsk & { userId: number }, nowMs: number): SoldOutVerdict {
  const entry = liveEntry(knownOf(db), ask, nowMs);
  if (!entry) return 'ask';
  if (nowMs >= entry.recheckAt && !recheckInFlight(entry, nowMs)) {
    entry.recheckTakenAt = nowMs;
    return 'ask';
  }
  return entry.buyers && !entry.buyers.has(ask.userId) ? 'soldOut' : 'soldOutUnlessRetry';
}

/**
 * Notes that a buy found `sale` sold out at `nowMs`, after freeing its overdue orders. It holds until the earliest of
 * `endsMs` (the sale's next unpaid order's expiry, its end); one buy asks again from `RECHECK_MS` on. `buyers`: the users holding an order
 * of the sale, read after the sale was found sold out (null when more than MAX_KEPT_BUYERS). Ignored until this process
 * hears returned stock (the first call starts listening).
 */
export function noteSoldOut(db: Db, sale: SoldOutSale, nowMs: number, endsMs: number[], buyers: readonly number[] | null = null): void {
  void raiseAlert(
    db,
    { kind: 'soldOut', channelId: sale.channelId, subject: `sale ${sale.saleId}`, detail: `sale ${sale.saleId} sold out: no copy left` },
    new Date(nowMs),
  ); // issue 32
  const known = knownOf(db);
  if (!known.listening) {
    void watchStockReturns(db);
    return;
  }
  const until = Math.min(Number.MAX_SAFE_INTEGER, ...endsMs);
  if (until <= nowMs) return;
  const kept = buyers && buyers.length <= MAX_KEPT_BUYERS ? new Set(buyers) : null;
  known.until.set(sale.saleId, {
    channelId: sale.channelId,
    limitPerUser: sale.limitPerUser,
    until,
    recheckAt: nowMs + RECHECK_MS,
    recheckTakenAt: null,
    buyers: kept,
  });
}

/** A copy of `saleId` came back, or its stock moved: ask the database again. */
export function forgetSoldOut(db: Db, saleId: number): void {
  knownOf(db).until.delete(saleId);
}

/** Every sale: ask the database again (the catalogue changed). */
export function forgetAllSoldOut(db: Db): void {
  knownOf(db).until.clear();
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
