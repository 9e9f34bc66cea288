import { z } from 'zod';
// The constants live in a zod-free module, for the browser's page tracker (./constants).
import { EVENT_TYPES, MAX_RECORDS_PER_REQUEST, PROJECT_ID } from './constants';

const text = (max = 256) => z.string().max(max, `must be ${max} characters or less`);
const optionalText = (max = 256) =>
  text(max)
    .nullish()
    .transform((v) => v ?? '');
const count = z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more');

/** A tracking record (spec §3 field list). serv_time and ip are the server's to fill. */
export const trackingRecordSchema = z.object({
  os: optionalText(32),
  os_vers: optionalText(32),
  dev_id: text(64).min(1, 'is required'),
  model: optionalText(64),
  manufacturer: optionalText(64),
  proj_id: z.literal(PROJECT_ID, { error: `must be ${PROJECT_ID}` }),
  proj_ver: optionalText(32),
  session_id: text(64).min(1, 'is required'),
  up_time: count.max(8_640_000_000_000, 'must be a timestamp in ms'),
  event_type: z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }),
  user_uuid: optionalText(64),
  province: optionalText(32),
  netwk_type: optionalText(16),
  scene_id: optionalText(64),
  page_id: text(64).min(1, 'is required'),
  page_url: text(2048),
  refer_id: optionalText(64),
  refer_url: optionalText(2048),
  refer_uuid: optionalText(64),
  /** Dwell time of the page being left, in seconds (spec §4). */
  duration: count
    .max(86_400 * 7, 'must be a week or less')
    .nullish()
    .transform((v) => v ?? null),
  commodity_id: optionalText(32),
  page_num: count.nullish().transform((v) => v ?? null),
  page_size: count.nullish().transform((v) => v ?? null),
  biz_info: optionalText(1024),
  source: optionalText(16),
});

export type TrackingRecord = z.input<typeof trackingRecordSchema>;
export type StoredTrackingRecord = z.output<typeof trackingRecordSchema>;

export const trackingBatchSchema = z.object({
  records: z
    .array(trackingRecordSchema, { error: 'must be a list of records' })
    .min(1, 'must hold at least one record')
    .max(MAX_RECORDS_PER_REQUEST, `must hold ${MAX_RECORDS_PER_REQUEST} records or less`),
});

/** log/track's answer: records taken (all of a valid batch), and how many were stored (fewer over the daily cap). */
export const trackingAnswerSchema = z.object({ accepted: z.number().int(), stored: z.number().int() });
