import 'server-only';
import { and, count, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  buyerAccountNumbers,
  commodities,
  orders,
  saleAllocations,
  salePriority,
  salePriorityBuyers,
  salePriorityWhitelist,
  sales,
} from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { preparedOn } from '../db/prepared';
import { cachedRead, tags, writeInvalidating } from '../cache/store';
import type { UserScope } from '../procedure/scope';
import { ACCOUNT_NUMBER } from '../auth/account-numbers';
import { executedRows } from '../db/rows';
import type { CatalogueAudit } from './catalogue';

/**
 * Priority purchase (优先购, issue 35; docs/drops.md, "Priority purchase"): a first-come sale may open `minutesEarly`
 * minutes early to eligible buyers. Eligible: holds any of the given collectibles (not spent, not refunded, on the
 * channel), or has at least N paid orders on the channel, or is on the whitelist the operator imported (account numbers
 * of the channel). The rules are OR'd, any may be absent, at least one is given (the whitelist counts once imported).
 *
 * Eligibility is decided once, at `decideAt` (at or before the early opening), by the jobs' pass (`decideDuePriorities`),
 * which writes every eligible buyer in one statement; before that nobody buys early, and from then on the settings and
 * the whitelist are frozen. The buy (lib/order/service.ts) carries the settings in its cached terms and reads the
 * buyer's eligibility (one indexed read) only within the early window; `claim_copies` holds the floor itself
 * (drizzle/0037_priority.sql).
 */

export const MINUTES_EARLY_MAX = 1440;
export const WHITELIST_MAX_ROWS = 100_000;

/** Why a buyer is eligible, in this order. */
export type PriorityReason = 'holder' | 'orders' | 'whitelist';
const REASONS: readonly PriorityReason[] = ['holder', 'orders', 'whitelist'];

/** What an operator sets. `holderCollectibles`: collectible codes of the channel. */
export type PrioritySettings = {
  minutesEarly: number;
  holderCollectibles: string[];
  minPaidOrders: number | null;
  decideAt: Date;
};

/** The console's view of a sale's priority purchase (and what the audit trail keeps). */
export type PriorityView = {
  minutesEarly: number;
  holderCollectibles: string[];
  minPaidOrders: number | null;
  whitelistCount: number;
  decideAt: Date;
  decidedAt: Date | null;
  eligibleCount: number | null;
  /** The early opening: the sale's opening less `minutesEarly`. */
  opensAt: Date;
  saleStartsAt: Date;
};

/** What the buy reads of a sale's priority, in its cached terms (lib/order/service.ts `readBuyTerms`). */
export type PriorityBuyTerms = { minutesEarly: number; decidedAt: Date | null };

type PriorityRow = typeof salePriority.$inferSelect;
type SaleOfPriority = { id: number; code: string; saleStartTime: Date };

/** The early opening of a sale that opens at `saleStart`, `minutesEarly` minutes early. */
export function earlyOpening(saleStart: Date, minutesEarly: number): Date {
  return new Date(saleStart.getTime() - minutesEarly * 60_000);
}

async function consoleSale(db: Db, channelId: number, saleId: number, lock = false): Promise<SaleOfPriority> {
  const query = db
    .select({ id: sales.id, code: sales.code, saleStartTime: sales.saleStartTime })
    .from(sales)
    .where(and(eq(sales.id, saleId), eq(sales.channelId, channelId)));
  const [sale] = lock ? await query.for('update') : await query;
  if (!sale) throw new AppError(404, msg('opsSaleNotFound'));
  return sale;
}

async function readPriority(db: Db, channelId: number, saleId: number, lock = false): Promise<PriorityRow | null> {
  const query = db
    .select()
    .from(salePriority)
    .where(and(eq(salePriority.saleId, saleId), eq(salePriority.channelId, channelId)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

async function whitelistCount(db: Db, saleId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(salePriorityWhitelist).where(eq(salePriorityWhitelist.saleId, saleId));
  return Number(row?.n ?? 0);
}

/** Collectible codes of these ids, in the order the ids are kept. */
async function codesOf(db: Db, ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: commodities.id, code: commodities.code }).from(commodities).where(inArray(commodities.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r.code]));
  return ids.map((id) => byId.get(id)).filter((c): c is string => c !== undefined);
}

async function viewOf(db: Db, sale: SaleOfPriority, row: PriorityRow): Promise<PriorityView> {
  return {
    minutesEarly: row.minutesEarly,
    holderCollectibles: await codesOf(db, row.holderCommodityIds),
    minPaidOrders: row.minPaidOrders,
    whitelistCount: await whitelistCount(db, row.saleId),
    decideAt: row.decideAt,
    decidedAt: row.decidedAt,
    eligibleCount: row.eligibleCount,
    opensAt: earlyOpening(sale.saleStartTime, row.minutesEarly),
    saleStartsAt: sale.saleStartTime,
  };
}

/** The console's view of a sale's priority purchase, or null when it has none. */
export async function findPriority(db: Db, channelId: number, saleId: number): Promise<PriorityView | null> {
  const sale = await consoleSale(db, channelId, saleId);
  const row = await readPriority(db, channelId, saleId);
  return row ? viewOf(db, sale, row) : null;
}

/** 409 naming `mode` when the sale goes by lottery or through a waiting room: priority purchase is first come only. */
async function refuseOtherMode(db: Db, saleId: number): Promise<void> {
  const [allocation] = await db.select({ mode: saleAllocations.mode }).from(saleAllocations).where(eq(saleAllocations.saleId, saleId));
  if (allocation && (allocation.mode === 'lottery' || allocation.mode === 'queue'))
    throw new AppError(409, msg('opsPriorityMode', { mode: allocation.mode }), { field: 'mode' });
}

/**
 * For the lottery's and the waiting room's set-up (lib/sale/lottery.ts, queue.ts), in their transaction after they
 * locked the sale's row: 409 naming `mode` when the sale has priority purchase.
 */
export async function refusePriorityForMode(db: Db, saleId: number): Promise<void> {
  const [row] = await db.select({ saleId: salePriority.saleId }).from(salePriority).where(eq(salePriority.saleId, saleId));
  if (row) throw new AppError(409, msg('opsPriorityOtherMode'), { field: 'mode' });
}

/** The settings, in the order a refusal after the decision names the first that would change. */
type FrozenField = 'minutesEarly' | 'holderCollectibles' | 'minPaidOrders' | 'decideAt';

function changedField(row: PriorityRow, next: PrioritySettings & { holderCommodityIds: number[] }): FrozenField | null {
  if (row.minutesEarly !== next.minutesEarly) return 'minutesEarly';
  const a = [...row.holderCommodityIds].sort((x, y) => x - y);
  const b = [...next.holderCommodityIds].sort((x, y) => x - y);
  if (a.length !== b.length || a.some((id, i) => id !== b[i])) return 'holderCollectibles';
  if (row.minPaidOrders !== next.minPaidOrders) return 'minPaidOrders';
  if (row.decideAt.getTime() !== next.decideAt.getTime()) return 'decideAt';
  return null;
}

/** The tags a change of a sale's priority drops: the buy's terms and the goods page's reads. */
const priorityTags = (channelId: number, saleId: number) => [tags.saleTerms(saleId), tags.sale(saleId), tags.sales(channelId)];

/**
 * Sets a sale's priority purchase, changes it before the decision, or removes it (`settings` null). Refused: a sale that
 * goes by lottery or through a waiting room (409, `mode`); a sale with orders (400, `sale`); a collectible not of the
 * channel (400, `holderCollectibles`); a decision time not in the future or after the early opening (400, `decideAt`);
 * no rule at all (400, `holderCollectibles`: no collectibles, no paid orders and no whitelist imported); after the
 * decision, any change or the removal (409 naming the field; the same settings again answer the priority as it is).
 */
export async function setPriority(
  db: Db,
  channelId: number,
  saleId: number,
  settings: PrioritySettings | null,
  now: Date,
  audit: CatalogueAudit,
): Promise<PriorityView | null> {
  return writeInvalidating(db, async (tx, changed) => {
    const sale = await consoleSale(tx, channelId, saleId, true);
    const existing = await readPriority(tx, channelId, saleId, true);
    const before = existing ? await viewOf(tx, sale, existing) : null;
    // The audit trail keeps the sale with its priority before and after (null: none).
    const audited = (view: PriorityView | null) => ({ sale: sale.code, priority: view });
    if (settings === null) {
      if (!existing) return null;
      if (existing.decidedAt)
        throw new AppError(409, msg('opsPriorityFrozen', { field: 'priority', at: existing.decidedAt }), { field: 'priority' });
      await tx.delete(salePriorityWhitelist).where(eq(salePriorityWhitelist.saleId, saleId));
      await tx.delete(salePriority).where(eq(salePriority.saleId, saleId));
      changed(priorityTags(channelId, saleId));
      await audit(tx, { channelId, before: audited(before), after: audited(null) });
      return null;
    }
    const holderCommodityIds = await holderIds(tx, channelId, settings.holderCollectibles);
    if (existing?.decidedAt) {
      const field = changedField(existing, { ...settings, holderCommodityIds });
      if (field) throw new AppError(409, msg('opsPriorityFrozen', { field, at: existing.decidedAt }), { field });
      return before;
    }
    await refuseOtherMode(tx, saleId);
    const [ordered] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.saleId, saleId)).limit(1);
    if (ordered) throw new AppError(400, msg('opsPriorityHasOrders'));
    if (settings.decideAt.getTime() <= now.getTime()) throw new AppError(400, msg('opsPriorityDecidePast'));
    const opensAt = earlyOpening(sale.saleStartTime, settings.minutesEarly);
    if (settings.decideAt.getTime() > opensAt.getTime()) throw new AppError(400, msg('opsPriorityDecideAfterOpening', { at: opensAt }));
    if (holderCommodityIds.length === 0 && settings.minPaidOrders === null && (await whitelistCount(tx, saleId)) === 0)
      throw new AppError(400, msg('opsPriorityNoRule'));

    const values = {
      minutesEarly: settings.minutesEarly,
      holderCommodityIds,
      minPaidOrders: settings.minPaidOrders,
      decideAt: settings.decideAt,
      updatedAt: now,
    };
    await tx
      .insert(salePriority)
      .values({ saleId, channelId, ...values, createdAt: now })
      .onConflictDoUpdate({ target: salePriority.saleId, set: values });
    const after = await viewOf(tx, sale, (await readPriority(tx, channelId, saleId))!);
    changed(priorityTags(channelId, saleId));
    await audit(tx, { channelId, before: audited(before), after: audited(after) });
    return after;
  });
}

/** The ids of these collectible codes on the channel, in the order given, once each; 400 naming the first unknown. */
async function holderIds(db: Db, channelId: number, codes: string[]): Promise<number[]> {
  const unique = [...new Set(codes)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ id: commodities.id, code: commodities.code })
    .from(commodities)
    .where(and(eq(commodities.channelId, channelId), inArray(commodities.code, unique)));
  const byCode = new Map(rows.map((r) => [r.code, r.id]));
  const missing = unique.find((c) => !byCode.has(c));
  if (missing !== undefined) throw new AppError(400, msg('opsPriorityNoSuchCollectible', { name: missing }));
  return unique.map((c) => byCode.get(c)!);
}

/** Why a whitelist row was refused: not 10 digits as account numbers are, no buyer of the channel has it, seen above. */
export type WhitelistRefusal = 'notAnAccountNumber' | 'noSuchBuyer' | 'duplicate';
export type WhitelistImport = {
  imported: number;
  whitelistCount: number;
  refused: { line: number; value: string; reason: WhitelistRefusal }[];
};

/** The CSV's rows: one account number a line, an optional header `account_number` first, blank lines skipped. */
function whitelistRows(csv: string): { line: number; value: string }[] {
  const lines = csv.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const rows: { line: number; value: string }[] = [];
  let first = true;
  lines.forEach((text, i) => {
    // A spreadsheet's export may quote the cell or end it with a comma: the one cell is the value.
    const value = text
      .trim()
      .replace(/,+$/, '')
      .replace(/^"(.*)"$/, '$1')
      .trim();
    if (value === '') return;
    if (first && value.toLowerCase() === 'account_number') {
      first = false;
      return;
    }
    first = false;
    rows.push({ line: i + 1, value });
  });
  return rows;
}

const CHUNK = 5_000;

/**
 * Imports a sale's whitelist from CSV text (console, issue 35): the accepted rows REPLACE the list. Each refused row is
 * named with its line, its value and why. Refused: more than 100,000 rows (400, `csv`); a sale with another mode (409,
 * `mode`); after the decision (409, `csv`); an import that leaves nothing but an empty list of a priority with no other
 * rule (400, `csv`). A sale without priority purchase yet may take its list first (a whitelist-only priority).
 */
export async function importPriorityWhitelist(
  db: Db,
  channelId: number,
  saleId: number,
  csv: string,
  now: Date,
  audit: CatalogueAudit,
): Promise<WhitelistImport> {
  const rows = whitelistRows(csv);
  if (rows.length > WHITELIST_MAX_ROWS) throw new AppError(400, msg('opsPriorityWhitelistTooLong', { max: WHITELIST_MAX_ROWS }));
  return writeInvalidating(db, async (tx, changed) => {
    const sale = await consoleSale(tx, channelId, saleId, true);
    const existing = await readPriority(tx, channelId, saleId, true);
    if (existing?.decidedAt) throw new AppError(409, msg('opsPriorityFrozen', { field: 'csv', at: existing.decidedAt }), { field: 'csv' });
    await refuseOtherMode(tx, saleId);

    const refused: WhitelistImport['refused'] = [];
    const wellFormed = rows.filter((r) => {
      if (ACCOUNT_NUMBER.test(r.value)) return true;
      refused.push({ line: r.line, value: r.value.slice(0, 64), reason: 'notAnAccountNumber' });
      return false;
    });
    const known = new Set<string>();
    const numbers = [...new Set(wellFormed.map((r) => r.value))];
    for (let i = 0; i < numbers.length; i += CHUNK) {
      const found = await tx
        .select({ number: buyerAccountNumbers.number })
        .from(buyerAccountNumbers)
        .where(and(eq(buyerAccountNumbers.channelId, channelId), inArray(buyerAccountNumbers.number, numbers.slice(i, i + CHUNK))));
      for (const f of found) known.add(f.number);
    }
    const accepted: string[] = [];
    const seen = new Set<string>();
    for (const r of wellFormed) {
      if (seen.has(r.value)) refused.push({ line: r.line, value: r.value, reason: 'duplicate' });
      else if (!known.has(r.value)) refused.push({ line: r.line, value: r.value, reason: 'noSuchBuyer' });
      else accepted.push(r.value);
      seen.add(r.value);
    }
    refused.sort((a, b) => a.line - b.line);
    if (accepted.length === 0 && existing && existing.holderCommodityIds.length === 0 && existing.minPaidOrders === null)
      throw new AppError(400, msg('opsPriorityWhitelistEmpty'));

    const before = { whitelistCount: await whitelistCount(tx, saleId) };
    await tx.delete(salePriorityWhitelist).where(eq(salePriorityWhitelist.saleId, saleId));
    for (let i = 0; i < accepted.length; i += CHUNK) {
      await tx.insert(salePriorityWhitelist).values(accepted.slice(i, i + CHUNK).map((accountNumber) => ({ saleId, accountNumber })));
    }
    if (existing) await tx.update(salePriority).set({ updatedAt: now }).where(eq(salePriority.saleId, saleId));
    changed(priorityTags(channelId, saleId));
    // The audit keeps the counts and the refused rows, not 100,000 account numbers.
    await audit(tx, {
      channelId,
      before: { sale: sale.code, ...before },
      after: { sale: sale.code, whitelistCount: accepted.length, refused: refused.length },
    });
    return { imported: accepted.length, whitelistCount: accepted.length, refused };
  });
}

/**
 * Decides a sale's priority purchase: writes every eligible buyer with why, in one INSERT … SELECT (holders of the
 * collectibles, buyers with enough paid orders, the whitelist's buyers), and marks it decided with the count. Once only:
 * the priority's row is locked and a decided one is left as it is. Returns how many are eligible, or null when there
 * was nothing to decide.
 */
export async function decidePriority(db: Db, saleId: number, now: Date): Promise<number | null> {
  return writeInvalidating(db, async (tx, changed) => {
    const [row] = await tx
      .select()
      .from(salePriority)
      .where(and(eq(salePriority.saleId, saleId), isNull(salePriority.decidedAt)))
      .for('update');
    if (!row) return null;
    const channelId = row.channelId;
    const inserted = await tx.execute(sql`
      INSERT INTO ${salePriorityBuyers} ("sale_id", "user_id", "reasons")
      SELECT ${saleId}::integer, "e"."user_id", array_agg("e"."reason" ORDER BY "e"."reason")
      FROM (
        SELECT DISTINCT "h"."user_id", 'holder' AS "reason" FROM "holdings" "h"
          WHERE "h"."channel_id" = ${channelId}::integer
            AND "h"."commodity_id" = ANY (SELECT unnest("holder_commodity_ids") FROM "sale_priority" WHERE "sale_id" = ${saleId}::integer)
            AND "h"."destroyed_at" IS NULL AND "h"."refunded_at" IS NULL
        UNION ALL
        SELECT "o"."user_id", 'orders' FROM "orders" "o"
          WHERE "o"."channel_id" = ${channelId}::integer AND "o"."status_trade" = 1
            AND ${row.minPaidOrders}::integer IS NOT NULL
            -- An order refunded whole (issue 32: it stays paid, its copies taken back) is not a paid order of the buyer's.
            AND (SELECT coalesce(sum("r"."quantity"), 0) FROM "order_refunds" "r" WHERE "r"."order_id" = "o"."id") < "o"."quantity"
          GROUP BY "o"."user_id" HAVING count(*) >= ${row.minPaidOrders}::integer
        UNION ALL
        SELECT "n"."user_id", 'whitelist' FROM "sale_priority_whitelist" "w"
          JOIN "buyer_account_numbers" "n" ON "n"."channel_id" = ${channelId}::integer AND "n"."number" = "w"."account_number"
          WHERE "w"."sale_id" = ${saleId}::integer
      ) "e"
      GROUP BY "e"."user_id"
      RETURNING 1`);
    const eligible = executedRows(inserted).length;
    await tx.update(salePriority).set({ decidedAt: now, eligibleCount: eligible, updatedAt: now }).where(eq(salePriority.saleId, saleId));
    changed(priorityTags(channelId, saleId));
    return eligible;
  });
}

/** The jobs' pass (lib/jobs/runner.ts): decides every priority whose time came. Returns how many were decided. */
export async function decideDuePriorities(db: Db, now: Date): Promise<number> {
  const due = await db
    .select({ saleId: salePriority.saleId })
    .from(salePriority)
    .where(and(isNull(salePriority.decidedAt), lte(salePriority.decideAt, now)))
    .limit(50);
  let decided = 0;
  for (const { saleId } of due) if ((await decidePriority(db, saleId, now)) !== null) decided++;
  return decided;
}

/** Why this buyer is eligible for the sale's priority purchase (the decision's row), or null: one indexed read. */
export async function priorityReasonsOf(db: Db, saleId: number, userId: number): Promise<PriorityReason[] | null> {
  const [row] = await preparedOn(db, 'priority_buyer', (handle) =>
    handle
      .select({ reasons: salePriorityBuyers.reasons })
      .from(salePriorityBuyers)
      .where(and(eq(salePriorityBuyers.saleId, sql.placeholder('saleId')), eq(salePriorityBuyers.userId, sql.placeholder('userId'))))
      .limit(1)
      .prepare('priority_buyer'),
  ).execute({ saleId, userId });
  return row ? row.reasons.filter((r): r is PriorityReason => (REASONS as readonly string[]).includes(r)) : null;
}

/**
 * The buyer's own opening of a sale with priority purchase at `now`: the early opening when the priority was decided,
 * the buyer is eligible and now is within the early window; else null (the sale's own opening holds). Reads the
 * buyer's eligibility only within the early window.
 */
export async function buyerEarlyOpening(
  db: Db,
  terms: { saleId: number; saleStartTime: Date; priority: PriorityBuyTerms | null },
  userId: number,
  now: Date,
): Promise<Date | null> {
  const { priority } = terms;
  if (!priority?.decidedAt || now.getTime() >= terms.saleStartTime.getTime()) return null;
  const opens = earlyOpening(terms.saleStartTime, priority.minutesEarly);
  if (now.getTime() < opens.getTime()) return null;
  return (await priorityReasonsOf(db, terms.saleId, userId)) ? opens : null;
}

export type PriorityStatus = {
  opensAt: Date;
  saleStartsAt: Date;
  decideAt: Date;
  decided: boolean;
  eligible: boolean;
  reasons: PriorityReason[];
};

/** The signed-in buyer's standing in a sale's priority purchase, or null when the sale has none (404: no such sale here). */
export async function priorityStatus(ctx: UserScope, saleId: number): Promise<PriorityStatus | null> {
  const [row] = await ctx.db
    .select({ saleStartTime: sales.saleStartTime, priority: salePriority })
    .from(sales)
    .leftJoin(salePriority, eq(salePriority.saleId, sales.id))
    .where(and(eq(sales.id, saleId), eq(sales.channelId, ctx.channelId)));
  if (!row) throw new AppError(404, msg('saleNotFound'));
  const p = row.priority;
  if (!p) return null;
  const reasons = p.decidedAt ? ((await priorityReasonsOf(ctx.db, saleId, ctx.userId)) ?? []) : [];
  return {
    opensAt: earlyOpening(row.saleStartTime, p.minutesEarly),
    saleStartsAt: row.saleStartTime,
    decideAt: p.decideAt,
    decided: p.decidedAt !== null,
    eligible: reasons.length > 0,
    reasons,
  };
}

/** What the goods page shows of a sale's priority purchase (times as ISO 8601). */
export type PublicPriority = {
  opensAt: string;
  saleStartsAt: string;
  decideAt: string;
  minutesEarly: number;
  holderCollectibleNames: string[];
  minPaidOrders: number | null;
  hasWhitelist: boolean;
};

/**
 * The goods page's public data of a sale's priority purchase, or null: from the process's tagged cache, dropped with the
 * sale's reads when the priority or the sale changes.
 */
export function publicPriority(db: Db, channelId: number, saleId: number): Promise<PublicPriority | null> {
  return cachedRead(db, `priority:${channelId}:${saleId}`, [tags.sale(saleId), tags.saleTerms(saleId)], async () => {
    const [row] = await db
      .select({ saleStartTime: sales.saleStartTime, priority: salePriority })
      .from(salePriority)
      .innerJoin(sales, eq(sales.id, salePriority.saleId))
      .where(and(eq(salePriority.saleId, saleId), eq(salePriority.channelId, channelId)));
    if (!row) return null;
    const p = row.priority;
    const ids = p.holderCommodityIds;
    const names = ids.length
      ? await db.select({ id: commodities.id, name: commodities.name }).from(commodities).where(inArray(commodities.id, ids))
      : [];
    const byId = new Map(names.map((n) => [n.id, n.name]));
    const [listed] = await db
      .select({ one: salePriorityWhitelist.saleId })
      .from(salePriorityWhitelist)
      .where(eq(salePriorityWhitelist.saleId, saleId))
      .limit(1);
    return {
      opensAt: earlyOpening(row.saleStartTime, p.minutesEarly).toISOString(),
      saleStartsAt: row.saleStartTime.toISOString(),
      decideAt: p.decideAt.toISOString(),
      minutesEarly: p.minutesEarly,
      holderCollectibleNames: ids.map((id) => byId.get(id)).filter((n): n is string => n !== undefined),
      minPaidOrders: p.minPaidOrders,
      hasWhitelist: listed !== undefined,
    };
  });
}
