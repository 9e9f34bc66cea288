import 'server-only';
import { and, asc, eq, gt, isNull, lte } from 'drizzle-orm';
import { commodities, sales } from '../db/schema';
import type { ChannelScope } from '../procedure/scope';
import { CALENDAR_DAYS, type CalendarSale } from './schema';

const DAY_MS = 86_400_000;

/** The most sales the calendar lists: a month of drops on one phone screen list. */
const CALENDAR_MAX = 100;

/**
 * The drop calendar (issue 32): the channel's sales opening later than now and within CALENDAR_DAYS, soonest first.
 * Only this channel's sales, and only those on its home list (listed, not archived or cancelled: a hidden sale is reached
 * by its link alone); a sale that opened already is on the home list, not here.
 */
export async function listUpcomingSales({ db, now, channelId }: ChannelScope): Promise<CalendarSale[]> {
  const until = new Date(now.getTime() + CALENDAR_DAYS * DAY_MS);
  const rows = await db
    .select({ id: sales.id, start: sales.saleStartTime, name: commodities.name, cover: commodities.cover })
    .from(sales)
    .innerJoin(commodities, eq(sales.commodityId, commodities.id))
    .where(
      and(
        eq(sales.channelId, channelId),
        eq(sales.listed, true),
        isNull(sales.archivedAt),
        isNull(sales.cancelledAt),
        gt(sales.saleStartTime, now),
        lte(sales.saleStartTime, until),
      ),
    )
    .orderBy(asc(sales.saleStartTime), asc(sales.id))
    .limit(CALENDAR_MAX);
  return rows.map((r) => ({ saleId: String(r.id), name: r.name, cover: r.cover, saleStartTime: r.start.toISOString() }));
}
