/**
 * What the router's fetch asked for (issue 34; docs/caching.md, "Flight answers"): read from the raw request by the entry
 * server (lib/server/flight-request.ts) and used by the flight cache (./flight.ts) and the proxy. Pure, so the compiled
 * entry server can use it outside Next's bundles.
 */
export type FlightRequest = {
  /** `Next-Router-State-Tree`, as sent (URI-encoded JSON), or null. */
  tree: string | null;
  /** `Next-Router-Prefetch` ('1'…'3'), or null for a navigation. */
  prefetch: string | null;
  /** `Next-Router-Segment-Prefetch` (`/_tree`, a segment path), or null. */
  segmentPrefetch: string | null;
  /** `Next-Url`: the internal path of the page the router is on. */
  nextUrl: string | null;
  /** The `_rsc` search parameter, checked against the headers above. */
  rsc: string;
};

/** The router's headers as Next read them, for what needs them in the proxy (the page-view count). */
export function routerHeaders(flight: FlightRequest): Record<string, string> {
  return {
    rsc: '1',
    ...(flight.tree !== null ? { 'next-router-state-tree': flight.tree } : {}),
    ...(flight.prefetch !== null ? { 'next-router-prefetch': flight.prefetch } : {}),
    ...(flight.segmentPrefetch !== null ? { 'next-router-segment-prefetch': flight.segmentPrefetch } : {}),
    ...(flight.nextUrl !== null ? { 'next-url': flight.nextUrl } : {}),
  };
}

/**
 * Set by the entry server's page door on a request whose shared page it read the caches for (and rendered, on a miss)
 * without an answer to keep (a render failed or was not one to keep), before it hands the request to Next: the proxy
 * then leaves the page to Next rather than render it a second time (lib/page/store-request.ts). A client's copy is
 * dropped as the request enters (lib/server/flight-request.ts `markFlightRequest`).
 */
export const DOOR_READ_HEADER = 'x-storefront-door-read';
