import { NextResponse, type NextRequest } from 'next/server';
import { channelKeyForHost } from '@/lib/channel/key';
import { decideRoute } from '@/lib/channel/routing';
import { SummaryCache } from '@/lib/channel/summary-cache';
import { storeNotFoundHtml } from '@/lib/channel/store-not-found';
import { toSummary, type ChannelThemeInfo } from '@/lib/channel/theme';
import { readWebSession, sessionCookieValue } from '@/lib/auth/session-claims';
import { authSecret } from '@/lib/security/secret';
import { negotiateLocale } from '@/lib/i18n/locale';
import { contentSecurityPolicy, forwardedHttps, newNonce, originOf, securityHeaders } from '@/lib/security/headers';

// Edge middleware (DESIGN §3): thin; the rules live in lib/channel (a rename to proxy.ts is one line).

/** Where the middleware reaches the API of this same deployment (Node cannot resolve *.localhost). */
function internalOrigin(): string {
  return process.env.INTERNAL_API_ORIGIN ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`;
}

const summaries = new SummaryCache(
  async (key) => {
    const response = await fetch(`${internalOrigin()}/api/market/api/channel/detail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key }),
      signal: AbortSignal.timeout(3000),
    });
    if (!response.ok) throw new Error(`channel lookup HTTP ${response.status}`);
    const envelope = (await response.json()) as { code: number; message: string; data: ChannelThemeInfo | null };
    if (envelope.code === 404 || envelope.code === 400) return null;
    if (envelope.code !== 200 || !envelope.data) throw new Error(`channel lookup code ${envelope.code}: ${envelope.message}`);
    return toSummary(envelope.data);
  },
  { ttlMs: 30_000, missTtlMs: 5_000, staleMs: 10 * 60_000, maxEntries: 1000 },
);

export async function middleware(request: NextRequest): Promise<NextResponse> {
  const host = request.headers.get('host') ?? request.nextUrl.host;
  const key = channelKeyForHost(host, process.env.BRAND_WORD ?? 'localhost', process.env.DEFAULT_CHANNEL);

  let summary: Awaited<ReturnType<typeof summaries.get>> | 'unavailable';
  if (!key) {
    summary = null;
  } else {
    try {
      summary = await summaries.get(key);
    } catch (error) {
      // Safe default: serve the page without label guards; the page itself checks the channel exists.
      console.error(`[middleware] channel ${key} lookup failed`, error);
      summary = 'unavailable';
    }
  }

  const decision = decideRoute({
    key,
    pathname: request.nextUrl.pathname,
    search: request.nextUrl.search,
    summary,
    // A session is a cookie that decrypts, has not expired and belongs to this channel; the page and the API then
    // check it against the database (revocation), since the edge has no database.
    hasSession: Boolean(await readWebSession(sessionCookieValue(request.cookies), authSecret(), key)),
    acceptLanguage: request.headers.get('accept-language'),
  });

  // The same test as next.config's headers(), so a page and an API answer agree on HSTS.
  const https = forwardedHttps(request.headers);
  const response = respond(decision, request, host, https);
  for (const [name, value] of Object.entries(securityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

function respond(decision: ReturnType<typeof decideRoute>, request: NextRequest, host: string, https: boolean): NextResponse {
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
      const csp = contentSecurityPolicy(newNonce(), {
        dev: process.env.NODE_ENV === 'development',
        https,
        connectSources: originOf(process.env.TRACKING_URL),
      });
      headers.set('content-security-policy', csp);
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
  // Keep in step with middleware.test.ts and public/.
  matcher: ['/((?!api/|_next/static/|_next/image$|favicon\\.ico$|goods/[a-z0-9-]+\\.svg$|brands/[a-z0-9-]+/[a-z0-9-]+\\.svg$).*)'],
};
