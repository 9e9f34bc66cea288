import 'server-only';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  buyerAccountNumbers,
  channels,
  lotteryRanks,
  lotteryRegistrations,
  orders,
  saleAllocations,
  sales,
  type LotteryRoundJson,
} from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg, type ApiMessage } from '../procedure/messages';
import { REASON } from '../procedure/reasons';
import { preparedOn } from '../db/prepared';
import { cachedRead, tags, writeInvalidating } from '../cache/store';
import type { ChannelScope, UserScope } from '../procedure/scope';
import { identityRequirement, parseIdentityPolicy } from '../channel/identity-policy';
import { channelPolicyIn, requireIdentity } from '../identity/gate';
import { identityOf } from '../identity/records';
import { freshAccountNumber } from '../auth/account-numbers';
import { executedRows } from '../db/rows';
import type { CatalogueAudit } from './catalogue';
import { queueLotteryTexts } from './lottery-texts';
import { addLotteryRoundMessages } from './lottery-messages';
import { joinOpensAt } from './queue';
import { refusePriorityForMode } from './priority';
import {
  DrawInputError,
  PUBLIC_VALUE_MAX,
  canonicalJson,
  commitmentOf,
  makeSeed,
  normalisePublicValue,
  runDraw,
  type PublishedDraw,
} from './draw';

/**
 * The lottery's data (issue 35, "Lottery (抽签)"): its settings on a sale, buyers' registrations, the draw and what is
 * published. The draw itself is lib/sale/draw.ts (pure, shared with `npm run draw:verify`); this module keeps the rules
 * around it: registration only in its window, once per buyer (and once per identity where the channel asks a real name,
 * the database's unique indexes deciding a race), settings frozen once registration opened, one draw, only after its
 * time. docs/drops.md explains it to buyers and operators.
 *
 * The secret seed is read in one place only, the draw (`drawLottery`); every other read names its columns without it.
 */

export type LotterySettings = {
  registrationOpensAt: Date;
  registrationClosesAt: Date;
  drawAt: Date;
  purchaseWindowMinutes: number;
  publicValueSource: string;
};

/** A lottery's settings with its copies (N, the winners drawn: the sale's copies). */
type LotterySetup = LotterySettings & { copies: number };

/** What the draw publishes once it ran (null before). */
type DrawnColumns = { drawnAt: Date | null; publicValue: string | null; listHash: string | null };

/** A lottery as the console shows it (and the audit trail keeps): never the seed before the draw. */
export type LotteryView = LotterySetup &
  DrawnColumns & {
    sale: string;
    mode: 'lottery';
    commitment: string;
    /** Registration opened: the settings above can no longer change. */
    frozen: boolean;
    registrants: number;
    /** The purchase rounds opened so far (none before the draw). */
    rounds: LotteryRoundJson[];
  };

/** The columns every read but the draw's selects: the seed is not among them. */
const publicColumns = {
  saleId: saleAllocations.saleId,
  channelId: saleAllocations.channelId,
  mode: saleAllocations.mode,
  copies: saleAllocations.copies,
  registrationOpensAt: saleAllocations.registrationOpensAt,
  registrationClosesAt: saleAllocations.registrationClosesAt,
  drawAt: saleAllocations.drawAt,
  purchaseWindowMinutes: saleAllocations.purchaseWindowMinutes,
  publicValueSource: saleAllocations.publicValueSource,
  commitment: saleAllocations.commitment,
  publicValue: saleAllocations.publicValue,
  listHash: saleAllocations.listHash,
  published: saleAllocations.published,
  drawnAt: saleAllocations.drawnAt,
  ranked: saleAllocations.ranked,
  rounds: saleAllocations.rounds,
};

/** A lottery row with its settings present (the table's check constraint guarantees them for mode 'lottery'). */
type LotteryRow = LotterySetup &
  DrawnColumns & { saleId: number; channelId: number; commitment: string; published: string | null; rounds: LotteryRound[] };

type RawRow = { [K in keyof typeof publicColumns]: (typeof publicColumns)[K]['_']['data'] | null };

function asLottery(row: RawRow | undefined): LotteryRow | null {
  if (!row || row.mode !== 'lottery') return null;
  // The check constraint `sale_allocations_lottery_settings` holds every setting of a lottery row non-null.
  return { ...(row as Omit<LotteryRow, 'rounds'>), rounds: lotteryRoundsOf(row.rounds) };
}

async function readLottery(db: Db, channelId: number, saleId: number, lock = false): Promise<LotteryRow | null> {
  const query = db
    .select(publicColumns)
    .from(saleAllocations)
    .where(and(eq(saleAllocations.saleId, saleId), eq(saleAllocations.channelId, channelId)));
  const [row] = lock ? await query.for('update') : await query;
  return asLottery(row);
}

async function registrantCount(db: Db, saleId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(lotteryRegistrations).where(eq(lotteryRegistrations.saleId, saleId));
  return Number(row?.n ?? 0);
}

/** A lottery's settings and commitment, as both the console and the public read them. */
function setupOf(row: LotteryRow): LotterySetup & { commitment: string } {
  return {
    copies: row.copies,
    registrationOpensAt: row.registrationOpensAt,
    registrationClosesAt: row.registrationClosesAt,
    drawAt: row.drawAt,
    purchaseWindowMinutes: row.purchaseWindowMinutes,
    publicValueSource: row.publicValueSource,
    commitment: row.commitment,
  };
}

async function viewOf(db: Db, code: string, row: LotteryRow, now: Date): Promise<LotteryView> {
  return {
    sale: code,
    mode: 'lottery',
    ...setupOf(row),
    frozen: now.getTime() >= row.registrationOpensAt.getTime(),
    registrants: await registrantCount(db, row.saleId),
    drawnAt: row.drawnAt,
    publicValue: row.publicValue,
    listHash: row.listHash,
    rounds: row.rounds.map(roundJson),
  };
}

async function consoleSale(db: Db, channelId: number, saleId: number): Promise<{ code: string; amount: number }> {
  const [sale] = await db
    .select({ code: sales.code, amount: sales.amount })
    .from(sales)
    .where(and(eq(sales.id, saleId), eq(sales.channelId, channelId)));
  if (!sale) throw new AppError(404, msg('opsSaleNotFound'));
  return sale;
}

/** The console's view of a sale's lottery, or null when the sale goes first come. */
export async function findLottery(db: Db, channelId: number, saleId: number, now: Date): Promise<LotteryView | null> {
  const sale = await consoleSale(db, channelId, saleId);
  const row = await readLottery(db, channelId, saleId);
  return row ? viewOf(db, sale.code, row, now) : null;
}

/** The settings that decide the draw, in the order a refusal names the first that would change. */
const FROZEN_FIELDS = [
  'copies',
  'registrationOpensAt',
  'registrationClosesAt',
  'drawAt',
  'purchaseWindowMinutes',
  'publicValueSource',
] as const;
type FrozenField = (typeof FROZEN_FIELDS)[number];

function changedField(row: LotteryRow, next: LotterySettings & { copies: number }): FrozenField | null {
  for (const field of FROZEN_FIELDS) {
    const a = row[field];
    const b = next[field];
    const same = a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
    if (!same) return field;
  }
  return null;
}

/**
 * Sets up a lottery on a sale, or changes its settings before registration opens (console, issue 35). The winners' count
 * is the sale's copies. The seed and its commitment are made at the first setup, so the commitment is public before
 * anyone can register; a change before the opening keeps them. Refused: an opening not in the future (400,
 * `registrationOpensAt`), a close not after it (`registrationClosesAt`), a draw before the close (`drawAt`), a sale
 * with orders (`sale`); once registration opened, any change of a setting that decides the draw (409 naming it; the
 * same settings again answer the lottery as it is).
 */
export async function setUpLottery(
  db: Db,
  channelId: number,
  saleId: number,
  settings: LotterySettings,
  now: Date,
  audit: CatalogueAudit,
): Promise<LotteryView> {
  return writeInvalidating(db, async (tx, changed) => {
    const [sale] = await tx
      .select({ code: sales.code, amount: sales.amount, startTime: sales.saleStartTime })
      .from(sales)
      .where(and(eq(sales.id, saleId), eq(sales.channelId, channelId)))
      .for('update');
    if (!sale) throw new AppError(404, msg('opsSaleNotFound'));
    // issue 35: priority purchase is for first-come sales; a sale with it is not made a lottery (409, `mode`).
    await refusePriorityForMode(tx, saleId);
    // A waiting room whose joining opened has buyers in its queue: it stays one (lib/sale/queue.ts).
    const [queue] = await tx
      .select({ joinMinutes: saleAllocations.queueJoinMinutes })
      .from(saleAllocations)
      .where(and(eq(saleAllocations.saleId, saleId), eq(saleAllocations.mode, 'queue')));
    if (queue) {
      const opened = joinOpensAt(sale.startTime, queue.joinMinutes!);
      if (now.getTime() >= opened.getTime()) throw new AppError(409, msg('opsLotteryQueueOpen', { at: opened }));
    }
    const existing = await readLottery(tx, channelId, saleId, true);
    const next = { ...settings, copies: existing && now >= existing.registrationOpensAt ? existing.copies : sale.amount };
    if (existing && now.getTime() >= existing.registrationOpensAt.getTime()) {
      const field = changedField(existing, next);
      if (field) throw new AppError(409, msg('opsLotteryFrozen', { field, at: existing.registrationOpensAt }), { field });
      return viewOf(tx, sale.code, existing, now);
    }
    if (settings.registrationOpensAt.getTime() <= now.getTime()) throw new AppError(400, msg('opsLotteryOpensPast'));
    if (settings.registrationClosesAt.getTime() <= settings.registrationOpensAt.getTime())
      throw new AppError(400, msg('opsLotteryClosesBeforeOpening'));
    if (settings.drawAt.getTime() < settings.registrationClosesAt.getTime()) throw new AppError(400, msg('opsLotteryDrawBeforeClose'));
    const [ordered] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.saleId, saleId)).limit(1);
    if (ordered) throw new AppError(400, msg('opsLotteryHasOrders'));

    // A new lottery's `before` is the sale as it went: first come.
    const before = existing ? await viewOf(tx, sale.code, existing, now) : { sale: sale.code, mode: 'first-come' };
    const values = {
      mode: 'lottery',
      copies: next.copies,
      registrationOpensAt: settings.registrationOpensAt,
      registrationClosesAt: settings.registrationClosesAt,
      drawAt: settings.drawAt,
      purchaseWindowMinutes: settings.purchaseWindowMinutes,
      publicValueSource: settings.publicValueSource,
      updatedAt: now,
    };
    if (existing) {
      await tx.update(saleAllocations).set(values).where(eq(saleAllocations.saleId, saleId));
    } else {
      const seed = makeSeed();
      await tx
        .insert(saleAllocations)
        .values({ saleId, channelId, ...values, seed, commitment: commitmentOf(seed), createdAt: now })
        // A first-come row (none is written yet, but the mode is the table's) becomes a lottery with a fresh seed.
        .onConflictDoUpdate({ target: saleAllocations.saleId, set: { ...values, seed, commitment: commitmentOf(seed) } });
    }
    const after = await viewOf(tx, sale.code, (await readLottery(tx, channelId, saleId))!, now);
    // The buy's cached terms carry the lottery (lib/order/service.ts `readBuyTerms`): every process drops them.
    changed([tags.saleTerms(saleId)]);
    await audit(tx, { channelId, before, after });
    return after;
  });
}

/**
 * Keeps a lottery's copies (the draw's N) in step with its sale's: the sale's edit and its stock adjustment call this in
 * their transaction after writing the sale. Before registration opens the lottery follows the sale; after, a change of
 * the sale's copies is refused (409, `copies`), which rolls the sale's write back.
 */
export async function followSaleCopies(db: Db, saleId: number, now: Date): Promise<void> {
  const [row] = await db
    .select({ opensAt: saleAllocations.registrationOpensAt, copies: saleAllocations.copies, amount: sales.amount })
    .from(saleAllocations)
    .innerJoin(sales, eq(sales.id, saleAllocations.saleId))
    .where(and(eq(saleAllocations.saleId, saleId), eq(saleAllocations.mode, 'lottery')));
  if (!row || row.copies === row.amount) return;
  if (row.opensAt && now.getTime() >= row.opensAt.getTime()) {
    throw new AppError(409, msg('opsLotteryCopiesFrozen', { at: row.opensAt }));
  }
  await db.update(saleAllocations).set({ copies: row.amount, updatedAt: now }).where(eq(saleAllocations.saleId, saleId));
}

/** A buyer's standing in a sale's lottery (issue 35, "Buyers see: registered, drawn / not drawn, their purchase window"). */
export type LotteryStatus = {
  saleId: string;
  status: 'notRegistered' | 'registered' | 'winner' | 'waitlist';
  drawn: boolean;
  /** The buyer may buy now: a winner within their purchase window (the sale's own window, pause and stock still apply). */
  mayBuy: boolean;
  accountNumber: string | null;
  registeredAt: Date | null;
  /** The purchase round that admitted the buyer: 1 for the draw's winners, 2 on for the waitlist's turns; null otherwise. */
  round: number | null;
  /** An admitted buyer's purchase window's end: their round's opening plus the window. */
  purchaseEndsAt: Date | null;
  /** A waitlisted buyer's place among those still waiting, 1 next. */
  waitlistPosition: number | null;
  registrationOpensAt: Date;
  registrationClosesAt: Date;
  drawAt: Date;
  commitment: string;
};

/**
 * The lottery of a channel's sale as buyers' calls read it: from the process's tagged cache (lib/cache/store.ts), as the
 * buy's terms are, dropped in every process by the tag `sale-terms:<id>` that the setup, the draw and each round write.
 * A registration rush then reads no sale and no settings. 404: another channel's sale, or a first-come one.
 */
async function buyerLottery(ctx: ChannelScope, saleId: number): Promise<LotteryRow> {
  const read = await cachedRead(ctx.db, `lottery-terms:${ctx.channelId}:${saleId}`, [tags.saleTerms(saleId)], async () => {
    const [sale] = await ctx.db
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(sales.id, saleId), eq(sales.channelId, ctx.channelId)));
    return { sale: Boolean(sale), lottery: sale ? await readLottery(ctx.db, ctx.channelId, saleId) : null };
  });
  if (!read.sale) throw new AppError(404, msg('saleNotFound'));
  if (!read.lottery) throw new AppError(404, msg('lotteryNone'));
  return read.lottery;
}

type Registration = { accountNumber: string; createdAt: Date; rank: number | null };

/** A registration's rank: the draw's row of its account number (none before the draw). */
const rankOfRegistration = and(
  eq(lotteryRanks.saleId, lotteryRegistrations.saleId),
  eq(lotteryRanks.accountNumber, lotteryRegistrations.accountNumber),
);

async function registrationOf(db: Db, saleId: number, userId: number): Promise<Registration | null> {
  const [row] = await db
    .select({
      accountNumber: lotteryRegistrations.accountNumber,
      createdAt: lotteryRegistrations.createdAt,
      rank: lotteryRanks.rank,
    })
    .from(lotteryRegistrations)
    .leftJoin(lotteryRanks, rankOfRegistration)
    .where(and(eq(lotteryRegistrations.saleId, saleId), eq(lotteryRegistrations.userId, userId)))
    .limit(1);
  return row ?? null;
}

/**
 * What a buy needs of a sale's lottery: carried in the sale's cached buy terms (lib/order/service.ts `readBuyTerms`,
 * dropped by the tag `sale-terms:<id>` when the lottery is set up or drawn), so a first-come sale's buy reads nothing
 * more and a lottery sale's reads only the buyer's rank (`lotteryRankOf`).
 */
export type LotteryBuyTerms = { drawAt: Date; drawnAt: Date | null; rounds: LotteryRound[] };

/**
 * A purchase round (issue 35: "winners buy within a purchase window ... copies not bought by its end go down the
 * waitlist, round by round, until sold or the list ends"): the registrants ranked `from` to `through` may buy from
 * `opensAt` until `endsAt`. Round 1 is the winners' (ranks 1 to N) from the draw; the jobs open the next when a round
 * has ended with copies left (`openLotteryRounds`).
 */
export type LotteryRound = { round: number; from: number; through: number; opensAt: Date; endsAt: Date };

export function lotteryRoundsOf(json: LotteryRoundJson[] | null): LotteryRound[] {
  return (json ?? []).map((r) => ({ ...r, opensAt: new Date(r.opensAt), endsAt: new Date(r.endsAt) }));
}

const minutesAfter = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

const roundJson = (r: LotteryRound): LotteryRoundJson => ({ ...r, opensAt: r.opensAt.toISOString(), endsAt: r.endsAt.toISOString() });

/** Why a buyer may not buy a lottery sale now, as the refusal's `data.lottery` (with `reason: notAdmitted`). */
export type LotteryRefusal = 'notRegistered' | 'notDrawn' | 'waitlist' | 'windowOver';

/** A buyer's standing in a lottery at `now`: their status, their window or place, and why they may not buy now (or null). */
export type LotteryStanding = {
  status: LotteryStatus['status'];
  /** The purchase round that admits the buyer (1: the winners'), or null while they are not admitted. */
  round: number | null;
  purchaseEndsAt: Date | null;
  waitlistPosition: number | null;
  /** Why the buyer may not buy now (the refusal's `data.lottery`); null: a winner within their purchase window. */
  refused: LotteryRefusal | null;
  /** order/create's refusal of this buyer now (409 `notAdmitted`), or null. */
  refusal: AppError | null;
};

function refusal(lottery: LotteryRefusal, message: ApiMessage): AppError {
  return new AppError(409, message, { reason: REASON.notAdmitted, lottery });
}

/**
 * The lottery's admission (issue 35: "winners buy within a purchase window"): only a registrant whose rank a purchase
 * round admits may buy, from the round's opening until its end: the first N (the sale's copies at the draw) from the
 * draw, then, round by round, the next on the waitlist as copies are left. Everyone else is refused 409 `notAdmitted`,
 * `data.lottery` saying why: not registered for this sale's draw (a winner of another sale's draw included), not drawn
 * yet, waitlisted (with their place among those still waiting), or their round over.
 */
export function lotteryStanding(lottery: LotteryBuyTerms, registration: { rank: number | null } | null, now: Date): LotteryStanding {
  const none = { round: null, purchaseEndsAt: null, waitlistPosition: null };
  if (!registration)
    return {
      status: 'notRegistered',
      ...none,
      refused: 'notRegistered',
      refusal: refusal('notRegistered', msg('lotteryBuyNotRegistered')),
    };
  const rank = registration.rank;
  if (lottery.drawnAt === null || rank === null) {
    return {
      status: 'registered',
      ...none,
      refused: 'notDrawn',
      refusal: refusal('notDrawn', msg('lotteryBuyNotDrawn', { at: lottery.drawAt })),
    };
  }
  const round = lottery.rounds.find((r) => rank >= r.from && rank <= r.through);
  if (!round) {
    const position = rank - (lottery.rounds.at(-1)?.through ?? 0);
    return {
      status: 'waitlist',
      ...none,
      waitlistPosition: position,
      refused: 'waitlist',
      refusal: refusal('waitlist', msg('lotteryBuyWaitlisted', { position })),
    };
  }
  const over = now.getTime() >= round.endsAt.getTime();
  return {
    status: 'winner',
    round: round.round,
    purchaseEndsAt: round.endsAt,
    waitlistPosition: null,
    refused: over ? 'windowOver' : null,
    refusal: over ? refusal('windowOver', msg('lotteryBuyWindowOver', { at: round.endsAt })) : null,
  };
}

/**
 * The buyer's registration in a sale's lottery (its rank, null before the draw), or null when they did not register:
 * one statement, prepared: the unique index on (sale, user), then the rank by (sale, account number). The buy and the pay page's state ask it, for lottery sales only.
 */
export async function lotteryRankOf(db: Db, saleId: number, userId: number): Promise<{ rank: number | null } | null> {
  const [row] = await preparedOn(db, 'lottery_rank', (handle: Db) =>
    handle
      .select({ rank: lotteryRanks.rank })
      .from(lotteryRegistrations)
      .leftJoin(lotteryRanks, rankOfRegistration)
      .where(and(eq(lotteryRegistrations.saleId, sql.placeholder('saleId')), eq(lotteryRegistrations.userId, sql.placeholder('userId'))))
      .limit(1)
      .prepare('lottery_rank'),
  ).execute({ saleId, userId });
  return row ?? null;
}

function statusOf(row: LotteryRow, registration: Registration | null, now: Date): LotteryStatus {
  const standing = lotteryStanding(row, registration, now);
  return {
    saleId: String(row.saleId),
    status: standing.status,
    drawn: row.drawnAt !== null,
    mayBuy: standing.refusal === null,
    accountNumber: registration?.accountNumber ?? null,
    registeredAt: registration?.createdAt ?? null,
    round: standing.round,
    purchaseEndsAt: standing.purchaseEndsAt,
    waitlistPosition: standing.waitlistPosition,
    registrationOpensAt: row.registrationOpensAt,
    registrationClosesAt: row.registrationClosesAt,
    drawAt: row.drawAt,
    commitment: row.commitment,
  };
}

/** The signed-in buyer's standing in a sale's lottery. 404 for another channel's sale (`saleId`) or a first-come one. */
export async function lotteryStatus(ctx: UserScope, saleId: number): Promise<LotteryStatus> {
  const row = await buyerLottery(ctx, saleId);
  return statusOf(row, await registrationOf(ctx.db, saleId, ctx.userId), ctx.now);
}

/**
 * Registers the signed-in buyer for a sale's lottery (issue 35: "a buyer registers once (per identity where the channel
 * requires real-name; per account otherwise); registering is idempotent and cheap"). A buyer already registered is
 * answered their registration, whenever they ask. Otherwise refused: before the window (409 `lotteryNotOpen`), after it
 * (409 `lotteryClosed`), a channel's real-name rule the buyer has not met (1010, as buying), and an identity already
 * registered through another account (409 `lotteryIdentityRegistered`). Concurrent tries make one row: the insert does
 * nothing on a clash and the row that won is read back.
 */
export async function registerForLottery(ctx: UserScope, saleId: number): Promise<LotteryStatus> {
  const row = await buyerLottery(ctx, saleId);
  const at = ctx.now.getTime();
  const inWindow = at >= row.registrationOpensAt.getTime() && at < row.registrationClosesAt.getTime();
  const channel = await channelPolicyIn(ctx);
  const requirement = identityRequirement(parseIdentityPolicy(channel.identityPolicy), 'buy');
  let identityHash: string | null = null;
  if (requirement.realName) {
    // Under a real-name rule a registered buyer is answered before their identity is asked again.
    const known = await registrationOf(ctx.db, saleId, ctx.userId);
    if (known) return statusOf(row, known, ctx.now);
    if (!inWindow) throw windowRefusal(row, ctx.now);
    // Registering is a step to buying: the channel's real-name and age rules for a buy apply (a refused buyer registers nothing).
    await requireIdentity(ctx.db, { channel, userId: ctx.userId, action: 'buy', now: ctx.now });
    identityHash = (await identityOf(ctx.db, ctx.userId))?.idHash ?? null;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await registerStatement(ctx, saleId, { inWindow, identityHash });
    if (answer.registration) return statusOf(row, answer.registration, ctx.now);
    if (!inWindow) throw windowRefusal(row, ctx.now);
    // No number and no registration: the fresh account number drawn was another buyer's (1 in 10^9); draw again.
    if (answer.accountNumber === null) continue;
    // A number but no row of this buyer's: the insert clashed with the same identity registered through another account.
    throw new AppError(409, msg('lotteryIdentityRegistered'));
  }
  throw new Error(`no free account number for user ${ctx.userId} on channel ${ctx.channelId} after 3 draws`);
}

/** Registration's window refusal at `now`: not open yet, or closed. */
function windowRefusal(row: LotteryRow, now: Date): AppError {
  return now.getTime() < row.registrationOpensAt.getTime()
    ? new AppError(409, msg('lotteryNotOpen', { at: row.registrationOpensAt }))
    : new AppError(409, msg('lotteryClosed', { at: row.registrationClosesAt }));
}

type RegisterAnswer = { registration: Registration | null; accountNumber: string | null };
type PendingRegistration = {
  userId: number;
  inWindow: boolean;
  identityHash: string | null;
  now: Date;
  answer: (value: RegisterAnswer) => void;
  fail: (error: unknown) => void;
};

/**
 * Registrations waiting for their statement, per database handle and sale. A rush of registrations is written in
 * batches: while one batch's statement runs, the next calls gather, and go in the next statement together (group
 * commit), so 256 buyers registering at once cost a few statements, not 256 commits one after the other (the embedded
 * database commits one at a time). A lone registration goes at once, in a batch of one.
 */
const registering = new WeakMap<Db, Map<string, { pending: PendingRegistration[]; running: boolean }>>();

function registerStatement(
  ctx: UserScope,
  saleId: number,
  input: { inWindow: boolean; identityHash: string | null },
): Promise<RegisterAnswer> {
  let bySale = registering.get(ctx.db);
  if (!bySale) registering.set(ctx.db, (bySale = new Map()));
  const key = `${ctx.channelId}:${saleId}`;
  let line = bySale.get(key);
  if (!line) bySale.set(key, (line = { pending: [], running: false }));
  const queue = line;
  return new Promise<RegisterAnswer>((answer, fail) => {
    queue.pending.push({ userId: ctx.userId, ...input, now: ctx.now, answer, fail });
    if (!queue.running) void flushRegistrations(ctx.db, ctx.channelId, saleId, queue);
  });
}

async function flushRegistrations(
  db: Db,
  channelId: number,
  saleId: number,
  queue: { pending: PendingRegistration[]; running: boolean },
): Promise<void> {
  queue.running = true;
  try {
    while (queue.pending.length > 0) {
      const batch = queue.pending.splice(0, REGISTER_BATCH_MAX);
      try {
        const answers = await registerBatch(db, channelId, saleId, batch);
        for (const p of batch) p.answer(answers.get(p.userId) ?? { registration: null, accountNumber: null });
      } catch (error) {
        for (const p of batch) p.fail(error);
      }
    }
  } finally {
    queue.running = false;
  }
}

/** Registrations written in one statement at most. */
const REGISTER_BATCH_MAX = 500;

/**
 * Registrations in ONE statement (issue 35: "registering is idempotent and cheap"): each buyer's account number on the
 * channel (made when they have none, lib/auth/account-numbers.ts), their registration inserted when the window was open
 * at their call (a clash on the buyer, on the number or on the identity does nothing), and every buyer's registration
 * read back, made now or before. A buyer's `accountNumber` null: none could be made (the fresh number was taken).
 */
async function registerBatch(
  db: Db,
  channelId: number,
  saleId: number,
  batch: PendingRegistration[],
): Promise<Map<number, RegisterAnswer>> {
  // One row per buyer: a double tap in the same batch is one registration, answered to both.
  const rows = new Map<number, { user_id: number; number: string; identity_hash: string | null; in_window: boolean; at: string }>();
  for (const p of batch)
    if (!rows.has(p.userId))
      rows.set(p.userId, {
        user_id: p.userId,
        number: freshAccountNumber(),
        identity_hash: p.identityHash,
        in_window: p.inWindow,
        at: p.now.toISOString(),
      });
  const result = await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify([...rows.values()])}::jsonb)
        as t(user_id integer, number text, identity_hash text, in_window boolean, at timestamptz)
    ), fresh as (
      insert into ${buyerAccountNumbers} (channel_id, user_id, number, created_at)
      select ${channelId}::integer, input.user_id, input.number, input.at from input
      where not exists (select 1 from ${buyerAccountNumbers} b where b.channel_id = ${channelId} and b.user_id = input.user_id)
      on conflict do nothing
      returning user_id, number
    ), account as (
      select user_id, number from fresh
      union all
      select b.user_id, b.number from ${buyerAccountNumbers} b join input on b.user_id = input.user_id where b.channel_id = ${channelId}
    ), made as (
      insert into ${lotteryRegistrations} (sale_id, channel_id, user_id, account_number, identity_hash, created_at)
      select ${saleId}::integer, ${channelId}::integer, input.user_id, account.number, input.identity_hash, input.at
      from input join account on account.user_id = input.user_id
      where input.in_window
      on conflict do nothing
      returning user_id, account_number, created_at
    )
    select user_id, account_number, created_at, null::integer as rank from made
    union all
    select r.user_id, r.account_number, r.created_at, k.rank
      from ${lotteryRegistrations} r join input on r.user_id = input.user_id
      left join ${lotteryRanks} k on k.sale_id = r.sale_id and k.account_number = r.account_number
      where r.sale_id = ${saleId}
    union all
    select user_id, number, null, null from account
  `);
  const answers = new Map<number, RegisterAnswer>();
  for (const userId of rows.keys()) answers.set(userId, { registration: null, accountNumber: null });
  for (const r of executedRows<{ user_id: number; account_number: string; created_at: string | Date | null; rank: number | null }>(
    result,
  )) {
    const answer = answers.get(Number(r.user_id))!;
    answer.accountNumber ??= r.account_number;
    if (r.created_at !== null && !answer.registration)
      answer.registration = { accountNumber: r.account_number, createdAt: new Date(r.created_at), rank: r.rank };
  }
  return answers;
}

/** A sale's lottery as anyone may read it (the verify page, `npm run draw:verify`): the draw once it ran. */
export type PublishedLottery = LotterySetup & {
  saleId: string;
  commitment: string;
  registrants: number;
  drawnAt: Date | null;
  draw: PublishedDraw | null;
};

/** What is public of a sale's lottery: the commitment from the setup, the whole draw after it. */
export async function publishedLottery(ctx: ChannelScope, saleId: number): Promise<PublishedLottery> {
  const row = await buyerLottery(ctx, saleId);
  return {
    saleId: String(row.saleId),
    ...setupOf(row),
    registrants: await registrantCount(ctx.db, saleId),
    drawnAt: row.drawnAt,
    draw: row.published === null ? null : (JSON.parse(row.published) as PublishedDraw),
  };
}

/**
 * The draw (console, issue 35): the operator enters the public value; every registrant is ranked by lib/sale/draw.ts
 * `runDraw` over their account numbers; the ranks, the seed (now revealed), the value, the list hash and the published
 * file are stored in one transaction. Refused: before the draw's time (409, which is at or after registration's close),
 * a second draw (409), a value empty or too long (400, `publicValue`).
 */
export async function drawLottery(
  db: Db,
  channelId: number,
  saleId: number,
  publicValue: string,
  now: Date,
  audit: CatalogueAudit,
): Promise<{ lottery: LotteryView; draw: PublishedDraw }> {
  try {
    normalisePublicValue(publicValue);
  } catch (error) {
    if (error instanceof DrawInputError) throw new AppError(400, msg('opsLotteryPublicValue', { max: PUBLIC_VALUE_MAX }));
    throw error;
  }
  return writeInvalidating(db, async (tx, changed) => {
    const sale = await consoleSale(tx, channelId, saleId);
    const row = await readLottery(tx, channelId, saleId, true);
    if (!row) throw new AppError(404, msg('opsLotteryNone'));
    if (row.drawnAt) throw new AppError(409, msg('opsLotteryDrawnAlready', { at: row.drawnAt }));
    if (now.getTime() < row.drawAt.getTime()) throw new AppError(409, msg('opsLotteryDrawTooEarly', { at: row.drawAt }));
    const before = await viewOf(tx, sale.code, row, now);

    // The one read of the seed.
    const [secret] = await tx.select({ seed: saleAllocations.seed }).from(saleAllocations).where(eq(saleAllocations.saleId, saleId));
    const [channel] = await tx.select({ key: channels.key }).from(channels).where(eq(channels.id, channelId));
    const registrants = await tx
      .select({ accountNumber: lotteryRegistrations.accountNumber })
      .from(lotteryRegistrations)
      .where(eq(lotteryRegistrations.saleId, saleId));
    const draw = runDraw({
      saleId: String(saleId),
      channelKey: channel!.key,
      copies: row.copies,
      seed: secret!.seed!,
      publicValue,
      publicValueSource: row.publicValueSource,
      accountNumbers: registrants.map((r) => r.accountNumber),
    });
    const ranked = [...draw.winners, ...draw.waitlist];
    if (ranked.length > 0) {
      // One INSERT for every rank, the list passed as one JSON parameter (100,000 registrants are one round trip, and
      // inserting them costs a fraction of updating as many registrations: docs/benchmarks.md, "The draw").
      await tx.execute(sql`insert into ${lotteryRanks} (sale_id, rank, account_number)
        select ${saleId}::integer, ranked.ordinality::integer, ranked.account_number
        from jsonb_array_elements_text(${JSON.stringify(ranked)}::jsonb) with ordinality as ranked(account_number, ordinality)`);
    }
    // Round 1: the winners, from the draw for the purchase window.
    const first: LotteryRound[] =
      ranked.length === 0
        ? []
        : [{ round: 1, from: 1, through: draw.winners.length, opensAt: now, endsAt: minutesAfter(now, row.purchaseWindowMinutes) }];
    await tx
      .update(saleAllocations)
      .set({
        publicValue: draw.publicValue,
        listHash: draw.listHash,
        published: canonicalJson(draw),
        drawnAt: now,
        ranked: ranked.length,
        rounds: first.map(roundJson),
        updatedAt: now,
      })
      .where(eq(saleAllocations.saleId, saleId));
    // The winners are told (issue 35: "notices tell winners"), by a text queued with the draw and a message in their
    // inbox (one statement for all of them).
    for (const round of first) {
      await queueLotteryTexts(tx, { saleId, ...round }, now);
      await addLotteryRoundMessages(tx, { saleId, ...round }, now);
    }
    // The lottery as it now is, from what was just written (reading back the published file would cost its megabytes).
    const after: LotteryView = {
      ...before,
      drawnAt: now,
      publicValue: draw.publicValue,
      listHash: draw.listHash,
      rounds: first.map(roundJson),
    };
    // The buy's cached terms carry the lottery (lib/order/service.ts `readBuyTerms`): every process drops them.
    changed([tags.saleTerms(saleId)]);
    await audit(tx, { channelId, before, after });
    return { lottery: after, draw };
  });
}

/**
 * Opens the next purchase round of every drawn lottery whose last round has ended with copies left and registrants
 * still waiting (issue 35: "copies not bought by its end go down the waitlist, round by round, until sold or the list
 * ends"). The next round admits the next ranks on the waitlist, as many as the sale has copies left (copies held by an
 * unpaid order are not left: if that order expires, its copies open a round of their own at the next pass), for the
 * same purchase window from now. Run by the background jobs (lib/jobs/runner.ts) every pass; each sale's row is locked
 * and read again, so two processes open a round once. Answers how many rounds it opened.
 */
export async function openLotteryRounds(db: Db, now: Date): Promise<number> {
  // Lotteries whose last round has ended and whose list goes on: a few rows at most, read in one statement.
  const due = await db
    .select({ saleId: saleAllocations.saleId })
    .from(saleAllocations)
    .where(
      and(
        eq(saleAllocations.mode, 'lottery'),
        sql`jsonb_array_length(coalesce(${saleAllocations.rounds}, '[]'::jsonb)) > 0`,
        sql`(${saleAllocations.rounds} -> -1 ->> 'through')::integer < ${saleAllocations.ranked}`,
        sql`(${saleAllocations.rounds} -> -1 ->> 'endsAt')::timestamptz <= ${now.toISOString()}::timestamptz`,
      ),
    );
  let opened = 0;
  for (const { saleId } of due) {
    const round = await writeInvalidating(db, async (tx, changed) => {
      const [row] = await tx
        .select({
          rounds: saleAllocations.rounds,
          ranked: saleAllocations.ranked,
          window: saleAllocations.purchaseWindowMinutes,
          left: sales.amountAvailable,
        })
        .from(saleAllocations)
        .innerJoin(sales, eq(sales.id, saleAllocations.saleId))
        .where(eq(saleAllocations.saleId, saleId))
        .for('update', { of: saleAllocations });
      if (!row) return null;
      const rounds = lotteryRoundsOf(row.rounds);
      const last = rounds.at(-1);
      if (!last || last.through >= (row.ranked ?? 0) || now.getTime() < last.endsAt.getTime() || row.left <= 0) return null;
      const next: LotteryRound = {
        round: last.round + 1,
        from: last.through + 1,
        through: Math.min(row.ranked!, last.through + row.left),
        opensAt: now,
        endsAt: minutesAfter(now, row.window!),
      };
      await tx
        .update(saleAllocations)
        .set({ rounds: [...rounds, next].map(roundJson), updatedAt: now })
        .where(eq(saleAllocations.saleId, saleId));
      // The round's buyers are told their turn, by a text queued with the round and a message in their inbox.
      await queueLotteryTexts(tx, { saleId, ...next }, now);
      await addLotteryRoundMessages(tx, { saleId, ...next }, now);
      // The buy's cached terms carry the rounds (lib/order/service.ts `readBuyTerms`): every process drops them.
      changed([tags.saleTerms(saleId)]);
      return next;
    });
    if (round) opened++;
  }
  return opened;
}
