import 'server-only';
import { cache } from 'react';

/** What a page loader is keyed by: the route's strings (channel key, locale, ids) and ids already read (channel id). */
export type PageKey = string | number;

/**
 * The one shape of a page loader (issue 30): `load` runs once per request for each set of keys, and the layout,
 * metadata, viewport and page of that request that ask for the same keys share its read. React's `cache` keeps the
 * result for the request (Next renders all of them in one React server request) and compares arguments by identity,
 * so the keys are primitives: an object made anew by each caller (a channel, a params promise) would never hit, and
 * the read would run again for each of them, as the goods page's sale read did. Across requests, what every visitor
 * sees alike is cached by `lib/page/cached-reads.ts` (docs/caching.md); this cache is for one request only.
 */
export function pageLoader<Keys extends PageKey[], T>(load: (...keys: Keys) => Promise<T>): (...keys: Keys) => Promise<T> {
  return cache(load);
}
