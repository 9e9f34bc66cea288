import 'server-only';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { channelPageViews } from '../db/schema';

/**
 * Today's page views per channel (issue 31, "Channels"): counted where a store page request enters (proxy.ts, so a
 * page the rendered-page cache answers counts too), kept in memory per process, and added to `channel_page_views` every
 * PAGE_VIEW_FLUSH_MS and at shutdown by one upsert per channel and day: no database write per view, so counting costs
 * the shared-link pages nothing measurable (docs/benchmarks.md). "Today" is the calendar day in the channel's time zone.
 */

/** How often a process adds its counts to the table; at most this much is lost if a process is killed outright. */
export const PAGE_VIEW_FLUSH_MS = 5_000;

/**
 * User agents that are not a person opening a page: search and link-preview crawlers, monitors, HTTP libraries and
 * automated browsers. A missing user agent is not a browser either.
 */
const NOT_A_PERSON =
  /bot\b|bot\/|crawl|spider|slurp|preview|facebookexternalhit|embedly|headless|lighthouse|pingdom|uptime|monitor|curl\/|wget\/|python|go-http-client|java\/|okhttp|node-fetch|undici|axios|httpclient|libwww|scrapy|phantomjs/i;

/**
 * Whether a request that reached a store page is a person's page view: a GET (not HEAD) of a page, not the server's
 * own render for the page cache, not a prefetch (Next's router prefetch, the browser's speculative `Sec-Purpose: prefetch`), not
 * a bot. The API, Next's assets and the images never reach the proxy (its matcher), so they are never counted.
 */
export function countsAsPageView(method: string, headers: Headers, isRenderRequest: boolean): boolean {
  if (method !== 'GET' || isRenderRequest) return false;
  if (headers.get('next-router-prefetch') !== null) return false;
  // A document the browser opens, or the router's fetch of the next page (`RSC: 1`); not a manifest, icon or image
  // that a page asks for on its own.
  const dest = headers.get('sec-fetch-dest');
  if (dest !== null && dest !== 'document' && headers.get('rsc') === null) return false;
  const purpose = `${headers.get('sec-purpose') ?? ''} ${headers.get('purpose') ?? ''} ${headers.get('x-moz') ?? ''}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  return isPersonAgent(headers.get('user-agent'));
}

/** Whether a user agent is a person's browser: present, and not a crawler, monitor, HTTP library or automated browser. */
export function isPersonAgent(agent: string | null): boolean {
  return agent !== null && agent.trim() !== '' && !NOT_A_PERSON.test(agent);
}

/** The calendar day (`yyyy-MM-dd`) of `now` in `timeZone`; an unknown zone reads as UTC (a page must not break). */
function dayOf(timeZone: string, now: Date): string {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      format = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
    }
    formats.set(timeZone, format);
  }
  return format.format(now);
}
const formats = new Map<string, Intl.DateTimeFormat>();

/** Counts of one process not yet in the table, by channel and day. */
export class PageViewCounter {
  private counts = new Map<string, number>();
  /** The day of each time zone, kept for the minute it was read in (every zone's midnight falls on a whole minute). */
  private days = new Map<string, { minute: number; day: string }>();

  /** One page view of `channelId` at `now`: a map update, nothing else. */
  count(channelId: number, timeZone: string, now: Date): void {
    const minute = Math.floor(now.getTime() / 60_000);
    let known = this.days.get(timeZone);
    if (!known || known.minute !== minute) {
      known = { minute, day: dayOf(timeZone, now) };
      this.days.set(timeZone, known);
    }
    const key = `${channelId}|${known.day}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Views counted and not yet flushed. */
  pending(): number {
    let total = 0;
    for (const n of this.counts.values()) total += n;
    return total;
  }

  /**
   * Adds the counts to the table, one upsert per channel and day, and forgets them; counts of a failed upsert are kept
   * for the next flush. Answers how many views were written.
   */
  async flush(db: Db): Promise<number> {
    const taken = this.counts;
    this.counts = new Map();
    let written = 0;
    for (const [key, views] of taken) {
      const [channel, day] = key.split('|') as [string, string];
      try {
        await db
          .insert(channelPageViews)
          .values({ channelId: Number(channel), day, views })
          .onConflictDoUpdate({
            target: [channelPageViews.channelId, channelPageViews.day],
            set: { views: sql`${channelPageViews.views} + excluded.views` },
          });
        written += views;
      } catch (error) {
        this.counts.set(key, (this.counts.get(key) ?? 0) + views);
        console.error(`[page views] could not add ${views} view(s) of channel ${channel} on ${day}; kept for the next flush`, error);
      }
    }
    return written;
  }
}

type Recorder = { counter: PageViewCounter; timer: ReturnType<typeof setInterval> };
const globalForViews = globalThis as unknown as { storefrontPageViews?: Recorder; storefrontShutdownHooks?: (() => Promise<void>)[] };

/**
 * This process's counter, flushed to `db()` every PAGE_VIEW_FLUSH_MS from its first view, and at shutdown (server.ts
 * awaits `storefrontShutdownHooks` before it exits). Kept on globalThis: the proxy and the app share one per process.
 */
export function pageViewRecorder(db: () => Db): PageViewCounter {
  const existing = globalForViews.storefrontPageViews;
  if (existing) return existing.counter;
  const counter = new PageViewCounter();
  let flushing: Promise<unknown> = Promise.resolve();
  const flush = () => (flushing = flushing.then(() => (counter.pending() ? counter.flush(db()) : 0)).catch(() => 0));
  const timer = setInterval(() => void flush(), PAGE_VIEW_FLUSH_MS);
  timer.unref?.();
  globalForViews.storefrontPageViews = { counter, timer };
  (globalForViews.storefrontShutdownHooks ??= []).push(async () => {
    clearInterval(timer);
    await flush();
  });
  return counter;
}

/** Today's views of each channel (its own time zone's today) as the table has them, by channel id; absent: none. */
export async function viewsToday(db: Db, list: { id: number; timeZone: string }[], now: Date): Promise<Map<number, number>> {
  if (list.length === 0) return new Map();
  const byDay = new Map<string, number[]>();
  for (const c of list) {
    const day = dayOf(c.timeZone, now);
    byDay.set(day, [...(byDay.get(day) ?? []), c.id]);
  }
  const rows = await db
    .select({ channelId: channelPageViews.channelId, views: channelPageViews.views })
    .from(channelPageViews)
    .where(or(...[...byDay].map(([day, ids]) => and(eq(channelPageViews.day, day), inArray(channelPageViews.channelId, ids)))));
  return new Map(rows.map((r) => [r.channelId, Number(r.views)]));
}
