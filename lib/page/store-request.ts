import 'server-only';
import { decideRoute, type RoutingDecision } from '../channel/routing';
import { matchRoute } from '../channel/routes';
import { toSummary } from '../channel/theme';
import { readChannel, toThemeInfo } from '../channel/service';
import type { ChannelRow } from '../db/schema';
import { getDb } from '../db/client';
import { parseSkin } from '../channel/skin';
import { canonicalHostRedirect } from '../channel/canonical-host';
import { canonicalHostOf, domainSettings, routeHostOrKeyRule } from '../channel/domains';
import { countsAsPageView, pageViewRecorder } from '../channel/page-views';
import { publicOrigin } from '../env';
import { readWebSession } from '../auth/session-claims';
import { authSecret } from '../security/secret';
import { contentSecurityPolicy, forwardedHttps, newNonce, originOf, securityHeaders } from '../security/headers';
import { wechatScriptSources } from '../wechat/account';
import { DOOR_READ_HEADER, routerHeaders, type FlightRequest } from './flight-headers';
import { admitVariant, flightWithNonce, planFlight, readFlight, renderFlightThroughServer, withValue, type FlightAnswer } from './flight';
import { withCurrentSkin } from './page-skin';
import {
  isRenderRequest,
  nonceParts,
  pageTags,
  readRenderedPage,
  renderThroughServer,
  servesFromCache,
  type RenderedPage,
} from './rendered';
import { planSharedPage, type StandIn } from './shared-page';
import { parseVisitor, VISITOR_HEADER, variesByVisitor, type Visitor } from './visitor';

/**
 * A store page request, from the host to the answer a cache holds (issue 34; docs/caching.md). Two callers walk it:
 * the proxy (proxy.ts), first at every page request Next handles, which reads, renders and answers everything; and the
 * entry server's page door (lib/page/door.ts), before Next's pipeline, which answers only a fresh cache entry and
 * leaves every other request (a redirect to make, a guard that refuses, a miss, an error) to the proxy. Both take the
 * same steps from here, in the same order, so the door can never answer what the proxy would not.
 */

/** The request as both callers see it: the path and query as the page reads them (without Next's `_rsc`). */
export type StoreRequest = {
  method: string;
  host: string;
  url: { pathname: string; search: string; searchParams: URLSearchParams };
  headers: Headers;
  /** The session cookie's value, as `sessionCookieValue` reads it. */
  sessionCookie: string | null;
  /** The router's fetch of the page (in-app navigation, prefetch) the entry server marked; null for a page load. */
  flight: FlightRequest | null;
};

/** Where a store request goes, and what of the channel it needs. */
export type RoutedStoreRequest = {
  now: Date;
  /** The channel row; null for a host of no channel; 'unavailable' when its read failed. */
  row: ChannelRow | null | 'unavailable';
  https: boolean;
  /** The channel's one host for this page, when the request came another way (308 there). */
  canonical: string | null;
  visitor: Visitor;
  decision: RoutingDecision;
  /** The script sources the page's CSP allows beyond its own (issue 36: WeChat's JS-SDK on a channel with an account). */
  scripts: readonly string[];
};

/**
 * The proxy's steps before an answer: host → channel through its domains (the spec §1 key rule as the fallback,
 * issue 31), the canonical host, the session from the cookie's claims (no database read), the routing decision
 * (spec §2 guards, lib/channel/routing.ts).
 */
export async function routeStoreRequest(request: StoreRequest): Promise<RoutedStoreRequest> {
  const settings = domainSettings();
  const now = new Date();
  const route = await routeHostOrKeyRule(getDb, request.host, settings, now);
  const key = route.key;
  let row: ChannelRow | null | 'unavailable';
  if (!key) {
    row = null;
  } else {
    try {
      row = await readChannel(getDb(), key);
    } catch (error) {
      // Safe default: serve the page without label guards; the page itself checks the channel exists.
      console.error(`[proxy] channel ${key} lookup failed`, error);
      row = 'unavailable';
    }
  }
  const summary = row === null || row === 'unavailable' ? row : toSummary(toThemeInfo(row));
  // The channel's pages on its one host (lib/channel/canonical-host.ts): its primary domain when it has one (every
  // other host of the channel answers 308 there, issue 31), and every other spelling that reaches it is sent there.
  // The API and payment notifications never come here (proxy.ts config.matcher), so they are never redirected.
  const https = forwardedHttps(request.headers);
  let canonical: string | null = null;
  if (row && row !== 'unavailable') {
    let canonicalHost = route.domain ?? row.host;
    try {
      canonicalHost = await canonicalHostOf(getDb(), row, route, settings, now);
    } catch (error) {
      console.error(`[proxy] primary domain of ${row.key} lookup failed`, error);
    }
    canonical = canonicalHostRedirect(request.host, publicOrigin(canonicalHost), `${request.url.pathname}${request.url.search}`);
  }
  // Whether the visitor has a session of this channel, from the cookie's claims (no database read). The proxy's own
  // render of a page with a variant per visitor (issue 34: /mine) says which variant it renders.
  const hasWebSession = Boolean(await readWebSession(request.sessionCookie, authSecret(), key));
  const render = isRenderRequest(request.headers);
  const visitor: Visitor = render ? parseVisitor(request.headers.get(VISITOR_HEADER)) : hasWebSession ? 'buyer' : 'anonymous';
  const decision = decideRoute({
    key,
    pathname: request.url.pathname,
    search: request.url.search,
    summary,
    // A session is a cookie that decrypts, has not expired and belongs to this channel. The proxy could read the
    // sessions table too (it runs in the server's process), but it only picks the login redirect: the page behind
    // login checks the token in the database anyway (lib/page/session.ts: revoked → /login), so a lookup here would
    // add a read to every guarded view and decide nothing more.
    hasSession: rendersSharedBuyerPage(request, render) || hasWebSession,
    acceptLanguage: request.headers.get('accept-language'),
  });
  return {
    now,
    row,
    https,
    canonical,
    visitor,
    decision,
    scripts: row && row !== 'unavailable' ? wechatScriptSources(row) : [],
  };
}

/**
 * The proxy's own render of a shared page behind login (issue 34: the pay page), made without cookies: it passes the
 * login guard, since what it renders holds nothing of any buyer (routes.ts `shared.buyerPart`) and only this server can
 * ask for it (the render secret). Every buyer's request still meets the guard before the cache answers.
 */
function rendersSharedBuyerPage(request: StoreRequest, render: boolean): boolean {
  if (!render) return false;
  const route = matchRoute(request.url.pathname)?.route;
  return Boolean(route?.login && route.shared?.buyerPart);
}

/** Where the proxy reaches this same server for a render (Node cannot resolve *.localhost). */
function internalOrigin(): URL {
  return new URL(process.env.INTERNAL_API_ORIGIN ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`);
}

/** What a cache holds for a store request: a page (or the redirect a render answered), or a router fetch's answer. */
export type CachedStoreAnswer =
  { kind: 'page'; page: RenderedPage; standIn?: StandIn } | { kind: 'flight'; answer: FlightAnswer; standIn?: StandIn };

/**
 * The cached answer of a routed request to a shared page: a page load from the rendered-page cache, a router fetch
 * from the flight cache (a miss rendered through this server, once for every reader waiting on it), or the redirect the
 * page would answer without a render (lib/page/shared-page.ts). The proxy and the entry server's page door alike; read
 * errors are logged. Undefined: not the caches' to answer.
 */
export async function cachedStoreAnswer(request: StoreRequest, routed: RoutedStoreRequest): Promise<CachedStoreAnswer | undefined> {
  const { decision, row } = routed;
  const flight = request.flight;
  if (!row || row === 'unavailable' || decision.kind !== 'rewrite') return undefined;
  // The page door read the caches for this request already, and had nothing to answer: Next renders the page.
  if (request.headers.has(DOOR_READ_HEADER)) return undefined;
  const db = getDb();
  const scope = { db, now: new Date(), channelId: row.id, channelKey: row.key };
  const acceptLanguage = request.headers.get('accept-language');
  if (flight) {
    if (request.method !== 'GET' || !decision.match.route.shared || isRenderRequest(request.headers)) return undefined;
    // A page with a variant per visitor (issue 34: /mine) is not kept as flight answers yet: Next renders the router's
    // fetch of it, for the variant the proxy passes on, which reads nothing of a buyer either.
    if (variesByVisitor(decision.match)) return undefined;
    try {
      const page = await planSharedPage(scope, decision.match, decision.locale, request.url.searchParams);
      // The router's tree is cut against the page as it is rendered: for a page with a stand-in, the stand-in's (so a
      // tree naming the stand-in itself is its own state, not one of every buyer's).
      const rendered = page.kind === 'cache' && page.standIn ? matchRoute(page.standIn.renderPath.split('?')[0]!) : null;
      const target = { match: rendered ?? decision.match, channelKey: row.key, locale: decision.locale };
      const plan = planFlight(page, flight, `${request.url.pathname}${request.url.search}`, target);
      if (plan.kind !== 'cache' || page.kind !== 'cache' || !admitVariant(db, page.key, plan.key)) return undefined;
      const answer = await readFlight(db, plan.key, pageTags(row, decision.match), () =>
        renderFlightThroughServer(internalOrigin(), plan.renderPath, flight, { host: request.host, acceptLanguage }),
      );
      return answer ? { kind: 'flight', answer, standIn: plan.standIn } : undefined;
    } catch (error) {
      console.error('[proxy] flight cache', error);
      return undefined;
    }
  }
  if (!servesFromCache(request.method, request.headers, decision.match)) return undefined;
  try {
    const plan = await planSharedPage(scope, decision.match, decision.locale, request.url.searchParams, routed.visitor);
    if (plan.kind === 'redirect') return { kind: 'page', page: { kind: 'redirect', status: plan.status, location: plan.location } };
    const read = await readRenderedPage(db, plan.key, pageTags(row, decision.match), () =>
      renderThroughServer(internalOrigin(), plan.renderPath, { host: request.host, acceptLanguage, visitor: plan.visitor }),
    );
    return read ? { kind: 'page', page: read, standIn: plan.standIn } : undefined;
  } catch (error) {
    console.error('[proxy] page cache', error);
    return undefined;
  }
}

/**
 * Today's page views (issue 31): counted where every store page request enters, so a page the cache answers counts
 * too (but not one it answers with a redirect: the page it leads to counts); a map update in memory, flushed every few
 * seconds (lib/channel/page-views.ts).
 */
export function countStorePageView(request: StoreRequest, routed: RoutedStoreRequest, cached: CachedStoreAnswer | undefined): void {
  const { row, decision } = routed;
  if (!row || row === 'unavailable' || decision.kind !== 'rewrite') return;
  if (cached?.kind === 'page' && cached.page.kind === 'redirect') return;
  const headers = request.flight ? withRouterHeaders(request.headers, request.flight) : request.headers;
  if (countsAsPageView(request.method, headers, isRenderRequest(request.headers)))
    pageViewRecorder(getDb).count(row.id, row.timeZone, routed.now);
}

/** Next's request headers as Next reads them: the router's, which Next removed before the proxy (page views count them). */
function withRouterHeaders(headers: Headers, flight: FlightRequest): Headers {
  const restored = new Headers(headers);
  for (const [name, value] of Object.entries(routerHeaders(flight))) restored.set(name, value);
  return restored;
}

/** A page's CSP with its nonce (DESIGN §10); the tracker's origin may be fetched, the channel's extra scripts loaded. */
export function pageCsp(nonce: string, https: boolean, scriptSources: readonly string[] = []): string {
  return contentSecurityPolicy(nonce, {
    dev: process.env.NODE_ENV === 'development',
    https,
    connectSources: originOf(process.env.TRACKING_URL),
    scriptSources,
  });
}

/**
 * An answer as both callers send it: the proxy as a NextResponse, the door on Node's response. A page's also comes as
 * `pieces`, its text around the nonce (the same array for every answer of one render and skin), so the door can
 * compress each piece once (lib/server/page-door.ts).
 */
export type StoreAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  pieces?: readonly string[];
  nonce?: string;
};

/** A page's text with the channel's skin as it is now, cut at its nonce: once per render and skin, not per answer. */
const templates = new WeakMap<object, { skin: string; pieces: readonly string[] }>();
function pageTemplate(page: Extract<RenderedPage, { kind: 'page' }>, skinJson: string): readonly string[] {
  const known = templates.get(page);
  if (known && known.skin === skinJson) return known.pieces;
  const body = withCurrentSkin(page.body, parseSkin(skinJson));
  const pieces = nonceParts(body, page.nonce);
  templates.set(page, { skin: skinJson, pieces });
  return pieces;
}

/**
 * A cached answer as sent: its own nonce (the page's and its CSP's), the channel's skin colours as they are now
 * (lib/page/page-skin.ts), no copy kept by browsers or shared caches (the nonce is one answer's), and the security
 * headers every answer carries. A redirect goes to the host the browser used.
 */
export function sendCachedAnswer(cached: CachedStoreAnswer, routed: RoutedStoreRequest & { row: ChannelRow }, host: string): StoreAnswer {
  const { https, scripts, row } = routed;
  const security = securityHeaders({ https });
  const noStore = 'private, no-cache, no-store, max-age=0, must-revalidate';
  if (cached.kind === 'flight') {
    const nonce = newNonce();
    const standIn = cached.standIn;
    // Next's headers name the path it rendered (`x-nextjs-rewritten-path`): the stand-in's, then the request's number.
    const kept = standIn
      ? Object.fromEntries(Object.entries(cached.answer.headers).map(([name, value]) => [name, withValue(value, standIn)]))
      : cached.answer.headers;
    return {
      status: 200,
      headers: {
        ...kept,
        'content-security-policy': pageCsp(nonce, https, scripts),
        'cache-control': noStore,
        'x-storefront-cache': 'flight',
        ...security,
      },
      body: cached.standIn ? withValue(flightWithNonce(cached.answer, nonce), cached.standIn) : flightWithNonce(cached.answer, nonce),
    };
  }
  const page = cached.page;
  if (page.kind === 'redirect') {
    const location = new URL(page.location, `${https ? 'https' : 'http'}://${host}`).toString();
    return { status: page.status, headers: { location, ...security }, body: null };
  }
  const nonce = newNonce();
  const pieces = pageTemplate(page, row.skinJson);
  const headers = {
    'content-type': page.contentType,
    'content-security-policy': pageCsp(nonce, https, scripts),
    'cache-control': noStore,
    'x-storefront-cache': 'shared',
    ...security,
  };
  // A page rendered with a stand-in (the cashier's payment number in its route parameter) names the request's number
  // in its place: its text whole, as a flight answer's (the door gzips it whole).
  const standIn = cached.standIn;
  if (standIn && pieces.some((piece) => piece.includes(standIn.standIn))) {
    return { status: 200, headers, body: withValue(pieces.join(nonce), standIn) };
  }
  return {
    status: 200,
    headers,
    // Joined only when read: the page door gzips a page from its pieces and never needs the whole text.
    get body() {
      return pieces.join(nonce);
    },
    pieces,
    nonce,
  };
}
