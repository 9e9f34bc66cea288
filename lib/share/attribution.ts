import 'server-only';
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, shareVisits } from '../db/schema';
import { ORDER_STATUS } from '../order/status';
import { fromOfUrl, sharerOf } from './codes';

/**
 * Attribution of visits and buys to the buyer whose link brought them (issue 36, docs/sharing.md).
 *
 * - A **share visit** is a page view whose address carries a valid `from` of the channel, as the page tracker records it
 *   (the rendered-page cache answers the page itself, so the server learns of the visit from the tracker's record, which
 *   every page already sends: no script is added). A sharer's own visits are not counted.
 * - A **share buy** is a paid order whose buyer had a share visit in the ATTRIBUTION_DAYS before paying; the **last**
 *   such visit wins (its sharer is the one credited).
 * - The visitor is known by the tracker's device id; the buyer behind it when they were logged in at the visit, or when
 *   that device's tracker next reports their pay page or pay result while logged in (`claimDeviceVisits`). The browser is
 *   also known by its storefront_device cookie, kept as a keyed hash on the visit and on the order it buys
 *   (`orders.device_key`): a buy from that browser is credited though its tracker never reported the pay page.
 */
export const ATTRIBUTION_DAYS = 7;
/**
 * The pages on which a logged-in buyer claims their device's share visits: the pay page and the pay result. The
 * tracker's records reach the server with the session only in its timed sends (a JSON fetch, every 10 seconds); those
 * it sends as the page is left go by sendBeacon, which the session cookie does not count for (lib/security/csrf.ts). A
 * buyer waits on one of these pages long enough.
 */
const PAYING_PAGES = new Set(['pay', 'paySuccess']);
const WINDOW_MS = ATTRIBUTION_DAYS * 86_400_000;
/** A device's views of one sharer's link to one page within this long are one share visit. */
export const REVISIT_MS = 30 * 60_000;

/** What attribution reads of a tracking record (lib/tracking/schema.ts). */
export type VisitRecord = { event_type: string; page_url: string; page_id: string; dev_id: string; commodity_id: string };

/**
 * Records the share visits of a batch of tracking records; `viewer` tells the logged-in buyer, asked only when the batch
 * has a share visit or a view of a PAYING_PAGES page; `device` the keyed hash of the browser's storefront_device cookie
 * (issuing one when it has none), asked only when a visit is recorded. Answers how many share visits were recorded. Unknown or forged codes are
 * ignored.
 */
export async function recordShareVisits(
  db: Db,
  channelId: number,
  now: Date,
  records: readonly VisitRecord[],
  viewer: () => Promise<number | null>,
  device: () => string | null = () => null,
): Promise<number> {
  const views = records.filter((r) => r.event_type === 'page_view');
  const shared = views.map((r) => ({ record: r, code: fromOfUrl(r.page_url) })).filter((v) => v.code !== null);
  const paying = views.filter((r) => PAYING_PAGES.has(r.page_id));
  if (shared.length === 0 && paying.length === 0) return 0;
  const visitorId = await viewer().catch(() => null);
  let deviceKey: string | null | undefined;
  let recorded = 0;
  for (const { record, code } of shared) {
    const sharerId = await sharerOf(db, channelId, code);
    if (sharerId === null || sharerId === visitorId) continue;
    const parsed = /^[1-9]\d{0,9}$/.test(record.commodity_id) ? Number(record.commodity_id) : null;
    const saleId = parsed !== null && parsed <= 2_147_483_647 ? parsed : null;
    const deviceId = record.dev_id.slice(0, 64);
    // One visit per device, sharer and page within REVISIT_MS: a tab shown again, or a reload, is the same visit. The
    // look and the write are one step per device (a lock for the transaction): the tracker's timed send and the send
    // as the page is left can arrive together, and both saw no visit yet.
    const inserted = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`share-visit:${channelId}:${deviceId}`}))`);
      const [recent] = await tx
        .select({ id: shareVisits.id })
        .from(shareVisits)
        .where(
          and(
            eq(shareVisits.channelId, channelId),
            eq(shareVisits.deviceId, deviceId),
            eq(shareVisits.sharerId, sharerId),
            saleId === null ? isNull(shareVisits.saleId) : eq(shareVisits.saleId, saleId),
            gt(shareVisits.visitedAt, new Date(now.getTime() - REVISIT_MS)),
          ),
        )
        .limit(1);
      if (recent) return false;
      // The browser's cookie, as its keyed hash: the order it buys carries the same (orders.device_key), whatever the
      // tracker sends after this.
      if (deviceKey === undefined) deviceKey = device();
      await tx.insert(shareVisits).values({ channelId, sharerId, saleId, deviceId, deviceKey, visitorId, visitedAt: now });
      return true;
    });
    if (!inserted) continue;
    recorded += 1;
  }
  if (visitorId !== null) {
    for (const tracked of new Set(paying.map((r) => r.dev_id))) await claimDeviceVisits(db, channelId, tracked, visitorId, now);
  }
  return recorded;
}

/** The logged-in buyer on a paying page claims the share visits their device made unknown, within the window. */
export async function claimDeviceVisits(db: Db, channelId: number, deviceId: string, visitorId: number, now: Date): Promise<void> {
  await db
    .update(shareVisits)
    .set({ visitorId })
    .where(
      and(
        eq(shareVisits.channelId, channelId),
        eq(shareVisits.deviceId, deviceId),
        isNull(shareVisits.visitorId),
        gt(shareVisits.visitedAt, new Date(now.getTime() - WINDOW_MS)),
        sql`${shareVisits.sharerId} <> ${visitorId}`,
      ),
    );
}

/**
 * The sharer credited with an order (SQL, for a query over `orders`): the last share visit in the window of its buyer, or
 * of the device it was bought on (`device_key`) while nobody known to be someone else was logged in there.
 */
export function creditedSharer(): SQL {
  return sql`(select ${shareVisits.sharerId} from ${shareVisits}
    where ${shareVisits.channelId} = ${orders.channelId}
      and (${shareVisits.visitorId} = ${orders.userId}
        or (${shareVisits.visitorId} is null and ${shareVisits.deviceKey} = ${orders.deviceKey}))
      and ${shareVisits.sharerId} <> ${orders.userId}
      and ${shareVisits.visitedAt} <= ${orders.payTime}
      and ${shareVisits.visitedAt} > ${orders.payTime} - make_interval(days => ${ATTRIBUTION_DAYS})
    order by ${shareVisits.visitedAt} desc, ${shareVisits.id} desc limit 1)`;
}

/** What a sharer's links brought on a channel: share visits and paid orders credited to them (all time). */
export async function sharerFigures(db: Db, channelId: number, sharerId: number): Promise<{ visits: number; buys: number }> {
  const [visits] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(shareVisits)
    .where(and(eq(shareVisits.channelId, channelId), eq(shareVisits.sharerId, sharerId)));
  const [buys] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(orders)
    .where(
      and(
        eq(orders.channelId, channelId),
        sql`${orders.payTime} is not null`,
        sql`${orders.statusTrade} <> ${ORDER_STATUS.closed}`,
        sql`(${orders.userId} in (select ${shareVisits.visitorId} from ${shareVisits} where ${shareVisits.channelId} = ${channelId} and ${shareVisits.sharerId} = ${sharerId})
          or ${orders.deviceKey} in (select ${shareVisits.deviceKey} from ${shareVisits} where ${shareVisits.channelId} = ${channelId} and ${shareVisits.sharerId} = ${sharerId}))`,
        sql`${creditedSharer()} = ${sharerId}`,
      ),
    );
  return { visits: visits?.n ?? 0, buys: buys?.n ?? 0 };
}
