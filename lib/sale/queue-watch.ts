import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../db/client';
import {
  noteCopiesLeft,
  noteSeen,
  positionOf,
  snapshotLife,
  snapshotOf,
  snapshotSeen,
  standingIn,
  SNAPSHOT_MS,
  type QueuePosition,
  type Snapshot,
} from './queue';
import { FAR_MS, NEAR_SECONDS } from './queue-pace';

/**
 * A waiting room's news pushed to the page (issue 35: "when sold out, every waiting buyer is told within a second";
 * docs/drops.md, "Waiting room"). A buyer's page keeps one watch open (`/market/api/queue/watch`, answered at the
 * entry server's door as a stream of lines: lib/server/queue-door.ts); this process reads the sale's queue every
 * SNAPSHOT_MS while anyone watches it, and pushes to each watcher what changed for them: their turn (with the
 * admission), sold out, ended, a lost place, and their place, every second near the head and every few seconds
 * further back. Polling waited for each page's next read (up to 5 s far back, more when the reads queued): a buyer
 * heard of the sell-out 2–7 s late (`bench:drop`, `queue` mode).
 *
 * A page whose watch cannot open (this process full, the call answered through Next, the stream cut) reads its place
 * by polling `queue/position`, as before.
 */

/** What the door gives a watch: one line per push, and the end (a buyer's newest watches push out their oldest). */
export type WatchSink = { send: (position: QueuePosition) => void; end: () => void };

type Watcher = {
  userId: number;
  sink: WatchSink;
  status: QueuePosition['status'];
  ahead: number | null;
  /** When this watcher was last pushed to, and last noted seen (ms, the ticker's clock). */
  sentAt: number;
  seenAt: number;
};

type SaleWatch = {
  watchers: Set<Watcher>;
  /** Each buyer's open watches, oldest first (a newer one ends the oldest past MAX_WATCHES_PER_BUYER). */
  byUser: Map<number, Watcher[]>;
  timer: ReturnType<typeof setInterval> | null;
  /** A read of the copies left, and a read of the queue, in flight (each runs at most one at a time). */
  readingCopies: boolean;
  ticking: boolean;
  /** The snapshot the watchers were last gone over with, and when (ms). */
  pushedFrom: Snapshot | null;
  pushedAt: number;
};

/** Before the shuffle, the watchers are gone over with an unchanged snapshot once in this long. */
const QUIET_PUSH_MS = 1_000;

/** Open watches per process: beyond it, a page polls (its watch call answers its place once). */
export const MAX_WATCHERS = 50_000;
/** Watches per buyer and sale (tabs): a newer one ends the oldest. */
export const MAX_WATCHES_PER_BUYER = 3;
/** Within NEAR_SECONDS of their likely turn a buyer's place is pushed every second; further back every FAR_MS. */
const NEAR_PUSH_MS = 1000;
/** A watching buyer counts as seen (keeps their place, `holdSeconds`) once in this long (a third of a shorter hold), not at every tick. */
export const SEEN_EVERY_MS = 10_000;

const watches = new WeakMap<Db, Map<number, SaleWatch>>();
let open = 0;

function watchOf(db: Db, saleId: number, create: boolean): SaleWatch | null {
  let bySale = watches.get(db);
  if (!bySale) {
    if (!create) return null;
    watches.set(db, (bySale = new Map()));
  }
  let watch = bySale.get(saleId) ?? null;
  if (!watch && create)
    bySale.set(
      saleId,
      (watch = {
        watchers: new Set(),
        byUser: new Map(),
        timer: null,
        readingCopies: false,
        ticking: false,
        pushedFrom: null,
        pushedAt: 0,
      }),
    );
  return watch;
}

/** Watches open in this process (all sales). */
export function openWatches(): number {
  return open;
}

/**
 * One pass over a sale's watchers at `now`: the copies left (a sell-out pushed at once), then the process's snapshot
 * read afresh (which also runs the queue's upkeep), then a push to each watcher whose status changed, or whose place
 * moved and is due (every second near the head, every 5 s further back). A watcher in the queue is noted seen every
 * SEEN_EVERY_MS. The ticker runs the two reads apart (`watchCopies`, `watchQueue`), so a slow refresh does not hold
 * back a sell-out.
 */
export async function watchTick(db: Db, saleId: number, now: Date): Promise<void> {
  await watchCopies(db, saleId, now);
  await watchQueue(db, saleId, now);
}

/**
 * The copies left, in one read by key: a sell-out is pushed at the tick that sees it, whatever the queue's refresh is
 * doing (its upkeep and the read of every entry take a few hundred ms under a crowd: with the two in one pass, the rest
 * of a crowd heard of the sell-out up to 1.03 s late, `bench:drop` in queue mode with two processes).
 */
export async function watchCopies(db: Db, saleId: number, now: Date): Promise<void> {
  const watch = watchOf(db, saleId, false);
  if (!watch || watch.watchers.size === 0) return;
  const changed = await noteCopiesLeft(db, saleId);
  if (changed) pushChanges(db, watch, changed, now);
}

/**
 * The queue read afresh at every tick (a snapshot's age would add up to another SNAPSHOT_MS to a turn), but before the
 * shuffle, when it is read every QUIET_READ_MS (lib/sale/queue.ts `snapshotLife`); then what changed is pushed.
 */
export async function watchQueue(db: Db, saleId: number, now: Date): Promise<void> {
  const watch = watchOf(db, saleId, false);
  if (!watch || watch.watchers.size === 0) return;
  const quiet = snapshotLife(snapshotSeen(db, saleId), now) > SNAPSHOT_MS;
  const snapshot = await snapshotOf(db, saleId, now, !quiet);
  if (!snapshot) return;
  // Before the shuffle a tick that read nothing new has nothing new for anyone but what time brings (the hold's
  // notes): the watchers are gone over once a second, not at every tick (10,000 of them four times a second cost a
  // process 6% of its time while the crowd joined, `bench:drop` in queue mode).
  if (quiet && snapshot === watch.pushedFrom && now.getTime() - watch.pushedAt < QUIET_PUSH_MS) return;
  watch.pushedFrom = snapshot;
  watch.pushedAt = now.getTime();
  pushChanges(db, watch, snapshot, now);
}

function pushChanges(db: Db, watch: SaleWatch, snapshot: Snapshot, now: Date): void {
  const t = now.getTime();
  // A third of the hold at most, so that a place is never lost between two notes (the shortest hold is 10 s).
  const seenEvery = Math.min(SEEN_EVERY_MS, (snapshot.settings.holdSeconds * 1000) / 3);
  // An outcome that says nothing of the buyer (sold out, ended, a lost place) is the same answer for every watcher: made
  // once, so the door words it once (lib/server/queue-door-read.ts) for a sell-out told to 10,000 at the same tick.
  const shared = new Map<QueuePosition['status'], QueuePosition>();
  const send = (watcher: Watcher, status: QueuePosition['status'], ahead: number | null) => {
    watcher.status = status;
    watcher.ahead = ahead;
    watcher.sentAt = t;
    const personal = status === 'admitted' || status === 'queued' || status === 'waiting';
    let position = personal ? undefined : shared.get(status);
    if (!position) {
      position = positionOf(snapshot, watcher.userId, now);
      if (!personal) shared.set(status, position);
    }
    watcher.sink.send(position);
  };
  // A turn is written before anything else of this pass: at the shuffle the same pass words 10,000 places, and the
  // buyers admitted with it heard of their turn behind them (up to 140 ms of wording and writes on the server, more
  // in the phones' queue of lines; `bench:drop` in queue mode, turn heard p99 641–775 ms against a no-op p99 of 310–338).
  const rest: Array<{ watcher: Watcher; status: QueuePosition['status']; ahead: number | null }> = [];
  for (const watcher of watch.watchers) {
    const { status, ahead } = standingIn(snapshot, watcher.userId, now);
    // Not in this process's snapshot (joined through another process since it was read): the next read has them.
    if (status === 'notJoined') continue;
    if ((status === 'waiting' || status === 'queued' || status === 'admitted') && t - watcher.seenAt >= seenEvery) {
      noteSeen(db, snapshot.saleId, watcher.userId);
      watcher.seenAt = t;
    }
    let due = status !== watcher.status;
    if (!due && status === 'queued' && ahead !== watcher.ahead) {
      const near = (ahead ?? 0) / snapshot.settings.admitPerSecond <= NEAR_SECONDS;
      due = t - watcher.sentAt >= (near ? NEAR_PUSH_MS : FAR_MS);
    }
    if (!due) continue;
    if (status === 'admitted') send(watcher, status, ahead);
    else rest.push({ watcher, status, ahead });
  }
  for (const { watcher, status, ahead } of rest) send(watcher, status, ahead);
}

/**
 * Opens a watch of `saleId` for the buyer, who was just answered `first`. Null when this process has MAX_WATCHERS
 * open. Answers the watch's close (the stream ended). `timer: false` (tests) leaves the ticks to `watchTick`.
 */
export function openWatch(
  db: Db,
  saleId: number,
  userId: number,
  first: QueuePosition,
  sink: WatchSink,
  options: { now?: Date; timer?: boolean } = {},
): (() => void) | null {
  if (open >= MAX_WATCHERS) return null;
  const watch = watchOf(db, saleId, true)!;
  // The buyer's own watches, by key: going over every watcher at each open made a crowd's joins quadratic (10,000
  // watchers, a copy of the set per join: 4% of a process's time and much of its garbage, `bench:drop` queue mode).
  const mine = watch.byUser.get(userId) ?? [];
  while (mine.length >= MAX_WATCHES_PER_BUYER) {
    const old = mine.shift()!;
    if (watch.watchers.delete(old)) open--;
    old.sink.end();
  }
  const t = (options.now ?? new Date()).getTime();
  const watcher: Watcher = { userId, sink, status: first.status, ahead: first.ahead, sentAt: t, seenAt: t };
  watch.watchers.add(watcher);
  mine.push(watcher);
  watch.byUser.set(userId, mine);
  open++;
  if (!watch.timer && options.timer !== false) {
    watch.timer = setInterval(() => {
      const now = new Date();
      const failed = (error: unknown) => console.error(`[queue] the watch of sale ${saleId} failed a tick; the next one runs`, error);
      if (!watch.readingCopies) {
        watch.readingCopies = true;
        watchCopies(db, saleId, now)
          .catch(failed)
          .finally(() => (watch.readingCopies = false));
      }
      if (!watch.ticking) {
        watch.ticking = true;
        watchQueue(db, saleId, now)
          .catch(failed)
          .finally(() => (watch.ticking = false));
      }
    }, SNAPSHOT_MS);
    watch.timer.unref?.();
  }
  return () => {
    if (!watch.watchers.delete(watcher)) return;
    open--;
    const left = watch.byUser.get(userId)?.filter((w) => w !== watcher) ?? [];
    if (left.length > 0) watch.byUser.set(userId, left);
    else watch.byUser.delete(userId);
    if (watch.watchers.size === 0 && watch.timer) {
      clearInterval(watch.timer);
      watch.timer = null;
    }
  };
}

/** A watch the call may open once answered: set by the watch call's handler, taken by the door (queue-door-read.ts). */
export type WatchOffer = { open: ((sink: WatchSink) => (() => void) | null) | null };

const offers = new AsyncLocalStorage<WatchOffer>();

/** Runs a call where a watch may be offered; answers the call's result and the offer, if one was made. */
export async function withWatchOffer<T>(call: () => Promise<T>): Promise<{ result: T; offer: WatchOffer['open'] }> {
  const offer: WatchOffer = { open: null };
  const result = await offers.run(offer, call);
  return { result, offer: offer.open };
}

/**
 * The watch call's handler offers the stream to whoever answers it: at the door, a watch opens; through Next (no
 * offer taken), the call answers the place once, as a position read. Only a buyer still in the queue is watched.
 */
export function offerWatch(db: Db, saleId: number, userId: number, first: QueuePosition): void {
  const offer = offers.getStore();
  if (!offer) return;
  if (first.status !== 'waiting' && first.status !== 'queued' && first.status !== 'admitted') return;
  offer.open = (sink) => openWatch(db, saleId, userId, first, sink);
}
