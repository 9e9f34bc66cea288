import { NextResponse, type NextRequest } from 'next/server';
import { decideRoute, type RoutingDecision } from '@/lib/channel/routing';
import { matchRoute } from '@/lib/channel/routes';
import { storeNotFoundHtml } from '@/lib/channel/store-not-found';
import { toSummary } from '@/lib/channel/theme';
import { toThemeInfo } from '@/lib/channel/service';
import type { ChannelRow } from '@/lib/db/schema';
import { getDb } from '@/lib/db/client';
import { readChannel } from '@/lib/channel/service';
import { parseSkin } from '@/lib/channel/skin';
import { withCurrentSkin } from '@/lib/page/page-skin';
import { isRenderRequest, pageTags, readRenderedPage, renderThroughServer, servesFromCache, withNonce } from '@/lib/page/rendered';
import { countsAsPageView, pageViewRecorder } from '@/lib/channel/page-views';
import { planSharedPage } from '@/lib/page/shared-page';
import { parseVisitor, VISITOR_HEADER, variesByVisitor, type Visitor } from '@/lib/page/visitor';
import { readFlightRequest } from '@/lib/server/flight-request';
import { routerHeaders, type FlightRequest } from '@/lib/page/flight-headers';
import { admitVariant, flightWithNonce, planFlight, readFlight, renderFlightThroughServer, type FlightAnswer } from '@/lib/page/flight';
import { canonicalHostRedirect } from '@/lib/channel/canonical-host';
import { canonicalHostOf, domainSettings, routeHostOrKeyRule } from '@/lib/channel/domains';
import { env, publicOrigin } from '@/lib/env';
import { isConsolePath, isOperatorHost } from '@/lib/operator/host';
import { consoleNotFoundHtml } from '@/lib/operator/not-found';
import { readWebSession, sessionCookieValue } from '@/lib/auth/session-claims';
import { authSecret } from '@/lib/security/secret';
import { negotiateLocale } from '@/lib/i18n/locale';
import { contentSecurityPolicy, forwardedHttps, newNonce, originOf, securityHeaders } from '@/lib/security/headers';
import { wechatScriptSources } from '@/lib/wechat/account';

// The proxy (DESIGN §3), first at every page request; Node.js runtime (Next 16's only one for proxy.ts), in the
// server's process, so it reads the channel and the rendered-page cache that the API's writes invalidate
// (docs/decisions.md, "The proxy on Node.js"). Thin: the rules live in lib/channel and lib/page.

/** Where the proxy reaches this same server for a render (Node cannot resolve *.localhost). */
function internalOrigin(): URL {
  return new URL(process.env.INTERNAL_API_ORIGIN ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`);
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const host = request.headers.get('host') ?? request.nextUrl.host;
  // The operator console (issue 31) lives on its own host, which serves no channel.
  if (isOperatorHost(host, env().OPERATOR_HOST)) return hardened(consoleRoute(request), forwardedHttps(request.headers));
  const settings = domainSettings();
  const now = new Date();
  // Host → channel through the channel's domains, the spec §1 key rule as the fallback (issue 31, lib/channel/domains.ts).
  const route = await routeHostOrKeyRule(getDb, host, settings, now);
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
  // The API and payment notifications never come here (config.matcher), so they are never redirected.
  const https = forwardedHttps(request.headers);
  if (row && row !== 'unavailable') {
    let canonicalHost = route.domain ?? row.host;
    try {
      canonicalHost = await canonicalHostOf(getDb(), row, route, settings, now);
    } catch (error) {
      console.error(`[proxy] primary domain of ${row.key} lookup failed`, error);
    }
    const canonical = canonicalHostRedirect(host, publicOrigin(canonicalHost), `${request.nextUrl.pathname}${request.nextUrl.search}`);
    if (canonical) return hardened(NextResponse.redirect(canonical, 308), https);
  }

  // Whether the visitor has a session of this channel, from the cookie's claims (no database read). The proxy's own
  // render of a page with a variant per visitor (issue 34: /mine) says which variant it renders.
  const hasWebSession = Boolean(await readWebSession(sessionCookieValue(request.cookies), authSecret(), key));
  const visitor: Visitor = isRenderRequest(request.headers)
    ? parseVisitor(request.headers.get(VISITOR_HEADER))
    : hasWebSession
      ? 'buyer'
      : 'anonymous';
  const decision = decideRoute({
    key,
    pathname: request.nextUrl.pathname,
    search: request.nextUrl.search,
    summary,
    // A session is a cookie that decrypts, has not expired and belongs to this channel. The proxy could read the
    // sessions table too (it runs in the server's process), but it only picks the login redirect: the page behind
    // login checks the token in the database anyway (lib/page/session.ts: revoked → /login), so a lookup here would
    // add a read to every guarded view and decide nothing more.
    hasSession: rendersSharedBuyerPage(request) || hasWebSession,
    acceptLanguage: request.headers.get('accept-language'),
  });

  // The router's fetch of a page (in-app navigation, prefetch), marked by the entry server (lib/server/flight-request.ts).
  const flight = readFlightRequest(request.headers);
  const flightAnswer = flight && row && row !== 'unavailable' ? await fromFlightCache(decision, request, host, row, flight) : undefined;
  const cached = !flight && row && row !== 'unavailable' ? await fromPageCache(decision, request, host, row, visitor) : undefined;
  // Today's page views (issue 31): counted here, where every store page request enters, so a page the cache answers
  // counts too (but not one it answers with a redirect: the page it leads to counts); a map update in memory, flushed
  // every few seconds (lib/channel/page-views.ts).
  if (
    row &&
    row !== 'unavailable' &&
    decision.kind === 'rewrite' &&
    cached?.kind !== 'redirect' &&
    countsAsPageView(
      request.method,
      flight ? withRouterHeaders(request.headers, flight) : request.headers,
      isRenderRequest(request.headers),
    )
  ) {
    pageViewRecorder(getDb).count(row.id, row.timeZone, now);
  }
  // issue 36: WeChat's JS-SDK may load on the pages of a channel with a WeChat account, and on no other (lib/wechat).
  const scripts = row && row !== 'unavailable' ? wechatScriptSources(row) : [];
  if (flightAnswer) return hardened(serveFlight(flightAnswer, https, scripts), https);
  return hardened(
    cached && row && row !== 'unavailable'
      ? servePage(cached, row, request, host, https, scripts)
      : respond(decision, request, host, https, visitor, scripts),
    https,
  );
}

/**
 * The proxy's own render of a shared page behind login (issue 34: the pay page), made without cookies: it passes the
 * login guard, since what it renders holds nothing of any buyer (routes.ts `shared.buyerPart`) and only this server can
 * ask for it (the render secret). Every buyer's request still meets the guard before the cache answers.
 */
function rendersSharedBuyerPage(request: NextRequest): boolean {
  if (!isRenderRequest(request.headers)) return false;
  const route = matchRoute(request.nextUrl.pathname)?.route;
  return Boolean(route?.login && route.shared?.buyerPart);
}

/**
 * The operator host (issue 31): the console's paths are rewritten to its own app segment (app/ops/<locale>/...), in the
 * language Accept-Language asks for; every other path, every channel path among them, is 404. The segment itself is
 * reached only this way: on a channel host `/ops/...` is an unknown path like any other (lib/channel/routing.ts).
 */
function consoleRoute(request: NextRequest): NextResponse {
  const locale = negotiateLocale(null, request.headers.get('accept-language'));
  const pathname = request.nextUrl.pathname;
  if (!isConsolePath(pathname)) {
    return new NextResponse(consoleNotFoundHtml(locale), {
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  const url = request.nextUrl.clone();
  url.pathname = `/ops/${locale}${pathname === '/' ? '' : pathname}`;
  const headers = new Headers(request.headers);
  const csp = pageCsp(newNonce(), forwardedHttps(request.headers));
  headers.set('content-security-policy', csp);
  const response = NextResponse.rewrite(url, { request: { headers } });
  response.headers.set('content-security-policy', csp);
  response.headers.set('cache-control', 'private, no-cache, no-store, max-age=0, must-revalidate');
  return response;
}

/** Every answer carries the security headers; `https` is the same test as next.config's headers(), so they agree on HSTS. */
function hardened(response: NextResponse, https: boolean): NextResponse {
  for (const [name, value] of Object.entries(securityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

type CachedPage = NonNullable<Awaited<ReturnType<typeof readRenderedPage>>>;

/**
 * A shared page from the rendered-page cache (lib/page/rendered.ts), rendered through this server on a miss, under a
 * key of what the page reads, parsed (lib/page/shared-page.ts); or the redirect the page would answer, without a render.
 */
async function fromPageCache(
  decision: RoutingDecision,
  request: NextRequest,
  host: string,
  channel: ChannelRow,
  visitor: Visitor,
): Promise<CachedPage | undefined> {
  if (decision.kind !== 'rewrite' || !servesFromCache(request.method, request.headers, decision.match)) return undefined;
  const acceptLanguage = request.headers.get('accept-language');
  const db = getDb();
  try {
    const scope = { db, now: new Date(), channelId: channel.id, channelKey: channel.key };
    const plan = await planSharedPage(scope, decision.match, decision.locale, request.nextUrl.searchParams, visitor);
    if (plan.kind === 'redirect') return { kind: 'redirect', status: plan.status, location: plan.location };
    return await readRenderedPage(db, plan.key, pageTags(channel, decision.match), () =>
      renderThroughServer(internalOrigin(), plan.renderPath, { host, acceptLanguage, visitor: plan.visitor }),
    );
  } catch (error) {
    console.error('[proxy] page cache', error);
    return undefined;
  }
}

/** Next's request headers as Next reads them: the router's, which Next removed before the proxy (page views count them). */
function withRouterHeaders(headers: Headers, flight: FlightRequest): Headers {
  const restored = new Headers(headers);
  for (const [name, value] of Object.entries(routerHeaders(flight))) restored.set(name, value);
  return restored;
}

/**
 * The router's fetch of a shared page from the flight cache (lib/page/flight.ts; issue 34), rendered through this
 * server on a miss, under the page's key and tags and the router state it sent; undefined when it is Next's to answer
 * (not a shared page, a redirect, another spelling, a made-up state beyond the page's slots).
 */
async function fromFlightCache(
  decision: RoutingDecision,
  request: NextRequest,
  host: string,
  channel: ChannelRow,
  flight: FlightRequest,
): Promise<FlightAnswer | undefined> {
  if (decision.kind !== 'rewrite' || request.method !== 'GET' || !decision.match.route.shared || isRenderRequest(request.headers)) {
    return undefined;
  }
  // A page with a variant per visitor (issue 34: /mine) is not kept as flight answers yet: Next renders the router's
  // fetch of it, for the variant the proxy passes on (respond), which reads nothing of a buyer either.
  if (variesByVisitor(decision.match)) return undefined;
  const db = getDb();
  try {
    const scope = { db, now: new Date(), channelId: channel.id, channelKey: channel.key };
    const page = await planSharedPage(scope, decision.match, decision.locale, request.nextUrl.searchParams);
    const requestPath = `${request.nextUrl.pathname}${request.nextUrl.search}`;
    const plan = planFlight(page, flight, requestPath, channel.key, decision.locale);
    if (plan.kind !== 'cache' || page.kind !== 'cache' || !admitVariant(db, page.key, plan.key)) return undefined;
    const acceptLanguage = request.headers.get('accept-language');
    return await readFlight(db, plan.key, pageTags(channel, decision.match), () =>
      renderFlightThroughServer(internalOrigin(), plan.renderPath, flight, { host, acceptLanguage }),
    );
  } catch (error) {
    console.error('[proxy] flight cache', error);
    return undefined;
  }
}

/** A flight answer from the cache: its own nonce, Next's router headers, and no copy kept by browsers or shared caches. */
function serveFlight(answer: FlightAnswer, https: boolean, scripts: readonly string[]): NextResponse {
  const nonce = newNonce();
  return new NextResponse(flightWithNonce(answer, nonce), {
    status: 200,
    headers: {
      ...answer.headers,
      'content-security-policy': pageCsp(nonce, https, scripts),
      'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate',
      'x-storefront-cache': 'flight',
    },
  });
}

function pageCsp(nonce: string, https: boolean, scriptSources: readonly string[] = []): string {
  return contentSecurityPolicy(nonce, {
    dev: process.env.NODE_ENV === 'development',
    https,
    connectSources: originOf(process.env.TRACKING_URL),
    scriptSources,
  });
}

/** A page from the cache: its own nonce, and the channel's skin colours as they are now (lib/page/page-skin.ts). */
function servePage(
  page: CachedPage,
  channel: ChannelRow,
  request: NextRequest,
  host: string,
  https: boolean,
  scripts: readonly string[],
): NextResponse {
  if (page.kind === 'redirect') {
    return NextResponse.redirect(new URL(page.location, `${request.nextUrl.protocol}//${host}`), page.status);
  }
  const nonce = newNonce();
  return new NextResponse(withCurrentSkin(withNonce(page, nonce), parseSkin(channel.skinJson)), {
    status: 200,
    headers: {
      'content-type': page.contentType,
      'content-security-policy': pageCsp(nonce, https, scripts),
      // As Next answers a dynamic page: browsers and shared caches keep no copy (the nonce is one answer's).
      'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate',
      'x-storefront-cache': 'shared',
    },
  });
}

function respond(
  decision: RoutingDecision,
  request: NextRequest,
  host: string,
  https: boolean,
  visitor: Visitor,
  scripts: readonly string[],
): NextResponse {
  switch (decision.kind) {
    case 'storeNotFound':
      return new NextResponse(storeNotFoundHtml(host, negotiateLocale(null, request.headers.get('accept-language'))), {
        status: 404,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      });
    case 'redirect':
      // Relative to the host the browser used (request.url may carry the server's bind address).
      return NextResponse.redirect(new URL(decision.location, `${request.nextUrl.protocol}//${host}`), 307);
    case 'rewrite': {
      const url = request.nextUrl.clone();
      url.pathname = decision.pathname;
      const headers = new Headers(request.headers);
      // Next reads the nonce from the request's CSP and puts it on its own scripts (DESIGN §10).
      const csp = pageCsp(newNonce(), https, scripts);
      headers.set('content-security-policy', csp);
      // Who the page is for (issue 34, lib/page/visitor.ts): the proxy's decision, never a client's copy of the header.
      headers.set(VISITOR_HEADER, visitor);
      const response = NextResponse.rewrite(url, { request: { headers } });
      response.headers.set('content-security-policy', csp);
      return response;
    }
  }
}

export const config = {
  // Everything but the API, Next's assets and exactly the shapes of the files under public/ (scripts/generate-art.mjs):
  // goods/<name>.svg and brands/<channel>/<name>.svg, names in lower case, digits and dashes. Anything else, whatever
  // its extension (/DARK/en/goods/detail/13.png), goes through the rules, so no path reaches another channel's page.
  // Uploaded images too (issue 31; lib/media/key.ts): media/<sha-256 hex>.webp, served by app/media/[file]/route.ts.
  // Keep in step with proxy.test.ts and public/.
  matcher: [
    '/((?!api/|_next/static/|_next/image$|favicon\\.ico$|goods/[a-z0-9-]+\\.svg$|brands/[a-z0-9-]+/[a-z0-9-]+\\.svg$|media/[0-9a-f]{64}\\.webp$).*)',
  ],
};
