import 'server-only';
import { eq } from 'drizzle-orm';
import { saleAllocations } from '../db/schema';
import { cachedRead, tags } from '../cache/store';
import { pageScope } from './channel';

/** A waiting-room sale's join window and grace, as its pages show them; null for a sale without a waiting room. */
export type PageQueueRoom = { joinMinutes: number; graceSeconds: number } | null;

/**
 * Whether a sale sells through a waiting room (issue 35), the same for every visitor: cached like the sale itself, under
 * the sale's terms tag, which the console's waiting-room setup drops. Read by the goods page and the pay page.
 */
export function pageQueueRoom(channelId: number, saleId: string): Promise<PageQueueRoom> {
  const scope = pageScope({ id: channelId });
  const id = Number(saleId);
  if (!Number.isSafeInteger(id)) return Promise.resolve(null);
  return cachedRead(scope.db, `queue-room:${channelId}:${saleId}`, [tags.saleTerms(saleId), tags.sale(saleId)], async () => {
    const [row] = await scope.db
      .select({
        mode: saleAllocations.mode,
        joinMinutes: saleAllocations.queueJoinMinutes,
        graceSeconds: saleAllocations.queueGraceSeconds,
      })
      .from(saleAllocations)
      .where(eq(saleAllocations.saleId, id));
    if (!row || row.mode !== 'queue' || row.joinMinutes === null || row.graceSeconds === null) return null;
    return { joinMinutes: row.joinMinutes, graceSeconds: row.graceSeconds };
  });
}
