/**
 * The notices by which a process tells the others which cache tags a write invalidated (issue 31; docs/caching.md,
 * "Invalidation across processes"). A notice is a PostgreSQL NOTIFY payload on `TAG_NOTICE_CHANNEL`: the sender's
 * origin (so a process skips its own echo by a prefix compare, without parsing) then either `*` (everything) or a JSON
 * array of tags. PostgreSQL refuses a payload of 8000 bytes or more, so a long list is split into several notices.
 */

/** The LISTEN/NOTIFY channel of invalidated tags. */
export const TAG_NOTICE_CHANNEL = 'cache_tags';

/** A payload must be shorter than 8000 bytes (PostgreSQL's default NOTIFY limit). */
export const MAX_NOTICE_BYTES = 7999;

/** The length of an origin: 12 random bytes in base64url. */
export const ORIGIN_LENGTH = 16;

const ALL = '*';

/**
 * The notices that carry `tags` from `origin` (null: everything), each under MAX_NOTICE_BYTES. A tag too long to fit
 * one notice on its own (none the storefront makes comes near) turns the whole batch into one "everything": dropping
 * too much is safe, a tag that never arrives is not.
 */
export function tagNotices(origin: string, tags: readonly string[] | null): string[] {
  if (origin.length !== ORIGIN_LENGTH) throw new Error(`a notice's origin has ${ORIGIN_LENGTH} characters`);
  if (tags === null) return [origin + ALL];
  const notices: string[] = [];
  let batch: string[] = [];
  // origin + "[" + "]", then each tag and its comma.
  const emptyBytes = ORIGIN_LENGTH + 2;
  let bytes = emptyBytes;
  for (const tag of new Set(tags)) {
    const tagBytes = Buffer.byteLength(JSON.stringify(tag), 'utf8') + (batch.length > 0 ? 1 : 0);
    if (emptyBytes + tagBytes > MAX_NOTICE_BYTES) return [origin + ALL];
    if (bytes + tagBytes > MAX_NOTICE_BYTES) {
      notices.push(origin + JSON.stringify(batch));
      batch = [];
      bytes = emptyBytes;
    }
    bytes += Buffer.byteLength(JSON.stringify(tag), 'utf8') + (batch.length > 0 ? 1 : 0);
    batch.push(tag);
  }
  if (batch.length > 0) notices.push(origin + JSON.stringify(batch));
  return notices;
}

/** What a notice heard by `origin` asks: nothing (its own echo), every entry, or these tags. */
export type HeardNotice = { kind: 'own' } | { kind: 'all' } | { kind: 'tags'; tags: string[] };

export function readTagNotice(origin: string, payload: string): HeardNotice {
  if (payload.startsWith(origin)) return { kind: 'own' };
  const body = payload.slice(ORIGIN_LENGTH);
  if (body === ALL) return { kind: 'all' };
  try {
    const tags: unknown = JSON.parse(body);
    if (Array.isArray(tags) && tags.every((tag) => typeof tag === 'string')) return { kind: 'tags', tags };
  } catch {
    // below
  }
  // A notice this version cannot read (another version of the storefront mid-upgrade, say): drop everything rather
  // than keep what it may have invalidated.
  return { kind: 'all' };
}
