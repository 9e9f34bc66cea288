import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  commodities,
  lotteryRanks,
  lotteryRegistrations,
  orders,
  queueEntries,
  saleAllocations,
  salePriority,
  salePriorityBuyers,
  salePriorityWhitelist,
  sales,
} from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { isUniqueViolation } from '../db/errors';
import { stockTags, tags, writeInvalidating } from '../cache/store';
import type { CatalogueAudit } from './catalogue';
import { followSaleCopies } from './lottery';
import { joinOpensAt } from './queue';
import {
  closesBeforeOpening,
  consoleSaleState,
  copiesBelowTaken,
  frozenFieldChanged,
  openingNeedsConfirmation,
  type ConsoleSaleState,
  type FrozenField,
} from './rules';

/**
 * Sales as an operator runs them (issue 32, "Sales" and "Drop-day controls"): create and edit a sale, pause and resume
 * buying, add copies, archive or delete. The rules that keep buyers safe are in ./rules.ts; each refusal names its
 * field and changes nothing. Every write runs in one transaction with its audit entry and publishes the sale's cache
 * tags with its commit, so the store shows the change at once (docs/caching.md).
 */

/** What an operator writes of a sale. */
export type SaleInput = {
  code: string;
  collectibleId: number;
  /** Integer fen. */
  price: number;
  copies: number;
  limitPerUser: number;
  saleStartTime: Date;
  saleEndTime: Date | null;
  listed: boolean;
  /** The home list's order: lower first. */
  sort: number;
};

/** A sale as the console lists it. */
export type AdminSaleView = {
  id: number;
  code: string;
  collectibleId: number;
  collectibleName: string;
  cover: string;
  isBlindBox: boolean;
  price: number;
  copies: number;
  copiesLeft: number;
  /** Sold or held in unpaid orders. */
  copiesTaken: number;
  limitPerUser: number;
  saleStartTime: Date;
  saleEndTime: Date | null;
  listed: boolean;
  sort: number;
  pausedAt: Date | null;
  archivedAt: Date | null;
  state: ConsoleSaleState;
  /** Whether the sale has an order: its price, limit and opening time are then frozen. */
  hasOrders: boolean;
};

type SaleRow = typeof sales.$inferSelect;
type Row = { sale: SaleRow; name: string; cover: string; isBlindBox: boolean };

function toView(row: Row, hasOrders: boolean, now: Date): AdminSaleView {
  const s = row.sale;
  return {
    id: s.id,
    code: s.code,
    collectibleId: s.commodityId,
    collectibleName: row.name,
    cover: row.cover,
    isBlindBox: row.isBlindBox,
    price: s.price,
    copies: s.amount,
    copiesLeft: s.amountAvailable,
    copiesTaken: s.amount - s.amountAvailable,
    limitPerUser: s.limitPerUser,
    saleStartTime: s.saleStartTime,
    saleEndTime: s.saleEndTime,
    listed: s.listed,
    sort: s.sort,
    pausedAt: s.pausedAt,
    archivedAt: s.archivedAt,
    state: consoleSaleState(s, now),
    hasOrders,
  };
}

const saleColumns = { sale: sales, name: commodities.name, cover: commodities.cover, isBlindBox: commodities.isBlindBox };

/** The channel's sales in the home list's order, archived ones too. */
export async function listAdminSales(db: Db, channelId: number, now: Date): Promise<AdminSaleView[]> {
  const rows = await db
    .select({
      ...saleColumns,
      // Whether the sale has an order: one probe of the (sale, user) index per sale, not a pass over the channel's orders.
      hasOrders: sql<boolean>`exists (select 1 from ${orders} where ${orders.saleId} = ${sales.id})`,
    })
    .from(sales)
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(eq(sales.channelId, channelId))
    .orderBy(asc(sales.sort), asc(sales.id));
  return rows.map(({ hasOrders: ordered, ...r }) => toView(r, ordered, now));
}

async function hasOrders(db: Db, saleId: number): Promise<boolean> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.saleId, saleId)).limit(1);
  return row !== undefined;
}

/** One sale of the channel, or null (another channel's sale is not found). `lock`: read it under its row lock. */
export async function findAdminSale(db: Db, channelId: number, saleId: number, now: Date, lock = false): Promise<AdminSaleView | null> {
  const query = db
    .select(saleColumns)
    .from(sales)
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(and(eq(sales.id, saleId), eq(sales.channelId, channelId)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: sales }) : await query;
  return row ? toView(row, await hasOrders(db, saleId), now) : null;
}

async function saleOrRefuse(tx: Db, channelId: number, saleId: number, now: Date): Promise<AdminSaleView> {
  const sale = await findAdminSale(tx, channelId, saleId, now, true);
  if (!sale) throw new AppError(404, msg('opsSaleNotFound'));
  return sale;
}

function frozen(field: FrozenField): AppError {
  return new AppError(400, msg('opsSaleFrozen', { field }), { field });
}

/**
 * issue 35 ("Sale settings that decide the draw freeze when registration opens"; a waiting room's shuffle is "everyone
 * who joined before the opening plus a short grace"): once a lottery's registration or a waiting room's joining has
 * opened, buyers have registered or joined on the sale's times, so its opening and close no longer move (409 naming the
 * field). Before that they move freely, and a waiting room's joining moves with the opening. One indexed read.
 */
async function refuseTimesAfterAllocationOpened(
  db: Db,
  saleId: number,
  before: { saleStartTime: Date; saleEndTime: Date | null },
  input: { saleStartTime: Date; saleEndTime: Date | null },
  now: Date,
): Promise<void> {
  const field =
    input.saleStartTime.getTime() !== before.saleStartTime.getTime()
      ? 'saleStartTime'
      : (input.saleEndTime?.getTime() ?? null) !== (before.saleEndTime?.getTime() ?? null)
        ? 'saleEndTime'
        : null;
  if (!field) return;
  const [allocation] = await db
    .select({
      mode: saleAllocations.mode,
      registrationOpensAt: saleAllocations.registrationOpensAt,
      joinMinutes: saleAllocations.queueJoinMinutes,
    })
    .from(saleAllocations)
    .where(eq(saleAllocations.saleId, saleId));
  const opened =
    allocation?.mode === 'lottery'
      ? allocation.registrationOpensAt
      : allocation?.mode === 'queue' && allocation.joinMinutes !== null
        ? joinOpensAt(before.saleStartTime, allocation.joinMinutes)
        : null;
  if (!opened || now.getTime() < opened.getTime()) return;
  throw new AppError(409, msg('opsSaleTimesAllocationOpened', { field, mode: allocation!.mode, at: opened }), { field });
}

/**
 * issue 35, priority purchase: eligibility is decided before the early opening (lib/sale/priority.ts), so an opening
 * moved earlier may not bring the early opening before a decision still to come (400 naming `saleStartTime`, with the
 * time the opening may come at the earliest). Once decided, the eligible buyers keep their standing as the sale moves.
 */
async function refuseOpeningBeforePriorityDecision(db: Db, saleId: number, opening: Date): Promise<void> {
  const [priority] = await db
    .select({ minutesEarly: salePriority.minutesEarly, decideAt: salePriority.decideAt, decidedAt: salePriority.decidedAt })
    .from(salePriority)
    .where(eq(salePriority.saleId, saleId));
  if (!priority || priority.decidedAt) return;
  if (opening.getTime() - priority.minutesEarly * 60_000 >= priority.decideAt.getTime()) return;
  const earliest = new Date(priority.decideAt.getTime() + priority.minutesEarly * 60_000);
  throw new AppError(400, msg('opsSaleOpeningBeforePriorityDecision', { at: earliest }), { field: 'saleStartTime' });
}

/** The tags of everything the store shows of one sale (its page, the lists, its buy terms, its copies left). */
function saleTags(channelId: number, saleId: number): string[] {
  return [...stockTags({ channelId, saleId }), tags.saleTerms(saleId)];
}

/**
 * Creates a sale of one of the channel's collectibles. Refused: closing at or before opening (`saleEndTime`), an opening
 * time in the past unless `confirmPast` (`saleStartTime`: the console asks first), a code the channel already has.
 */
export async function createSale(
  db: Db,
  channelId: number,
  input: SaleInput & {
    confirmPast?: boolean;
    /**
     * Copies sold before the store's records began (a drop moved from another platform, or the demo's history:
     * lib/demo/seed.ts): they count as taken from the start. Not offered to the console.
     */
    soldBefore?: number;
  },
  now: Date,
  audit: CatalogueAudit,
): Promise<AdminSaleView> {
  if (closesBeforeOpening(input.saleStartTime, input.saleEndTime)) throw new AppError(400, msg('opsSaleClosesBeforeOpening'));
  if (openingNeedsConfirmation(input.saleStartTime, now, true, input.confirmPast ?? false))
    throw new AppError(400, msg('opsSaleOpeningPast'));
  try {
    return await writeInvalidating(db, async (tx, changed) => {
      const [commodity] = await tx
        .select({ id: commodities.id })
        .from(commodities)
        .where(and(eq(commodities.id, input.collectibleId), eq(commodities.channelId, channelId)));
      if (!commodity) throw new AppError(404, msg('opsCollectibleNotFound'));
      const [row] = await tx
        .insert(sales)
        .values({
          channelId,
          commodityId: input.collectibleId,
          code: input.code,
          price: input.price,
          amount: input.copies,
          amountAvailable: input.copies - Math.min(input.copies, Math.max(0, input.soldBefore ?? 0)),
          limitPerUser: input.limitPerUser,
          saleStartTime: input.saleStartTime,
          saleEndTime: input.saleEndTime,
          listed: input.listed,
          sort: input.sort,
        })
        .returning({ id: sales.id });
      const after = (await findAdminSale(tx, channelId, row!.id, now))!;
      await audit(tx, { channelId, before: null, after });
      changed(saleTags(channelId, row!.id));
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(400, msg('opsSaleCodeTaken'));
    throw error;
  }
}

/**
 * Changes a sale (issue 32, "Rules that keep buyers safe"). Once its first order exists, its price, per-buyer limit and
 * opening time are frozen (400 naming the field and why); copies never go below what is sold or held in unpaid orders
 * (`copies`); closing at or before opening is refused; a changed opening time in the past asks for `confirmPast`. The
 * copies left move by the change in copies, in one statement that also checks them, so a buy racing the edit cannot
 * take a copy the new count no longer has. An archived sale does not change.
 */
export async function editSale(
  db: Db,
  channelId: number,
  saleId: number,
  input: Omit<SaleInput, 'collectibleId' | 'code'> & { confirmPast?: boolean },
  now: Date,
  audit: CatalogueAudit,
): Promise<AdminSaleView> {
  return writeInvalidating(db, async (tx, changed) => {
    const before = await saleOrRefuse(tx, channelId, saleId, now);
    if (before.archivedAt) throw new AppError(400, msg('opsSaleArchived'));
    const field = frozenFieldChanged(before, input, before.hasOrders);
    if (field) throw frozen(field);
    if (closesBeforeOpening(input.saleStartTime, input.saleEndTime)) throw new AppError(400, msg('opsSaleClosesBeforeOpening'));
    const openingChanged = input.saleStartTime.getTime() !== before.saleStartTime.getTime();
    await refuseTimesAfterAllocationOpened(tx, saleId, before, input, now);
    if (openingChanged) await refuseOpeningBeforePriorityDecision(tx, saleId, input.saleStartTime);
    if (openingNeedsConfirmation(input.saleStartTime, now, openingChanged, input.confirmPast ?? false))
      throw new AppError(400, msg('opsSaleOpeningPast'));
    const [row] = await tx
      .update(sales)
      .set({
        price: input.price,
        amount: input.copies,
        amountAvailable: sql`${sales.amountAvailable} + (${input.copies}::integer - ${sales.amount})`,
        limitPerUser: input.limitPerUser,
        saleStartTime: input.saleStartTime,
        saleEndTime: input.saleEndTime,
        listed: input.listed,
        sort: input.sort,
      })
      .where(and(eq(sales.id, saleId), sql`${sales.amountAvailable} + (${input.copies}::integer - ${sales.amount}) >= 0`))
      .returning({ taken: sql<number>`${sales.amount} - ${sales.amountAvailable}` });
    if (!row) {
      const [current] = await tx.select({ amount: sales.amount, left: sales.amountAvailable }).from(sales).where(eq(sales.id, saleId));
      const taken = current!.amount - current!.left;
      if (copiesBelowTaken(input.copies, taken)) throw new AppError(400, msg('opsSaleCopiesBelowTaken', { taken }));
    }
    await followSaleCopies(tx, saleId, now);
    const after = (await findAdminSale(tx, channelId, saleId, now))!;
    await audit(tx, { channelId, before, after });
    changed(saleTags(channelId, saleId));
    return after;
  });
}

/**
 * Pauses buying now (`paused` true) or resumes it (issue 32, "Drop-day controls": a price typo on a live sale). A paused
 * sale refuses new orders with a message in the buyer's language (lib/order/service.ts `termsRefusal`); orders already
 * made are not touched. Pausing a paused sale (a double click) keeps its first moment.
 */
export async function setSalePaused(
  db: Db,
  channelId: number,
  saleId: number,
  paused: boolean,
  now: Date,
  audit: CatalogueAudit,
): Promise<AdminSaleView> {
  return writeInvalidating(db, async (tx, changed) => {
    const before = await saleOrRefuse(tx, channelId, saleId, now);
    if (before.archivedAt) throw new AppError(400, msg('opsSaleArchived'));
    await tx
      .update(sales)
      .set({ pausedAt: paused ? (before.pausedAt ?? now) : null })
      .where(eq(sales.id, saleId));
    const after = (await findAdminSale(tx, channelId, saleId, now))!;
    await audit(tx, { channelId, before, after });
    changed(saleTags(channelId, saleId));
    return after;
  });
}

/**
 * Adds copies to a sale (issue 32, "Stock adjustments"): its copies and copies left both grow by `copies`, audited, and
 * the store's reads of the sale are dropped with the commit so it shows the new count at once.
 */
export async function addCopies(
  db: Db,
  channelId: number,
  saleId: number,
  copies: number,
  now: Date,
  audit: CatalogueAudit,
): Promise<AdminSaleView> {
  return writeInvalidating(db, async (tx, changed) => {
    const before = await saleOrRefuse(tx, channelId, saleId, now);
    if (before.archivedAt) throw new AppError(400, msg('opsSaleArchived'));
    await tx
      .update(sales)
      .set({ amount: sql`${sales.amount} + ${copies}::integer`, amountAvailable: sql`${sales.amountAvailable} + ${copies}::integer` })
      .where(eq(sales.id, saleId));
    await followSaleCopies(tx, saleId, now);
    const after = (await findAdminSale(tx, channelId, saleId, now))!;
    await audit(tx, { channelId, before, after });
    changed(saleTags(channelId, saleId));
    return after;
  });
}

/**
 * Archives a sale (issue 32: "a sale with orders is archived, never deleted"): it leaves the store's lists and refuses
 * new orders, while its orders and holdings keep pointing at it. Archiving an archived sale keeps its first moment.
 */
export async function archiveSale(db: Db, channelId: number, saleId: number, now: Date, audit: CatalogueAudit): Promise<AdminSaleView> {
  return writeInvalidating(db, async (tx, changed) => {
    const before = await saleOrRefuse(tx, channelId, saleId, now);
    await tx
      .update(sales)
      .set({ archivedAt: before.archivedAt ?? now })
      .where(eq(sales.id, saleId));
    const after = (await findAdminSale(tx, channelId, saleId, now))!;
    await audit(tx, { channelId, before, after });
    changed(saleTags(channelId, saleId));
    return after;
  });
}

/** Deletes a sale that has no order; one with orders is refused (400 naming `sale`): it can only be archived. */
export async function deleteSale(db: Db, channelId: number, saleId: number, now: Date, audit: CatalogueAudit): Promise<void> {
  await writeInvalidating(db, async (tx, changed) => {
    const before = await saleOrRefuse(tx, channelId, saleId, now);
    if (before.hasOrders) throw new AppError(400, msg('opsSaleHasOrders'));
    // A lottery on the sale (issue 35) goes with it: a sale without orders sold nothing to its registrants.
    await tx.delete(lotteryRanks).where(eq(lotteryRanks.saleId, saleId));
    await tx.delete(lotteryRegistrations).where(eq(lotteryRegistrations.saleId, saleId));
    // Its waiting room's entries too (issue 35): a sale without orders sold nothing to anyone in its queue.
    await tx.delete(queueEntries).where(eq(queueEntries.saleId, saleId));
    await tx.delete(saleAllocations).where(eq(saleAllocations.saleId, saleId));
    // Its priority purchase (issue 35): the decision's buyers, the whitelist, the settings.
    await tx.delete(salePriorityBuyers).where(eq(salePriorityBuyers.saleId, saleId));
    await tx.delete(salePriorityWhitelist).where(eq(salePriorityWhitelist.saleId, saleId));
    await tx.delete(salePriority).where(eq(salePriority.saleId, saleId));
    await tx.delete(sales).where(eq(sales.id, saleId));
    await audit(tx, { channelId, before, after: null });
    changed(saleTags(channelId, saleId));
  });
}
