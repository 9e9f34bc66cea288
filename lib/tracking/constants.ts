/**
 * Tracking constants shared by the browser's queue and the server's schema. No zod here: the page tracker runs on
 * every page, and the schema (lib/tracking/schema.ts, server side) is what validates records.
 */

/** spec §3 / §9: every record carries project id 5. */
export const PROJECT_ID = 5;
/** spec §9: a batch goes out at 10 records. */
export const MAX_BATCH = 10;
/** Server cap per request: a client may send a backlog in one beacon. */
export const MAX_RECORDS_PER_REQUEST = 50;

export const EVENT_TYPES = ['page_view', 'page_leave', 'click'] as const;
