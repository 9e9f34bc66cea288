import type { IncomingHttpHeaders } from 'node:http';
import { DOOR_READ_HEADER, type FlightRequest } from '../page/flight-headers';
import { computeCacheBustingSearchParam } from 'next/dist/shared/lib/router/utils/cache-busting-search-param';

/**
 * The router's flight fetches, carried past Next's header stripping (issue 34; docs/caching.md, "Flight answers").
 *
 * In-app navigation in Next's App Router is a GET of the page's URL with `RSC: 1`, the router state tree
 * (`Next-Router-State-Tree`), the prefetch kind (`Next-Router-Prefetch`, `Next-Router-Segment-Prefetch`), the internal
 * path of the page it comes from (`Next-Url`) and `?_rsc=<hash of those headers>`; Next answers `text/x-component`.
 * Next removes all of these but `Next-Url` from the request, and `_rsc` from its URL, before the proxy runs, so the
 * proxy cannot tell a navigation from a page load, nor which answer it would be. The entry server (server.ts) sees the
 * raw request: it puts what it read in one header of its own, which the proxy reads.
 *
 * The client's own copy of that header is always dropped first, so only the entry server can set it. A request whose
 * `_rsc` is not the hash Next expects of its headers is left unmarked: Next answers it with a redirect to the right
 * hash (its defence against caches that ignore Vary), as before.
 */
export const FLIGHT_HEADER = 'x-storefront-flight';

function one(headers: IncomingHttpHeaders, name: string): string | null | 'repeated' {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? 'repeated' : value;
}

/**
 * In the entry server, first for every request: drops the client's FLIGHT_HEADER and DOOR_READ_HEADER (the page door's
 * mark, lib/page/flight-headers.ts), and for a router fetch whose `_rsc`
 * matches its headers sets it to what the proxy needs. Synchronous (undefined) for every other request; a promise
 * (the hash is SHA-256 through WebCrypto) for router fetches.
 */
export function markFlightRequest(req: { method?: string; url?: string; headers: IncomingHttpHeaders }): Promise<void> | undefined {
  delete req.headers[FLIGHT_HEADER];
  delete req.headers[DOOR_READ_HEADER];
  if (req.method !== 'GET' || req.headers.rsc !== '1') return undefined;
  const tree = one(req.headers, 'next-router-state-tree');
  const prefetch = one(req.headers, 'next-router-prefetch');
  const segmentPrefetch = one(req.headers, 'next-router-segment-prefetch');
  const nextUrl = one(req.headers, 'next-url');
  // A hot-reload refetch (dev only) or a repeated header: Next's to answer, never cached.
  if (req.headers['next-hmr-refresh'] !== undefined) return undefined;
  if (tree === 'repeated' || prefetch === 'repeated' || segmentPrefetch === 'repeated' || nextUrl === 'repeated') return undefined;
  const query = (req.url ?? '').split('?')[1];
  const rsc = query === undefined ? null : new URLSearchParams(query).get('_rsc');
  if (!rsc) return undefined;
  // The same test as Next's (base-server.js, validateRSCRequestHeaders): prefetch kinds other than 1–3 count as none.
  const kind = prefetch === '1' || prefetch === '2' || prefetch === '3' ? prefetch : undefined;
  return computeCacheBustingSearchParam(kind, segmentPrefetch ?? undefined, tree ?? undefined, nextUrl ?? undefined).then(
    (expected) => {
      if (expected !== rsc) return;
      const flight: FlightRequest = { tree, prefetch: kind ?? null, segmentPrefetch, nextUrl, rsc };
      req.headers[FLIGHT_HEADER] = Buffer.from(JSON.stringify(flight)).toString('base64url');
    },
    () => undefined,
  );
}

/** In the proxy: the router fetch the entry server marked, or null (a page load, an API call, anything else). */
export function readFlightRequest(headers: Headers): FlightRequest | null {
  const raw = headers.get(FLIGHT_HEADER);
  if (!raw) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<FlightRequest>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    if (typeof value.rsc !== 'string') return null;
    return {
      tree: text(value.tree),
      prefetch: text(value.prefetch),
      segmentPrefetch: text(value.segmentPrefetch),
      nextUrl: text(value.nextUrl),
      rsc: value.rsc,
    };
  } catch {
    return null;
  }
}
