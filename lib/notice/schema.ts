import { z } from 'zod';
import { NOTICE_TYPES } from '../db/schema';

/**
 * Notices and the drop calendar as the API carries them (issue 32, "Notices and a drop calendar"): ids and times are
 * strings (DESIGN §5). The body is plain text; its paragraphs are split on blank lines where it is shown.
 */

export { NOTICE_TYPES };

/** The longest title and body an operator may write (issue 32): a notice is read on a phone. */
export const NOTICE_TITLE_MAX = 80;
export const NOTICE_BODY_MAX = 5000;

/** How far ahead the drop calendar looks (issue 32: "within e.g. 30 days"). */
export const CALENDAR_DAYS = 30;

export const noticeViewSchema = z.object({
  id: z.string(),
  type: z.enum(NOTICE_TYPES),
  title: z.string(),
  body: z.string(),
  publishTime: z.string(),
});
export type NoticeView = z.infer<typeof noticeViewSchema>;

/** A notice as the console lists it: with its state and who wrote it. */
export const noticeAdminViewSchema = noticeViewSchema.extend({
  withdrawnTime: z.string().nullable(),
  state: z.enum(['scheduled', 'published', 'withdrawn']),
  createdTime: z.string(),
  updatedTime: z.string(),
});
export type NoticeAdminView = z.infer<typeof noticeAdminViewSchema>;

/** One upcoming sale on the drop calendar. */
export const calendarSaleSchema = z.object({
  saleId: z.string(),
  name: z.string(),
  cover: z.string(),
  saleStartTime: z.string(),
});
export type CalendarSale = z.infer<typeof calendarSaleSchema>;

/** The paragraphs of a notice's plain-text body: split on blank lines, each kept as text (never HTML). */
export function paragraphsOf(body: string): string[] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** The upcoming sales grouped by their opening day in the channel's time zone (yyyy-MM-dd), days in order. */
export function groupByDay(list: readonly CalendarSale[], dayOf: (iso: string) => string): { day: string; sales: CalendarSale[] }[] {
  const days: { day: string; sales: CalendarSale[] }[] = [];
  for (const sale of list) {
    const day = dayOf(sale.saleStartTime);
    const last = days[days.length - 1];
    if (last && last.day === day) last.sales.push(sale);
    else days.push({ day, sales: [sale] });
  }
  return days;
}
