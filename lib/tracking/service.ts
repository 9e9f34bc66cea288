import 'server-only';
import { getDb, type Db } from '../db/client';
import { trackingEvents } from '../db/schema';
import type { StoredTrackingRecord } from './schema';

// A mainland-China mobile number (spec §5) anywhere in a value, and credentials in URLs.
const PHONE = /(?<!\d)1[3-9]\d{9}(?!\d)/g;
const SECRET_PARAM = /([?&#](?:token|access_token|authorization|auth|code|phone|mobile)=)[^&#\s]*/gi;

/** No phone number or token ever goes into a stored record, whatever a client sends (issue: tracking). */
export function scrub(value: string): string {
  return value.replace(SECRET_PARAM, '$1[redacted]').replace(PHONE, '[redacted]');
}

/**
 * Stores a validated batch of tracking records for a channel, stamping serv_time. One statement per batch.
 */
export async function ingestTrackingBatch(
  channelId: number,
  records: StoredTrackingRecord[],
  options: { db?: Db; now?: Date } = {},
): Promise<{ accepted: number }> {
  const db = options.db ?? getDb();
  const servTime = options.now ?? new Date();
  await db.insert(trackingEvents).values(
    records.map((record) => {
      const clean = Object.fromEntries(
        Object.entries(record).map(([key, value]) => [key, typeof value === 'string' ? scrub(value) : value]),
      );
      return {
        channelId,
        eventType: record.event_type,
        pageId: record.page_id,
        sessionId: record.session_id,
        servTime,
        record: { ...clean, serv_time: servTime.toISOString() },
      };
    }),
  );
  return { accepted: records.length };
}
