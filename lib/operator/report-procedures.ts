import 'server-only';
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import type { Db } from '../db/client';
import { env } from '../env';
import { commodities, orders, sales, type ChannelRow } from '../db/schema';
import { procedure } from '../procedure/procedure';
import type { OperatorRule } from '../procedure/roles';
import { AppError } from '../procedure/errors';
import { describeInput, inputError } from '../procedure/messages';
import { askedLocale } from '../i18n/locale';
import { cookieValue } from '../security/cookies';
import { ORDER_STATUS } from '../order/status';
import { LIVE_SECONDS, readLiveMeter } from '../monitor/drop-meter';
import { ALERT_KINDS, listAlerts } from '../monitor/alerts';
import { MAX_REPORT_DAYS, readDailyFigures, readSaleFigures } from '../report/daily';
import { reportCsv, reportCsvFileName } from '../report/csv';
import { addDays, dayIn, daysBetween, isDay } from '../report/days';
import { resolveOperatorSession } from './accounts';
import { operatorChannel } from './channels';
import { isOperatorHost, OPERATOR_COOKIE } from './host';

/**
 * The Reports tab's calls (issue 32, "Reports"): a channel's daily figures and its sales' sell-through over a range of
 * days in the channel's time zone (pre-aggregated rows, lib/report/daily.ts), the live view of its running sales
 * (polled every second), its alerts, and the CSV export of the table (a GET route, as the audit trail's). Owners, and
 * managers on the channels granted (issue 32, "Role rules": managers read the reports; support does not). Reads only:
 * nothing here writes, and no figure names a buyer.
 */

const READ_REPORTS: OperatorRule = { roles: ['owner', 'manager'], channel: 'input' };

const channelKey = channelKeySchema;

const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const day = z
  .string({ error: 'must be a date yyyy-MM-dd' })
  .refine((d) => isDay(d) && d >= '2000-01-01' && d <= '2999-12-31', 'must be a real date yyyy-MM-dd between 2000-01-01 and 2999-12-31');

/** The range as the page's form and the calls send it; blank: the last 14 days up to today in the channel's zone. */
export const reportRangeInput = z
  .object({ channel: channelKey, from: z.preprocess(blankIsUnset, day.optional()), to: z.preprocess(blankIsUnset, day.optional()) })
  .refine((r) => !r.from || !r.to || r.from <= r.to, { path: ['to'], message: 'must be on or after the first day' })
  .refine((r) => !r.from || !r.to || daysBetween(r.from, r.to).length <= MAX_REPORT_DAYS, {
    path: ['to'],
    message: `must be at most ${MAX_REPORT_DAYS} days after the first day`,
  });

/** The default span of the reports page (issue 32: "default last 14 days"). */
export const DEFAULT_REPORT_DAYS = 14;

/** The range asked, filled in: `to` defaults to today in the channel's zone, `from` to 13 days before `to`. */
export function reportRange(input: { from?: string; to?: string }, timeZone: string, now: Date): { from: string; to: string } {
  const to = input.to ?? (input.from ? addDays(input.from, DEFAULT_REPORT_DAYS - 1) : dayIn(timeZone, now));
  const from = input.from ?? addDays(to, -(DEFAULT_REPORT_DAYS - 1));
  return { from, to };
}

const dayFigures = z.object({
  day: z.string(),
  pageViews: z.number(),
  visitors: z.number(),
  buyers: z.number(),
  orders: z.number(),
  paidAmount: z.number(),
  refunds: z.number(),
  refundAmount: z.number(),
  conversion: z.number().nullable(),
  shareVisits: z.number(),
  shareBuys: z.number(),
});
const saleFigures = z.object({
  saleId: z.number(),
  code: z.string(),
  name: z.string(),
  copiesOffered: z.number(),
  orders: z.number(),
  copiesSold: z.number(),
  sellThrough: z.number(),
});

export type LiveSale = {
  code: string;
  name: string;
  copies: number;
  /** Copies paid for: neither left nor held by an unpaid order. */
  sold: number;
  /** Copies not taken: neither paid for nor held by an unpaid order. */
  left: number;
  /** The deployment's buy calls of the sale (every server process) in each of the 10 seconds shown, oldest first. */
  buyCalls: number[];
};

/** What the live view shows (the page's first drawing and each one-second poll). */
export type LiveView = { at: string; sales: LiveSale[]; busyAnswers: number[] };

/**
 * The live view of a channel's running sales (open now, not closed; at most 20, in list order): copies sold and left
 * from the sales and open orders, and buy calls and the deployment's busy answers per second from the counts every
 * server process adds to `drop_meter_seconds` (lib/monitor/drop-meter.ts): the LIVE_SECONDS seconds ending
 * LIVE_LAG_SECONDS before `now`, so a poll answered by any process shows the whole deployment (docs/reports.md).
 */
export async function liveDropView(db: Db, channelId: number, now: Date): Promise<LiveView> {
  const running = await db
    .select({ id: sales.id, code: sales.code, amount: sales.amount, left: sales.amountAvailable, name: commodities.name })
    .from(sales)
    .innerJoin(commodities, eq(commodities.id, sales.commodityId))
    .where(and(eq(sales.channelId, channelId), lte(sales.saleStartTime, now), or(isNull(sales.saleEndTime), gt(sales.saleEndTime, now))))
    .orderBy(asc(sales.sort), asc(sales.id))
    .limit(20);
  const saleIds = running.map((s) => s.id);
  // Copies held by unpaid orders, read through the open orders' index (few rows even in a drop); sold is what is neither
  // left nor held. Summing the paid orders instead would read every order of the sale on each one-second poll.
  const [held, meter] = await Promise.all([
    saleIds.length === 0
      ? Promise.resolve([])
      : db
          .select({ saleId: orders.saleId, copies: sql<number>`coalesce(sum(${orders.quantity}), 0)`.mapWith(Number) })
          .from(orders)
          .where(and(eq(orders.statusTrade, ORDER_STATUS.toPay), inArray(orders.saleId, saleIds)))
          .groupBy(orders.saleId),
    readLiveMeter(db, saleIds, now),
  ]);
  const heldBy = new Map(held.map((s) => [s.saleId, s.copies]));
  return {
    at: now.toISOString(),
    sales: running.map((s) => ({
      code: s.code,
      name: s.name,
      copies: s.amount,
      sold: Math.max(0, s.amount - s.left - (heldBy.get(s.id) ?? 0)),
      left: s.left,
      buyCalls: meter.buyCalls.get(s.id) ?? new Array<number>(LIVE_SECONDS).fill(0),
    })),
    busyAnswers: meter.busyAnswers,
  };
}

const alertView = z.object({
  id: z.number(),
  kind: z.enum(ALERT_KINDS),
  subject: z.string(),
  detail: z.string(),
  at: z.string(),
  delivered: z.boolean(),
  deliveryError: z.string().nullable(),
  /** Each post of the alert (issue 32): the deployment's webhook and the channel's own, taken, retrying or given up. */
  deliveries: z.array(
    z.object({
      target: z.enum(['deployment', 'channel']),
      state: z.enum(['sending', 'delivered', 'retrying', 'failed']),
      tries: z.number().int(),
      nextTryAt: z.string().nullable(),
      lastError: z.string().nullable(),
    }),
  ),
});

/** How far back the reports page lists alerts. */
export const ALERT_LIST_DAYS = 7;

export const reportProcedures = {
  '/ops/api/report/daily': procedure({
    summary:
      "A channel's figures per day from `from` to `to` (yyyy-MM-dd in the channel's time zone; default the last 14 days, at most 366): page views, visitors (tracking sessions), buyers (paying), paid orders and fen, refunds done and fen, conversion (buyers / visitors); and each sale's orders, copies sold and sell-through in the range. Counted every minute for today and yesterday.",
    auth: 'operator',
    operator: READ_REPORTS,
    input: reportRangeInput,
    output: z.object({ timeZone: z.string(), from: z.string(), to: z.string(), days: z.array(dayFigures), sales: z.array(saleFigures) }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const { from, to } = reportRange(input, channel.timeZone, ctx.now);
      const [days, perSale] = await Promise.all([
        readDailyFigures(ctx.db, channel.id, from, to),
        readSaleFigures(ctx.db, channel.id, from, to),
      ]);
      return { timeZone: channel.timeZone, from, to, days, sales: perSale };
    },
  }),
  '/ops/api/report/live': procedure({
    summary:
      "The live view of a channel's running sales, polled every second: copies, sold (paid) and left for each, the buy calls of each per second over 10 seconds ending 2 seconds ago, and the busy answers in those seconds, summed over every server process of the deployment (busy answers are the deployment's, not the channel's: see docs/reports.md).",
    auth: 'operator',
    operator: READ_REPORTS,
    input: z.object({ channel: channelKey }),
    output: z.object({
      at: z.string(),
      sales: z.array(
        z.object({
          code: z.string(),
          name: z.string(),
          copies: z.number(),
          sold: z.number(),
          left: z.number(),
          buyCalls: z.array(z.number()),
        }),
      ),
      busyAnswers: z.array(z.number()),
    }),
    handler: async (ctx) => liveDropView(ctx.db, (await ctx.operatorChannel()).id, ctx.now),
  }),
  '/ops/api/report/alerts': procedure({
    summary:
      'The alerts of the last 7 days for a channel and for the whole deployment, newest first (at most 50): a drop sold out, busy answers above the threshold, the SMS budget spent, a domain check failing, a payment provider refusing; and each post to a webhook (the deployment’s, the channel’s own): taken, retrying (tries so far, the next one’s time) or given up.',
    auth: 'operator',
    operator: READ_REPORTS,
    input: z.object({ channel: channelKey }),
    output: z.object({ alerts: z.array(alertView) }),
    handler: async (ctx) => {
      const channel = await ctx.operatorChannel();
      const list = await listAlerts(ctx.db, channel.id, new Date(ctx.now.getTime() - ALERT_LIST_DAYS * 86_400_000));
      return {
        alerts: list.map(({ createdAt, deliveries, ...a }) => ({
          ...a,
          at: createdAt.toISOString(),
          deliveries: deliveries.map((d) => ({ ...d, nextTryAt: d.nextTryAt ? d.nextTryAt.toISOString() : null })),
        })),
      };
    },
  }),
};

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

/**
 * GET /channels/<key>/reports/export?from=&to= on the operator host: the reports table as a CSV download, the same
 * rows as the page. The checks of `READ_REPORTS` as the dispatcher makes them: 404 off the operator host; 401 without
 * a live session; 403 for support or a cross-site request; 400 naming the field; 404 for a channel the operator does
 * not work on (the same as one that does not exist).
 */
export async function exportReportResponse(request: Request, key: string, options: { db: Db; now?: Date }): Promise<Response> {
  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  const locale = askedLocale(request.headers.get('accept-language')) ?? 'en';
  const now = options.now ?? new Date();
  if (!isOperatorHost(host, env().OPERATOR_HOST)) return plain(404, 'Not found');
  const session = await resolveOperatorSession(options.db, cookieValue(request.headers.get('cookie'), OPERATOR_COOKIE), now);
  if (!session) return plain(401, 'Sign in to the console first.');
  if (!READ_REPORTS.roles.includes(session.role)) return plain(403, 'Your role may not read the reports.');
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return plain(403, 'origin: export from the console itself');
  const parsed = reportRangeInput.safeParse(
    { channel: key, from: url.searchParams.get('from') ?? undefined, to: url.searchParams.get('to') ?? undefined },
    { error: inputError, reportInput: true },
  );
  if (!parsed.success) return plain(400, describeInput(parsed.error.issues, locale));
  let channel: ChannelRow;
  try {
    channel = await operatorChannel(options.db, session, parsed.data.channel);
  } catch (error) {
    if (error instanceof AppError) return plain(404, error.messageIn(locale));
    throw error;
  }
  const { from, to } = reportRange(parsed.data, channel.timeZone, now);
  const csv = reportCsv(await readDailyFigures(options.db, channel.id, from, to));
  return new Response(csv, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${reportCsvFileName(channel.key, from, to)}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
