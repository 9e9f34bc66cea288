import { NextResponse, type NextRequest } from 'next/server';
import type { RoutingDecision } from '@/lib/channel/routing';
import { storeNotFoundHtml } from '@/lib/channel/store-not-found';
import { VISITOR_HEADER, type Visitor } from '@/lib/page/visitor';
import { readFlightRequest } from '@/lib/server/flight-request';
import {
  cachedStoreAnswer,
  countStorePageView,
  pageCsp,
  routeStoreRequest,
  sendCachedAnswer,
  type StoreRequest,
} from '@/lib/page/store-request';
import { env } from '@/lib/env';
import { isConsolePath, isOperatorHost } from '@/lib/operator/host';
import { consoleNotFoundHtml } from '@/lib/operator/not-found';
import { sessionCookieValue } from '@/lib/auth/session-claims';
import { negotiateLocale } from '@/lib/i18n/locale';
import { forwardedHttps, newNonce, securityHeaders } from '@/lib/security/headers';

// The proxy (DESIGN §3), first at every page request; Node.js runtime (Next 16's only one for proxy.ts), in the
// server's process, so it reads the channel and the rendered-page cache that the API's writes invalidate
// (docs/decisions.md, "The proxy on Node.js"). Thin: the rules live in lib/channel and lib/page.

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const host = request.headers.get('host') ?? request.nextUrl.host;
  // The operator console (issue 31) lives on its own host, which serves no channel.
  if (isOperatorHost(host, env().OPERATOR_HOST)) return hardened(consoleRoute(request), forwardedHttps(request.headers));
  // The steps the entry server's page door takes too (lib/page/store-request.ts): host → channel, the canonical host,
  // the session from the cookie's claims, the routing decision; then what the caches hold.
  const store: StoreRequest = {
    method: request.method,
    host,
    url: request.nextUrl,
    headers: request.headers,
    sessionCookie: sessionCookieValue(request.cookies),
    // The router's fetch of a page (in-app navigation, prefetch), marked by the entry server (lib/server/flight-request.ts).
    flight: readFlightRequest(request.headers),
  };
  const routed = await routeStoreRequest(store);
  const { row, https } = routed;
  if (routed.canonical) return hardened(NextResponse.redirect(routed.canonical, 308), https);
  const cached = row && row !== 'unavailable' ? await cachedStoreAnswer(store, routed) : undefined;
  countStorePageView(store, routed, cached);
  if (cached && row && row !== 'unavailable') {
    const answer = sendCachedAnswer(cached, { ...routed, row }, host);
    return hardened(new NextResponse(answer.body, { status: answer.status, headers: answer.headers }), https);
  }
  return hardened(respond(routed.decision, request, host, https, routed.visitor, routed.scripts), https);
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
