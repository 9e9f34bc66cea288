import 'server-only';
import { and, asc, eq, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  channelPageViews,
  channels,
  commodities,
  orderRefunds,
  orders,
  reportChannelDays,
  reportSaleDays,
  sales,
  shareVisits,
  trackingEvents,
} from '../db/schema';
import { creditedSharer } from '../share/attribution';
import { ORDER_STATUS } from '../order/status';
import { addDays, dayIn, daysBetween } from './days';

/**
 * The channels' daily figures (issue 32, "Reports"; docs/reports.md): counted from the orders, refunds and tracking
 * records of one calendar day in the channel's time zone, and kept in `report_channel_days` / `report_sale_days`, so
 * the console reads a few indexed rows per day and never scans `tracking_events` on a view.
 *
 * What counts: an order counts on the day it was paid (`pay_time`), unless it was closed as paid too late (refunded,
 * never sold); its buyer is a buyer of that day. A refund counts on the day the provider confirmed it (`done_at`, status
 * 'done'), whatever day its order was paid. Visitors are the distinct tracking sessions of the day.
 */

export type ChannelZone = { id: number; timeZone: string };

/** The first instant of `day` in `timeZone` and of the next day, as SQL timestamps (the day's half-open range). */
function dayRange(column: SQL | typeof orders.payTime, day: string, timeZone: string): SQL {
  return sql`${column} >= (${day}::date::timestamp at time zone ${timeZone}) and ${column} < ((${day}::date + 1)::timestamp at time zone ${timeZone})`;
}

/** A paid order that stays sold: paid, and not closed as paid after it had expired (that one is refunded at once). */
const soldOrder = () => and(sql`${orders.payTime} is not null`, ne(orders.statusTrade, ORDER_STATUS.closed));

/** Counts one channel's day from the source tables and replaces its rows in the report tables. */
export async function aggregateDay(db: Db, channel: ChannelZone, day: string, now: Date): Promise<void> {
  const zone = validZone(channel.timeZone);
  const [visits] = await db
    .select({ visitors: sql<number>`count(distinct ${trackingEvents.sessionId})`.mapWith(Number) })
    .from(trackingEvents)
    .where(and(eq(trackingEvents.channelId, channel.id), dayRange(sql`${trackingEvents.servTime}`, day, zone)));
  const [paid] = await db
    .select({
      orders: sql<number>`count(*)`.mapWith(Number),
      buyers: sql<number>`count(distinct ${orders.userId})`.mapWith(Number),
      amount: sql<number>`coalesce(sum(${orders.amount}), 0)`.mapWith(Number),
    })
    .from(orders)
    .where(and(eq(orders.channelId, channel.id), dayRange(sql`${orders.payTime}`, day, zone), soldOrder()));
  const [refunded] = await db
    .select({
      refunds: sql<number>`count(*)`.mapWith(Number),
      amount: sql<number>`coalesce(sum(${orderRefunds.amount}), 0)`.mapWith(Number),
    })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.channelId, channel.id), eq(orderRefunds.status, 'done'), dayRange(sql`${orderRefunds.doneAt}`, day, zone)));
  // issue 36 (docs/sharing.md): page views through a buyer's share link, and the day's paid orders credited to a sharer.
  const [shared] = await db
    .select({ visits: sql<number>`count(*)`.mapWith(Number) })
    .from(shareVisits)
    .where(and(eq(shareVisits.channelId, channel.id), dayRange(sql`${shareVisits.visitedAt}`, day, zone)));
  const [sharedBuys] = await db
    .select({ orders: sql<number>`count(*)`.mapWith(Number) })
    .from(orders)
    .where(
      and(eq(orders.channelId, channel.id), dayRange(sql`${orders.payTime}`, day, zone), soldOrder(), sql`${creditedSharer()} is not null`),
    );
  const perSale = await db
    .select({
      saleId: orders.saleId,
      orders: sql<number>`count(*)`.mapWith(Number),
      copies: sql<number>`coalesce(sum(${orders.quantity}), 0)`.mapWith(Number),
    })
    .from(orders)
    .where(and(eq(orders.channelId, channel.id), dayRange(sql`${orders.payTime}`, day, zone), soldOrder()))
    .groupBy(orders.saleId);

  const figures = {
    visitors: visits?.visitors ?? 0,
    buyers: paid?.buyers ?? 0,
    orders: paid?.orders ?? 0,
    paidAmount: paid?.amount ?? 0,
    refunds: refunded?.refunds ?? 0,
    refundAmount: refunded?.amount ?? 0,
    shareVisits: shared?.visits ?? 0,
    shareBuys: sharedBuys?.orders ?? 0,
    computedAt: now,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(reportChannelDays)
      .values({ channelId: channel.id, day, ...figures })
      .onConflictDoUpdate({ target: [reportChannelDays.channelId, reportChannelDays.day], set: figures });
    await tx.delete(reportSaleDays).where(and(eq(reportSaleDays.channelId, channel.id), eq(reportSaleDays.day, day)));
    if (perSale.length) {
      await tx
        .insert(reportSaleDays)
        .values(perSale.map((s) => ({ saleId: s.saleId, channelId: channel.id, day, orders: s.orders, copies: s.copies })));
    }
  });
}

/** A zone Postgres knows; the channel settings validate it, and a bad one must not stop every other channel's figures. */
function validZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** Every channel with its zone (a handful of rows). */
async function allChannels(db: Db): Promise<ChannelZone[]> {
  return db.select({ id: channels.id, timeZone: channels.timeZone }).from(channels).orderBy(asc(channels.id));
}

/**
 * The reports job's pass (lib/jobs/runner.ts, every REPORT_INTERVAL_MS): today and yesterday of every channel, each
 * in its own zone. Yesterday too, so what lands just after midnight (a payment confirmed late, a refund done) still
 * reaches the day it belongs to; older days move only by `npm run report:backfill` (docs/reports.md).
 */
export async function aggregateRecentDays(db: Db, now: Date): Promise<number> {
  let days = 0;
  for (const channel of await allChannels(db)) {
    const today = dayIn(channel.timeZone, now);
    for (const day of [addDays(today, -1), today]) {
      await aggregateDay(db, channel, day, now);
      days += 1;
    }
  }
  return days;
}

/** Counts every channel's days from `from` to `to` again (the backfill command); answers how many days were counted. */
export async function backfillDays(db: Db, from: string, to: string, now: Date, channelIds?: number[]): Promise<number> {
  let days = 0;
  for (const channel of await allChannels(db)) {
    if (channelIds && !channelIds.includes(channel.id)) continue;
    for (const day of daysBetween(from, to)) {
      await aggregateDay(db, channel, day, now);
      days += 1;
    }
  }
  return days;
}

/** One day's figures of a channel as the console shows them. `conversion`: buyers / visitors, null with no visitor. */
export type DayFigures = {
  day: string;
  pageViews: number;
  visitors: number;
  buyers: number;
  orders: number;
  paidAmount: number;
  refunds: number;
  refundAmount: number;
  conversion: number | null;
  /** issue 36: page views through a buyer's share link, and paid orders credited to a sharer (docs/sharing.md). */
  shareVisits: number;
  shareBuys: number;
};

/** The longest range a report reads at once (days); a longer one is refused by the procedure (field `to`). */
export const MAX_REPORT_DAYS = 366;

/** A channel's figures for every day from `from` to `to` (a day with nothing counted reads zeros). Two indexed reads. */
export async function readDailyFigures(db: Db, channelId: number, from: string, to: string): Promise<DayFigures[]> {
  const [counted, views] = await Promise.all([
    db
      .select()
      .from(reportChannelDays)
      .where(and(eq(reportChannelDays.channelId, channelId), gte(reportChannelDays.day, from), lte(reportChannelDays.day, to))),
    db
      .select({ day: channelPageViews.day, views: channelPageViews.views })
      .from(channelPageViews)
      .where(and(eq(channelPageViews.channelId, channelId), gte(channelPageViews.day, from), lte(channelPageViews.day, to))),
  ]);
  const byDay = new Map(counted.map((r) => [r.day, r]));
  const viewsByDay = new Map(views.map((r) => [r.day, Number(r.views)]));
  return daysBetween(from, to).map((day) => {
    const r = byDay.get(day);
    const visitors = r?.visitors ?? 0;
    const buyers = r?.buyers ?? 0;
    return {
      day,
      pageViews: viewsByDay.get(day) ?? 0,
      visitors,
      buyers,
      orders: r?.orders ?? 0,
      paidAmount: Number(r?.paidAmount ?? 0),
      refunds: r?.refunds ?? 0,
      refundAmount: Number(r?.refundAmount ?? 0),
      conversion: visitors > 0 ? buyers / visitors : null,
      shareVisits: r?.shareVisits ?? 0,
      shareBuys: r?.shareBuys ?? 0,
    };
  });
}

/** A sale's sales within a range: paid orders, copies sold, and sell-through (copies sold / copies offered). */
export type SaleFigures = {
  saleId: number;
  code: string;
  name: string;
  copiesOffered: number;
  orders: number;
  copiesSold: number;
  sellThrough: number;
};

/** Each sale of the channel that sold in the range, by copies sold (most first). */
export async function readSaleFigures(db: Db, channelId: number, from: string, to: string): Promise<SaleFigures[]> {
  const rows = await db
    .select({
      saleId: reportSaleDays.saleId,
      orders: sql<number>`sum(${reportSaleDays.orders})`.mapWith(Number),
      copies: sql<number>`sum(${reportSaleDays.copies})`.mapWith(Number),
    })
    .from(reportSaleDays)
    .where(and(eq(reportSaleDays.channelId, channelId), gte(reportSaleDays.day, from), lte(reportSaleDays.day, to)))
    .groupBy(reportSaleDays.saleId);
  if (rows.length === 0) return [];
  const info = await db
    .select({ id: sales.id, code: sales.code, amount: sales.amount, name: commodities.name })
    .from(sales)
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(
      inArray(
        sales.id,
        rows.map((r) => r.saleId),
      ),
    );
  const byId = new Map(info.map((s) => [s.id, s]));
  return rows
    .map((r) => {
      const s = byId.get(r.saleId);
      const offered = s?.amount ?? 0;
      return {
        saleId: r.saleId,
        code: s?.code ?? String(r.saleId),
        name: s?.name ?? '',
        copiesOffered: offered,
        orders: r.orders,
        copiesSold: r.copies,
        sellThrough: offered > 0 ? r.copies / offered : 0,
      };
    })
    .sort((a, b) => b.copiesSold - a.copiesSold || a.saleId - b.saleId);
}
