import 'server-only';
import { env } from '../env';
import { isOperatorHost } from '../operator/host';
import { sessionCookieValue } from '../auth/session-claims';
import { cachedStoreAnswer, countStorePageView, routeStoreRequest, sendCachedAnswer, type StoreRequest } from '../page/store-request';
import { readFlightRequest } from './flight-request';
import { DOOR_READ_HEADER } from '../page/flight-headers';
import type { PageDoorAnswer, PageDoorCall } from './page-door';

/**
 * The page door's reader (lib/server/page-door.ts; issue 34): the proxy's steps (lib/page/store-request.ts) for a
 * request the entry server has not handed to Next yet, answering what the caches answer, as the proxy would: what they
 * hold, and what they miss once rendered (one render through Next for every reader waiting on it; a page invalidated
 * while its render is on its way is answered as it was, lib/page/rendered.ts `pageReadOptions`). Null: Next's to answer
 * (the console's host, a host of no channel, another spelling of the host, a guard's redirect, a page that is not
 * shared, a render not kept or failed, a router fetch Next must check itself).
 */
export async function readPageAtTheDoor(call: PageDoorCall): Promise<PageDoorAnswer | null> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(call.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else headers.set(name, value);
  }
  const host = headers.get('host');
  if (!host || isOperatorHost(host, env().OPERATOR_HOST)) return null;
  const flight = readFlightRequest(headers);
  // A router fetch the entry server did not mark (its `_rsc` is not the hash of its headers) is Next's: it answers
  // with a redirect to the right one, its defence against caches that ignore Vary.
  if (!flight && headers.has('rsc')) return null;
  const url = new URL(call.url, 'http://door.invalid');
  // Next takes its cache-busting parameter out before the proxy runs; the page's key never holds it.
  url.searchParams.delete('_rsc');
  const store: StoreRequest = {
    method: call.method,
    host,
    url: { pathname: url.pathname, search: url.search, searchParams: url.searchParams },
    headers,
    sessionCookie: sessionCookieValue(headers.get('cookie')),
    flight,
  };
  const routed = await routeStoreRequest(store);
  const { row } = routed;
  if (routed.canonical || !row || row === 'unavailable') return null;
  const cached = await cachedStoreAnswer(store, routed);
  if (!cached) {
    // Next's to answer, without the proxy reading the caches a second time (a render that failed here would fail
    // there too, after as long a wait): the mark goes on the request Next receives.
    call.headers[DOOR_READ_HEADER] = '1';
    return null;
  }
  countStorePageView(store, routed, cached);
  return sendCachedAnswer(cached, { ...routed, row }, host);
}
