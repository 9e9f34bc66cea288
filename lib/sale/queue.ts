import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queueEntries, saleAllocations, sales } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';
import { tags, writeInvalidating } from '../cache/store';
import type { UserScope } from '../procedure/scope';
import { channelPolicyIn, requireIdentity } from '../identity/gate';
import { env } from '../env';
import { refusePriorityForMode } from './priority';
import type { CatalogueAudit } from './catalogue';

/**
 * The waiting room (issue 35, "First come, through a waiting room"; docs/drops.md, "Waiting room"): a sale in mode
 * 'queue' lets logged-in buyers join from a set time before its opening. Everyone who joined before the opening plus a
 * short grace is shuffled together at that moment by a random key drawn at their join (not their join time); later
 * arrivals queue behind in arrival order. The head of the queue is admitted at a pace (a number a second, and never
 * more admissions unused than copies left); an admission is a signed token bound to the buyer, the sale and its
 * expiry, which `order/create` requires for the sale. An admission not used within its life goes to the next; a
 * waiting buyer whose polls stop keeps their place for the hold time, then loses it.
 *
 * One queue per sale, whatever the number of server processes: the order, the shuffle and the admissions live in the
 * database (`queue_entries`), and the upkeep (shuffle, expiries, admissions) runs in one transaction holding the
 * sale's allocation row, skipped by a process that finds it held. Position reads are answered from each process's
 * memory: a snapshot of the sale's queue read in one statement at most every SNAPSHOT_MS per sale.
 */

/** The settings an operator chooses (docs/drops.md, "Waiting room"). */
export type QueueSettings = {
  /** Joining opens this many minutes before the sale's opening. */
  joinMinutes: number;
  /** Who joined before the opening plus this grace is shuffled together. */
  graceSeconds: number;
  /** A buyer whose polls stopped keeps their place this long. */
  holdSeconds: number;
  /** An admission's life: not used within it, it goes to the next. */
  admissionSeconds: number;
  /** Admissions a second at most. */
  admitPerSecond: number;
};

/**
 * The defaults: a 3 s grace, a 3-minute hold, a 60 s admission (issue 35), and 50 admissions a second: about what one
 * process's buy lane sustains on the embedded database (500 orders of a drop in 7–10 s, docs/benchmarks.md), so an
 * admitted buyer is not answered busy.
 */
export const QUEUE_DEFAULTS = { graceSeconds: 3, holdSeconds: 180, admissionSeconds: 60, admitPerSecond: 50 } as const;

/** How old a process's snapshot of a sale's queue may be before a position read refreshes it. */
export const SNAPSHOT_MS = 250;
/** How much older than its life a snapshot a reader is answered from while another caller's refresh is in flight. */
export const STALE_READ_MS = 2_000;

/**
 * Before the shuffle nobody has a place to move: a snapshot serves this long (a join is added to it in memory; a sale
 * closed meanwhile is told within it). Re-reading every entry four times a second while 10,000 buyers joined cost the
 * server processes and PostgreSQL what the joins needed (`bench:drop`, queue mode, two processes: joins p99 3.4 s).
 */
export const QUIET_READ_MS = 2_000;

/** How old `snapshot` may be at `now` before a read refreshes it: QUIET_READ_MS until a tick before the shuffle. */
export function snapshotLife(snapshot: Snapshot | null, now: Date): number {
  if (!snapshot || snapshot.shuffledAt) return SNAPSHOT_MS;
  const quietUntil = shuffleAt(snapshot.startsAt, snapshot.settings.graceSeconds).getTime() - SNAPSHOT_MS;
  return now.getTime() < quietUntil ? QUIET_READ_MS : SNAPSHOT_MS;
}

/** How often a buyer's page should ask again: a second (the head of the queue must hear of its admission at once). */
export const POLL_SECONDS = 1;

export type QueueView = QueueSettings & {
  sale: string;
  mode: 'queue';
  joinOpensAt: Date;
  /** The opening plus the grace: who joined before it is shuffled together. */
  shuffleAt: Date;
  /** Joining opened: the settings can no longer change. */
  frozen: boolean;
  joined: number;
  shuffledAt: Date | null;
};

type QueueRow = QueueSettings & { saleId: number; channelId: number; shuffledAt: Date | null };

const settingColumns = {
  saleId: saleAllocations.saleId,
  channelId: saleAllocations.channelId,
  mode: saleAllocations.mode,
  joinMinutes: saleAllocations.queueJoinMinutes,
  graceSeconds: saleAllocations.queueGraceSeconds,
  holdSeconds: saleAllocations.queueHoldSeconds,
  admissionSeconds: saleAllocations.queueAdmissionSeconds,
  admitPerSecond: saleAllocations.queueAdmitPerSecond,
  shuffledAt: saleAllocations.queueShuffledAt,
  registrationOpensAt: saleAllocations.registrationOpensAt,
};

async function readAllocation(db: Db, channelId: number, saleId: number, lock = false) {
  const query = db
    .select(settingColumns)
    .from(saleAllocations)
    .where(and(eq(saleAllocations.saleId, saleId), eq(saleAllocations.channelId, channelId)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

function asQueue(row: Awaited<ReturnType<typeof readAllocation>>): QueueRow | null {
  if (!row || row.mode !== 'queue') return null;
  // The check constraint `sale_allocations_queue_settings` holds every setting of a queue row non-null.
  return {
    saleId: row.saleId,
    channelId: row.channelId,
    joinMinutes: row.joinMinutes!,
    graceSeconds: row.graceSeconds!,
    holdSeconds: row.holdSeconds!,
    admissionSeconds: row.admissionSeconds!,
    admitPerSecond: row.admitPerSecond!,
    shuffledAt: row.shuffledAt,
  };
}

export const joinOpensAt = (startsAt: Date, joinMinutes: number) => new Date(startsAt.getTime() - joinMinutes * 60_000);
export const shuffleAt = (startsAt: Date, graceSeconds: number) => new Date(startsAt.getTime() + graceSeconds * 1000);

async function viewOf(db: Db, sale: { code: string; saleStartTime: Date }, row: QueueRow, now: Date): Promise<QueueView> {
  const [joined] = await db.select({ n: count() }).from(queueEntries).where(eq(queueEntries.saleId, row.saleId));
  const opens = joinOpensAt(sale.saleStartTime, row.joinMinutes);
  return {
    sale: sale.code,
    mode: 'queue',
    joinMinutes: row.joinMinutes,
    graceSeconds: row.graceSeconds,
    holdSeconds: row.holdSeconds,
    admissionSeconds: row.admissionSeconds,
    admitPerSecond: row.admitPerSecond,
    joinOpensAt: opens,
    shuffleAt: shuffleAt(sale.saleStartTime, row.graceSeconds),
    frozen: now.getTime() >= opens.getTime(),
    joined: Number(joined?.n ?? 0),
    shuffledAt: row.shuffledAt,
  };
}

async function consoleSale(db: Db, channelId: number, saleId: number, lock = false) {
  const query = db
    .select({ code: sales.code, saleStartTime: sales.saleStartTime })
    .from(sales)
    .where(and(eq(sales.id, saleId), eq(sales.channelId, channelId)));
  const [sale] = lock ? await query.for('update') : await query;
  if (!sale) throw new AppError(404, msg('opsSaleNotFound'));
  return sale;
}

/** The console's view of a sale's waiting room, or null when the sale has none. */
export async function findQueue(db: Db, channelId: number, saleId: number, now: Date): Promise<QueueView | null> {
  const sale = await consoleSale(db, channelId, saleId);
  const row = asQueue(await readAllocation(db, channelId, saleId));
  return row ? viewOf(db, sale, row, now) : null;
}

const SETTING_FIELDS = ['joinMinutes', 'graceSeconds', 'holdSeconds', 'admissionSeconds', 'admitPerSecond'] as const;

/**
 * Puts a sale through a waiting room, or changes its settings before joining opens (console, issue 35). Refused:
 * joining that would open now or in the past (400, `joinMinutes`); a lottery whose registration opened (409, `sale`);
 * once joining opened, any change (409 naming the first setting that would change; the same settings again answer the
 * waiting room as it is).
 */
export async function setUpQueue(
  db: Db,
  channelId: number,
  saleId: number,
  settings: QueueSettings,
  now: Date,
  audit: CatalogueAudit,
): Promise<QueueView> {
  return writeInvalidating(db, async (tx, changed) => {
    const sale = await consoleSale(tx, channelId, saleId, true);
    // issue 35: priority purchase is for first-come sales; a sale with it gets no waiting room (409, `mode`).
    await refusePriorityForMode(tx, saleId);
    const current = await readAllocation(tx, channelId, saleId, true);
    const existing = asQueue(current);
    if (existing) {
      const opened = joinOpensAt(sale.saleStartTime, existing.joinMinutes);
      if (now.getTime() >= opened.getTime()) {
        const field = SETTING_FIELDS.find((f) => existing[f] !== settings[f]);
        if (field) throw new AppError(409, msg('opsQueueFrozen', { field, at: opened }), { field });
        return viewOf(tx, sale, existing, now);
      }
    }
    if (current?.mode === 'lottery' && current.registrationOpensAt && now.getTime() >= current.registrationOpensAt.getTime())
      throw new AppError(409, msg('opsQueueLottery'));
    const opens = joinOpensAt(sale.saleStartTime, settings.joinMinutes);
    if (opens.getTime() <= now.getTime()) throw new AppError(400, msg('opsQueueJoinOpensPast', { at: opens }));

    const before = existing ? await viewOf(tx, sale, existing, now) : { sale: sale.code, mode: current?.mode ?? 'first-come' };
    const values = {
      mode: 'queue',
      queueJoinMinutes: settings.joinMinutes,
      queueGraceSeconds: settings.graceSeconds,
      queueHoldSeconds: settings.holdSeconds,
      queueAdmissionSeconds: settings.admissionSeconds,
      queueAdmitPerSecond: settings.admitPerSecond,
      queueShuffledAt: null,
      updatedAt: now,
    };
    await tx
      .insert(saleAllocations)
      .values({ saleId, channelId, ...values, createdAt: now })
      .onConflictDoUpdate({ target: saleAllocations.saleId, set: values });
    const after = await viewOf(tx, sale, asQueue(await readAllocation(tx, channelId, saleId))!, now);
    // The buy's cached terms carry the allocation (lib/order/service.ts `readBuyTerms`): every process drops them.
    changed([tags.saleTerms(saleId)]);
    await audit(tx, { channelId, before, after });
    return after;
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// The admission token.

/** Keeps this HMAC apart from the server secret's other uses. */
const TOKEN_LABEL = 'queue-admission\0';

function signature(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret)
    .update(TOKEN_LABEL + payload)
    .digest();
}

/**
 * An admission: `<saleId>.<userId>.<expiry in ms>.<HMAC-SHA256 under AUTH_SECRET, base64url>`. Stateless: checking it
 * costs the buy no statement.
 */
export function signAdmission(saleId: number, userId: number, expiresAt: Date, secret: string = env().AUTH_SECRET): string {
  const payload = `${saleId}.${userId}.${expiresAt.getTime()}`;
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

/** Why an admission does not let this buyer buy this sale now (the refusal's `data.queue`). */
export type AdmissionProblem = 'missing' | 'forged' | 'otherSale' | 'otherBuyer' | 'expired';

export function checkAdmission(
  token: string | undefined,
  expected: { saleId: number; userId: number; now: Date },
  secret: string = env().AUTH_SECRET,
): { problem: AdmissionProblem; expiresAt?: Date } | null {
  const signed = signedFor(token, expected.saleId, secret);
  if ('problem' in signed) return signed;
  if (signed.userId !== expected.userId) return { problem: 'otherBuyer' };
  if (signed.expiresAt.getTime() <= expected.now.getTime()) return { problem: 'expired', expiresAt: signed.expiresAt };
  return null;
}

/**
 * The checks of an admission that come before its buyer's (`checkAdmission`'s order): there is one, it is signed by this
 * store, and it is for this sale. Then the buyer and the expiry it names.
 */
function signedFor(
  token: string | undefined,
  saleId: number,
  secret: string,
): { problem: 'missing' | 'forged' | 'otherSale' } | { userId: number; expiresAt: Date } {
  if (!token) return { problem: 'missing' };
  const match = /^(\d{1,12})\.(\d{1,12})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { problem: 'forged' };
  const [, sale, user, expiry, mac] = match as unknown as [string, string, string, string, string];
  const given = Buffer.from(mac, 'base64url');
  const wanted = signature(secret, `${sale}.${user}.${expiry}`);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { problem: 'forged' };
  if (Number(sale) !== saleId) return { problem: 'otherSale' };
  return { userId: Number(user), expiresAt: new Date(Number(expiry)) };
}

/** order/create's refusal of a queue sale's buy with this admission (409 `notAdmitted`, `data.queue` saying why), or null. */
export function admissionRefusal(token: string | undefined, expected: { saleId: number; userId: number; now: Date }): AppError | null {
  const checked = checkAdmission(token, expected);
  return checked ? refusalFor(checked.problem, checked.expiresAt) : null;
}

/**
 * The buy lane's door (lib/order/buy-gate.ts, issue 35): order/create's refusal of this admission when it is sure without
 * knowing the buyer (missing, not signed by this store, another sale's), else null. Another buyer's or an expired
 * admission is the buy's to answer: it is told apart by the buyer, whom the door does not know without a read, and
 * `checkAdmission` names another buyer's admission before its expiry.
 */
export function admissionRefusalAtDoor(token: string | undefined, saleId: number, secret: string = env().AUTH_SECRET): AppError | null {
  const signed = signedFor(token, saleId, secret);
  return 'problem' in signed ? refusalFor(signed.problem) : null;
}

function refusalFor(problem: AdmissionProblem, expiresAt?: Date): AppError {
  const data = { reason: REASON.notAdmitted, queue: problem };
  switch (problem) {
    case 'missing':
      return new AppError(409, msg('queueBuyMissing'), data);
    case 'forged':
      return new AppError(409, msg('queueBuyForged'), data);
    case 'otherSale':
      return new AppError(409, msg('queueBuyOtherSale'), data);
    case 'otherBuyer':
      return new AppError(409, msg('queueBuyOtherBuyer'), data);
    case 'expired':
      return new AppError(409, msg('queueBuyExpired', { at: expiresAt! }), data);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The queue: its snapshot in memory, its upkeep in the database.

type Outcome = 'waiting' | 'admitted' | 'bought' | 'expired' | 'left';

type SnapshotEntry = { outcome: Outcome; admissionExpiresAt: Date | null; ahead: number | null };

/** A sale's queue as one process last read it. */
export type Snapshot = {
  /** The `now` of the read (the request's clock). */
  at: number;
  saleId: number;
  channelId: number;
  settings: QueueSettings;
  startsAt: Date;
  endsAt: Date | null;
  closed: boolean;
  copiesLeft: number;
  shuffledAt: Date | null;
  entries: Map<number, SnapshotEntry>;
  waiting: number;
};

type SaleQueueState = {
  /** The last read (null: the sale has no waiting room) and its `now`. */
  snapshot: Snapshot | null;
  readAt: number;
  refreshing: Promise<Snapshot | null> | null;
  /** Buyers who polled since the last refresh: their `last_seen_at` is written at the next refresh, in one statement. */
  seen: Set<number>;
  /**
   * Joins made through this process, by buyer, with their JOIN_SEQ at the moment their row was written: a refresh
   * whose read began before that may not have them, and puts them back at the back of what it read.
   */
  joined: Map<number, number>;
  /**
   * The copies left as the last by-key read found them (`noteCopiesLeft`), with the READ_SEQ it began at: a refresh
   * that began before it keeps it, since its own read of the queue may be older (a watch reads the two apart).
   */
  copies: { seq: number; left: number } | null;
};

/** Orders the reads of a sale's copies left and the refreshes that began (see `copies`). */
let readSeq = 0;

/** Counts the joins this process wrote (see `joined`). */
let joinSeq = 0;

const states = new WeakMap<Db, Map<number, SaleQueueState>>();

function stateOf(db: Db, saleId: number): SaleQueueState {
  let bySale = states.get(db);
  if (!bySale) states.set(db, (bySale = new Map()));
  let state = bySale.get(saleId);
  if (!state)
    bySale.set(
      saleId,
      (state = {
        snapshot: null,
        readAt: Number.NEGATIVE_INFINITY,
        refreshing: null,
        seen: new Set(),
        joined: new Map(),
        copies: null,
      }),
    );
  return state;
}

type SnapshotRow = {
  channel_id: number;
  mode: string | null;
  join_minutes: number | null;
  grace_seconds: number | null;
  hold_seconds: number | null;
  admission_seconds: number | null;
  admit_per_second: number | null;
  shuffled_at: Date | string | null;
  starts_at: Date | string;
  ends_at: Date | string | null;
  closed: boolean;
  copies_left: number;
  user_id: number | null;
  outcome: Outcome | null;
  admission_expires_at: Date | string | null;
};

/** A time as a raw statement's parameter (postgres.js takes no Date there). */
const moment = (value: Date) => sql`${value.toISOString()}::timestamptz`;

const asDate = (value: Date | string | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));

function rowsOf(result: unknown): SnapshotRow[] {
  // postgres.js answers an array of rows; PGlite an object with `rows`.
  return (Array.isArray(result) ? result : (result as { rows: SnapshotRow[] }).rows) as SnapshotRow[];
}

/**
 * The sale's queue in one statement: its settings and copies left, and every entry in queue order: the shuffled early
 * arrivals by rank (an early join the shuffle missed after them), then later arrivals by arrival.
 */
async function readSnapshot(db: Db, saleId: number, now: Date): Promise<Snapshot | null> {
  const rows = rowsOf(
    await db.execute(sql`select s.channel_id, a.mode, a.queue_join_minutes as join_minutes, a.queue_grace_seconds as grace_seconds,
        a.queue_hold_seconds as hold_seconds, a.queue_admission_seconds as admission_seconds,
        a.queue_admit_per_second as admit_per_second, a.queue_shuffled_at as shuffled_at, s.sale_start_time as starts_at,
        s.sale_end_time as ends_at, (s.cancelled_at is not null or s.archived_at is not null) as closed,
        s.amount_available as copies_left, e.user_id, e.outcome, e.admission_expires_at
      from ${sales} s
      left join ${saleAllocations} a on a.sale_id = s.id
      left join ${queueEntries} e on e.sale_id = s.id
      where s.id = ${saleId}
      order by (e.joined_at >= s.sale_start_time + a.queue_grace_seconds * interval '1 second'), e.rank nulls last, e.joined_at, e.id`),
  );
  const first = rows[0];
  if (!first || first.mode !== 'queue') return null;
  const entries = new Map<number, SnapshotEntry>();
  let waiting = 0;
  for (const row of rows) {
    if (row.user_id === null || row.outcome === null) continue;
    entries.set(row.user_id, {
      outcome: row.outcome,
      admissionExpiresAt: asDate(row.admission_expires_at),
      ahead: row.outcome === 'waiting' ? waiting : null,
    });
    if (row.outcome === 'waiting') waiting++;
  }
  return {
    at: now.getTime(),
    saleId,
    channelId: first.channel_id,
    settings: {
      joinMinutes: first.join_minutes!,
      graceSeconds: first.grace_seconds!,
      holdSeconds: first.hold_seconds!,
      admissionSeconds: first.admission_seconds!,
      admitPerSecond: first.admit_per_second!,
    },
    startsAt: asDate(first.starts_at)!,
    endsAt: asDate(first.ends_at),
    closed: first.closed,
    copiesLeft: Number(first.copies_left),
    shuffledAt: asDate(first.shuffled_at),
    entries,
    waiting,
  };
}

/**
 * Writes the buyers seen since the last refresh (one statement), so a buyer who keeps polling keeps their place. It
 * holds the sale's allocation row, as the upkeep does, and skips when another process holds it (the buyers are
 * written at the next refresh): two processes' statements updating many of the queue's rows in different orders
 * deadlocked on PostgreSQL (`bench:drop` in `queue` mode with `BENCH_PROCESSES=2`), and a poll was answered 500.
 */
async function flushSeen(db: Db, state: SaleQueueState, saleId: number, now: Date): Promise<void> {
  if (state.seen.size === 0) return;
  const users = [...state.seen];
  state.seen.clear();
  const written = await db
    .transaction(async (tx) => {
      const [held] = await tx
        .select({ saleId: saleAllocations.saleId })
        .from(saleAllocations)
        .where(eq(saleAllocations.saleId, saleId))
        .for('update', { skipLocked: true });
      if (!held) return false;
      // A row seen within a third of the hold is left as it is: its place is safe until the next note, and rewriting
      // every watcher's row at every note (10,000 rows every 10 s) cost PostgreSQL 22 s of a 60 s drop
      // (`bench:drop`, queue mode, two processes) and grew the table the refreshes read.
      const holdSeconds = state.snapshot?.settings.holdSeconds;
      const fresh = holdSeconds ? sql` and last_seen_at < ${moment(new Date(now.getTime() - (holdSeconds * 1000) / 3))}` : sql``;
      await tx.execute(sql`update ${queueEntries} set last_seen_at = ${moment(now)}
      where sale_id = ${saleId} and outcome in ('waiting', 'admitted')${fresh}
        and user_id in (select (jsonb_array_elements_text(${JSON.stringify(users)}::jsonb))::integer)`);
      return true;
    })
    // Not written (another process holds the row, or the database refused): the buyers go in the next refresh's write.
    .catch((error: unknown) => {
      console.error(`[queue] writing the buyers seen of sale ${saleId} failed; the next refresh writes them`, error);
      return false;
    });
  if (!written) for (const user of users) state.seen.add(user);
}

/**
 * The queue's upkeep at `now`, once the opening plus the grace has passed: in one transaction holding the sale's
 * allocation row (a process that finds it held skips: another is doing it; `wait`: it waits, as for the shuffle), the
 * shuffle (once), then admitted buyers
 * who bought are marked so, admissions past their life expire, waiting buyers not seen for the hold time leave, and the
 * next waiting buyers are admitted: at most `admitPerSecond` in any second, and never more unused admissions than
 * copies left. Answers whether it ran.
 */
export async function queueUpkeep(db: Db, saleId: number, now: Date, options: { wait?: boolean } = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ ...settingColumns, startsAt: sales.saleStartTime, copiesLeft: sales.amountAvailable })
      .from(saleAllocations)
      .innerJoin(sales, eq(sales.id, saleAllocations.saleId))
      .where(eq(saleAllocations.saleId, saleId))
      // Skipped when another process holds it, but for the shuffle: every process waits for that one, so none answers
      // a place from before it.
      .for('update', options.wait ? { of: saleAllocations } : { of: saleAllocations, skipLocked: true });
    const queue = asQueue(row ?? null);
    if (!row || !queue) return false;
    const cutoff = shuffleAt(row.startsAt, queue.graceSeconds);
    if (now.getTime() < cutoff.getTime()) return false;
    if (!queue.shuffledAt) {
      // The shuffle, decided once: every early arrival ranked by the random key drawn at their join.
      await tx.execute(sql`update ${queueEntries} q set rank = r.n::integer
        from (select id, row_number() over (order by shuffle_key, id) as n from ${queueEntries}
          where sale_id = ${saleId} and joined_at < ${moment(cutoff)}) r
        where q.id = r.id`);
      await tx.update(saleAllocations).set({ queueShuffledAt: now }).where(eq(saleAllocations.saleId, saleId));
    }
    await tx.execute(sql`update ${queueEntries} e set outcome = case
          when exists (select 1 from orders o where o.sale_id = e.sale_id and o.user_id = e.user_id) then 'bought'
          when e.admission_expires_at <= ${moment(now)} then 'expired' else 'admitted' end
      where e.sale_id = ${saleId} and e.outcome = 'admitted'`);
    const holdFrom = new Date(now.getTime() - queue.holdSeconds * 1000);
    await tx.execute(sql`update ${queueEntries} set outcome = 'left'
      where sale_id = ${saleId} and outcome = 'waiting' and last_seen_at < ${moment(holdFrom)}`);
    // The copies left are read in the same statement as the unused admissions: read at the start, they missed the
    // orders made since, whose buyers the update above no longer counts as unused, and more were admitted than copies
    // were left (8 of 10,000 buyers on PostgreSQL in bench:drop's queue mode, admitted and then told sold out).
    const [counts] = rowsOf(
      await tx.execute(sql`select count(*) filter (where outcome = 'admitted')::integer as unused,
          count(*) filter (where admitted_at > ${moment(new Date(now.getTime() - 1000))})::integer as recent,
          (select amount_available from ${sales} where id = ${saleId}) as copies_left
        from ${queueEntries} where sale_id = ${saleId} and outcome in ('admitted', 'bought', 'expired')`),
    ) as unknown as [{ unused: number; recent: number; copies_left: number }];
    const budget = Math.min(queue.admitPerSecond - Number(counts.recent), Number(counts.copies_left) - Number(counts.unused));
    if (budget > 0) {
      const expires = new Date(now.getTime() + queue.admissionSeconds * 1000);
      await tx.execute(sql`update ${queueEntries} set outcome = 'admitted', admitted_at = ${moment(now)}, admission_expires_at = ${moment(expires)}
        where id in (select id from ${queueEntries}
          where sale_id = ${saleId} and outcome = 'waiting' and last_seen_at >= ${moment(holdFrom)}
          order by (joined_at >= ${moment(cutoff)}), rank nulls last, joined_at, id
          limit ${budget})`);
    }
    return true;
  });
}

/**
 * The process's snapshot of a sale's queue at `now`: the one in memory when younger than its life (`snapshotLife`),
 * else a fresh one (one refresh at a time per sale: callers meanwhile answer from the snapshot they have, up to
 * STALE_READ_MS past its life, or share the refresh when it is older or forced). A refresh writes the buyers seen, runs the upkeep once
 * the opening plus the grace has passed, and reads the queue in one statement.
 */
export async function snapshotOf(db: Db, saleId: number, now: Date, force = false): Promise<Snapshot | null> {
  const state = stateOf(db, saleId);
  const current = state.snapshot;
  // A sale without a waiting room is remembered as such too: polling one costs no statement either.
  const age = Math.abs(now.getTime() - state.readAt);
  const life = snapshotLife(current, now);
  if (!force && age < life) return current;
  // Another caller's refresh is in flight: a reader answers from the snapshot it has (a little older) rather than wait
  // for it. Under a crowd a refresh takes longer than SNAPSHOT_MS, a watch's ticks start one every SNAPSHOT_MS, and
  // every join waited for one or two of them (on PostgreSQL with two processes, joins p50 4.4 s). The caller who starts
  // a refresh, and any forced one, waits for it.
  if (!force && state.refreshing && current && age < life + STALE_READ_MS) return current;
  if (!state.refreshing) {
    state.refreshing = (async () => {
      const joinedBefore = joinSeq;
      const began = ++readSeq;
      await flushSeen(db, state, saleId, now);
      let known = current ?? (await readSnapshot(db, saleId, now));
      if (known && now.getTime() >= shuffleAt(known.startsAt, known.settings.graceSeconds).getTime()) {
        // A failed upkeep (the database busy, a transaction refused) fails no buyer's read: the next refresh runs it again.
        const ran = await queueUpkeep(db, saleId, now, { wait: known.shuffledAt === null }).catch((error: unknown) => {
          console.error(`[queue] the upkeep of sale ${saleId} failed; the next refresh runs it again`, error);
          return false;
        });
        if (ran) known = null;
      }
      const fresh = known && known !== current ? known : await readSnapshot(db, saleId, now);
      // Joins written while this refresh read: the read may not have them (their buyers would each cost a read and a
      // refresh more, a rush of joins a refresh after every join); they go back at the back of the queue as read.
      for (const [user, seq] of state.joined) {
        if (seq <= joinedBefore) {
          state.joined.delete(user);
          continue;
        }
        const read = fresh?.entries.get(user);
        if (fresh && (!read || read.outcome === 'left' || read.outcome === 'expired')) {
          fresh.entries.set(user, { outcome: 'waiting', admissionExpiresAt: null, ahead: fresh.waiting });
          fresh.waiting++;
        }
      }
      // The copies left read by key since this refresh began are at least as new as what it read.
      if (fresh && state.copies && state.copies.seq > began) fresh.copiesLeft = state.copies.left;
      state.snapshot = fresh;
      state.readAt = now.getTime();
      return fresh;
    })().finally(() => {
      state.refreshing = null;
    });
  }
  return state.refreshing;
}

/** The process's snapshot of a sale's queue as last read, without reading (null: none yet, or no waiting room). */
export function snapshotSeen(db: Db, saleId: number): Snapshot | null {
  return stateOf(db, saleId).snapshot;
}

/**
 * The sale's copies left, read by key into this process's snapshot of its queue (a watch's tick, lib/sale/queue-watch.ts):
 * every buyer in it reads sold out from then on, without waiting for the queue's next refresh. Answers the snapshot
 * when the figure changed.
 */
export async function noteCopiesLeft(db: Db, saleId: number): Promise<Snapshot | null> {
  const state = stateOf(db, saleId);
  if (!state.snapshot) return null;
  const seq = ++readSeq;
  const [row] = await db.select({ left: sales.amountAvailable }).from(sales).where(eq(sales.id, saleId));
  if (!row) return null;
  if (!state.copies || state.copies.seq < seq) state.copies = { seq, left: row.left };
  // The snapshot now in memory (a refresh may have replaced it meanwhile).
  const snapshot = state.snapshot;
  if (!snapshot || row.left === snapshot.copiesLeft) return null;
  snapshot.copiesLeft = row.left;
  return snapshot;
}

/** The buyer is still here (an open watch, lib/sale/queue-watch.ts): written with the next refresh's buyers seen. */
export function noteSeen(db: Db, saleId: number, userId: number): void {
  stateOf(db, saleId).seen.add(userId);
}

/**
 * A join here goes into this process's snapshot at once, at the back of the queue, as the next read of the database
 * will have it: the join is answered from memory, not by reading the whole queue again (a rush of joins before the
 * opening would otherwise read it once per join). A snapshot being read meanwhile may miss the join: then the buyer's
 * next read finds their row and reads the queue afresh (`queuePosition`).
 */
function noteJoined(db: Db, saleId: number, userId: number): void {
  const state = stateOf(db, saleId);
  state.joined.set(userId, ++joinSeq);
  const snapshot = state.snapshot;
  if (!snapshot) return;
  const known = snapshot.entries.get(userId);
  if (known && (known.outcome === 'waiting' || known.outcome === 'admitted' || known.outcome === 'bought')) return;
  snapshot.entries.set(userId, { outcome: 'waiting', admissionExpiresAt: null, ahead: snapshot.waiting });
  snapshot.waiting++;
}

/** A buyer's new entry: waiting, unranked, seen at its join. */
type NewEntry = { channelId: number; userId: number; joinedAt: Date; shuffleKey: string };
type PendingJoin = { entry: NewEntry; done: () => void; fail: (error: unknown) => void };

/** New entries waiting for their statement, per database handle and sale (a rush of joins: group commit). */
const joining = new WeakMap<Db, Map<number, { pending: PendingJoin[]; running: boolean }>>();

/** New entries written in one statement at most. */
const JOIN_BATCH_MAX = 500;

/**
 * Inserts a buyer's new entry; a clash (the buyer joined meanwhile, through another call or process) does nothing. In
 * a rush, joins gather while one batch's statement runs and go in the next together, so 1,000 buyers joining in a
 * second cost a few commits, not 1,000 one after the other (the embedded database commits one at a time), as the
 * lottery's registrations do (lib/sale/lottery.ts `registerStatement`). A lone join goes at once, in a batch of one.
 */
function insertJoin(db: Db, saleId: number, entry: NewEntry): Promise<void> {
  let bySale = joining.get(db);
  if (!bySale) joining.set(db, (bySale = new Map()));
  let line = bySale.get(saleId);
  if (!line) bySale.set(saleId, (line = { pending: [], running: false }));
  const queue = line;
  return new Promise<void>((done, fail) => {
    queue.pending.push({ entry, done, fail });
    if (!queue.running) void flushJoins(db, saleId, queue);
  });
}

async function flushJoins(db: Db, saleId: number, queue: { pending: PendingJoin[]; running: boolean }): Promise<void> {
  queue.running = true;
  try {
    while (queue.pending.length > 0) {
      const batch = queue.pending.splice(0, JOIN_BATCH_MAX);
      // One row per buyer: a double tap in the same batch is one entry. The rows go as one JSON parameter: building an
      // INSERT of 500 rows' values took the process more than the statement took the database (`bench:drop`, queue
      // mode, a CPU profile of the joins).
      const rows = new Map(
        batch.map(({ entry }) => [entry.userId, [entry.channelId, entry.userId, entry.joinedAt.toISOString(), entry.shuffleKey]]),
      );
      try {
        await db.execute(sql`insert into ${queueEntries} (sale_id, channel_id, user_id, joined_at, shuffle_key, last_seen_at, outcome)
          select ${saleId}::integer, (e->>0)::integer, (e->>1)::integer, (e->>2)::timestamptz, e->>3, (e->>2)::timestamptz, 'waiting'
          from jsonb_array_elements(${JSON.stringify([...rows.values()])}::jsonb) e
          on conflict do nothing`);
        for (const p of batch) p.done();
      } catch (error) {
        for (const p of batch) p.fail(error);
      }
    }
  } finally {
    queue.running = false;
  }
}

/** A buyer's place in a sale's waiting room, as `/market/api/queue/position` answers it. */
export type QueuePosition = {
  saleId: string;
  /**
   * notJoined; waiting: joined, before the shuffle (no place yet); queued: a place in the queue; admitted: may buy now
   * with `admission`; bought; expired: an admission not used in its life; left: not seen for the hold time; soldOut;
   * ended.
   */
  status: 'notJoined' | 'waiting' | 'queued' | 'admitted' | 'bought' | 'expired' | 'left' | 'soldOut' | 'ended';
  /** 1: the next admitted. Null unless queued. */
  position: number | null;
  ahead: number | null;
  /** Seconds until the buyer's likely admission (before the shuffle: until it). Null when not waiting. */
  estimatedWaitSeconds: number | null;
  copiesLeft: number;
  /** Everyone in the queue not yet admitted. */
  waiting: number;
  admission: string | null;
  admissionExpiresAt: Date | null;
  joinOpensAt: Date;
  shuffleAt: Date;
  pollSeconds: number;
};

/** A buyer's status in a snapshot and how many wait ahead when queued: what positionOf answers, without building it. */
export type Standing = { status: QueuePosition['status']; ahead: number | null };

export function standingIn(snapshot: Snapshot, userId: number, now: Date): Standing {
  const entry = snapshot.entries.get(userId);
  if (!entry) return { status: 'notJoined', ahead: null };
  if (entry.outcome === 'bought' || entry.outcome === 'left' || entry.outcome === 'expired') return { status: entry.outcome, ahead: null };
  if (snapshot.closed || (snapshot.endsAt && now.getTime() >= snapshot.endsAt.getTime())) return { status: 'ended', ahead: null };
  const started = now.getTime() >= snapshot.startsAt.getTime();
  if (started && snapshot.copiesLeft <= 0) return { status: 'soldOut', ahead: null };
  if (entry.outcome === 'admitted') {
    return { status: entry.admissionExpiresAt!.getTime() <= now.getTime() ? 'expired' : 'admitted', ahead: null };
  }
  if (!snapshot.shuffledAt) return { status: 'waiting', ahead: null };
  return { status: 'queued', ahead: entry.ahead ?? 0 };
}

export function positionOf(snapshot: Snapshot, userId: number, now: Date): QueuePosition {
  const shuffle = shuffleAt(snapshot.startsAt, snapshot.settings.graceSeconds);
  const base = {
    saleId: String(snapshot.saleId),
    position: null,
    ahead: null,
    estimatedWaitSeconds: null,
    copiesLeft: snapshot.copiesLeft,
    waiting: snapshot.waiting,
    admission: null,
    admissionExpiresAt: null,
    joinOpensAt: joinOpensAt(snapshot.startsAt, snapshot.settings.joinMinutes),
    shuffleAt: shuffle,
    pollSeconds: POLL_SECONDS,
  };
  const { status, ahead } = standingIn(snapshot, userId, now);
  switch (status) {
    case 'admitted': {
      const expiresAt = snapshot.entries.get(userId)!.admissionExpiresAt!;
      return { ...base, status, admission: signAdmission(snapshot.saleId, userId, expiresAt), admissionExpiresAt: expiresAt };
    }
    case 'waiting':
      return { ...base, status, estimatedWaitSeconds: Math.max(0, Math.ceil((shuffle.getTime() - now.getTime()) / 1000)) };
    case 'queued':
      return {
        ...base,
        status,
        position: ahead! + 1,
        ahead,
        estimatedWaitSeconds: Math.ceil(ahead! / snapshot.settings.admitPerSecond),
      };
    default:
      return { ...base, status };
  }
}

async function buyerSale(ctx: UserScope, saleId: number) {
  const [row] = await ctx.db
    .select({
      saleStartTime: sales.saleStartTime,
      saleEndTime: sales.saleEndTime,
      amountAvailable: sales.amountAvailable,
      cancelledAt: sales.cancelledAt,
      archivedAt: sales.archivedAt,
      mode: saleAllocations.mode,
      joinMinutes: saleAllocations.queueJoinMinutes,
    })
    .from(sales)
    .leftJoin(saleAllocations, eq(saleAllocations.saleId, sales.id))
    .where(and(eq(sales.id, saleId), eq(sales.channelId, ctx.channelId)));
  if (!row) throw new AppError(404, msg('saleNotFound'));
  if (row.mode !== 'queue') throw new AppError(404, msg('queueNone'));
  return row as typeof row & { joinMinutes: number };
}

/**
 * What a join reads: the sale and the buyer's entry, from the process's snapshot of the queue (at most SNAPSHOT_MS
 * old, as a position read answers), so a rush of joins before the opening costs no read each; without a snapshot of
 * the sale on this channel (no waiting room, another channel's sale), from the database, which names the refusal. An
 * entry written through another process since the snapshot is not seen here: its buyer's join then inserts nothing
 * (the unique index) and is answered their place.
 */
async function joinerView(
  ctx: UserScope,
  saleId: number,
): Promise<{ sale: Awaited<ReturnType<typeof buyerSale>>; known: { outcome: string } | null }> {
  const snapshot = await snapshotOf(ctx.db, saleId, ctx.now);
  if (snapshot && snapshot.channelId === ctx.channelId) {
    const sale = {
      saleStartTime: snapshot.startsAt,
      saleEndTime: snapshot.endsAt,
      amountAvailable: snapshot.copiesLeft,
      // The snapshot keeps whether the sale was cancelled or archived, not when: either closes joining.
      cancelledAt: snapshot.closed ? ctx.now : null,
      archivedAt: null,
      mode: 'queue',
      joinMinutes: snapshot.settings.joinMinutes,
    };
    return { sale, known: snapshot.entries.get(ctx.userId) ?? null };
  }
  const sale = await buyerSale(ctx, saleId);
  const [known] = await ctx.db
    .select({ outcome: queueEntries.outcome })
    .from(queueEntries)
    .where(and(eq(queueEntries.saleId, saleId), eq(queueEntries.userId, ctx.userId)));
  return { sale, known: known ?? null };
}

/**
 * The signed-in buyer joins a sale's waiting room (issue 35). Idempotent: a buyer in the queue (waiting, admitted or
 * bought) is answered their place; concurrent joins make one row (the unique index decides). A buyer who left or let
 * an admission expire joins again at the back. Refused: another channel's sale (404 `saleNotFound`), a sale without a
 * waiting room (404 `queueNone`), before joining opens (409 `queueNotOpen`), a sale over or sold out (409), and a
 * channel's real-name rule not met (1010, as buying).
 */
export async function joinQueue(ctx: UserScope, saleId: number): Promise<QueuePosition> {
  const { sale, known } = await joinerView(ctx, saleId);
  if (!known || known.outcome === 'left' || known.outcome === 'expired') {
    const opens = joinOpensAt(sale.saleStartTime, sale.joinMinutes);
    if (ctx.now.getTime() < opens.getTime()) throw new AppError(409, msg('queueNotOpen', { at: opens }));
    if (sale.cancelledAt || sale.archivedAt || (sale.saleEndTime && ctx.now.getTime() >= sale.saleEndTime.getTime()))
      throw new AppError(409, msg('queueEnded'), { reason: REASON.ended });
    if (ctx.now.getTime() >= sale.saleStartTime.getTime() && sale.amountAvailable <= 0)
      throw new AppError(409, msg('queueSoldOut'), { reason: REASON.soldOut });
    // Joining is a step to buying: the channel's real-name and age rules for a buy apply.
    await requireIdentity(ctx.db, { channel: await channelPolicyIn(ctx), userId: ctx.userId, action: 'buy', now: ctx.now });
    const fresh = {
      joinedAt: ctx.now,
      shuffleKey: randomBytes(16).toString('hex'),
      rank: null,
      lastSeenAt: ctx.now,
      outcome: 'waiting',
      admittedAt: null,
      admissionExpiresAt: null,
    };
    if (!known) {
      await insertJoin(ctx.db, saleId, {
        channelId: ctx.channelId,
        userId: ctx.userId,
        joinedAt: fresh.joinedAt,
        shuffleKey: fresh.shuffleKey,
      });
    } else {
      await ctx.db
        .update(queueEntries)
        .set(fresh)
        .where(
          and(eq(queueEntries.saleId, saleId), eq(queueEntries.userId, ctx.userId), sql`${queueEntries.outcome} in ('left', 'expired')`),
        );
    }
    noteJoined(ctx.db, saleId, ctx.userId);
  }
  return queuePosition(ctx, saleId);
}

/**
 * The signed-in buyer's place in a sale's waiting room, from this process's snapshot (no statement of its own unless
 * the snapshot is older than SNAPSHOT_MS, or the buyer is not in it: a join through another process since). Polling
 * keeps the buyer's place: they are noted seen, written at the next refresh.
 */
export async function queuePosition(ctx: UserScope, saleId: number): Promise<QueuePosition> {
  let snapshot = await snapshotOf(ctx.db, saleId, ctx.now);
  if (!snapshot || snapshot.channelId !== ctx.channelId) {
    await buyerSale(ctx, saleId); // 404 naming why
    throw new AppError(404, msg('queueNone'));
  }
  if (!snapshot.entries.has(ctx.userId)) {
    // Joined through another process since the snapshot was read? One indexed read says, and only then a fresh snapshot.
    const [row] = await ctx.db
      .select({ id: queueEntries.id })
      .from(queueEntries)
      .where(and(eq(queueEntries.saleId, saleId), eq(queueEntries.userId, ctx.userId)));
    if (row) snapshot = (await snapshotOf(ctx.db, saleId, ctx.now, true)) ?? snapshot;
  }
  const entry = snapshot.entries.get(ctx.userId);
  if (entry && (entry.outcome === 'waiting' || entry.outcome === 'admitted')) stateOf(ctx.db, saleId).seen.add(ctx.userId);
  return positionOf(snapshot, ctx.userId, ctx.now);
}
