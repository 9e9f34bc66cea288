/**
 * Security headers (DESIGN §10), one source of truth. Pure, no imports: next.config.ts loads it as well as the proxy.
 * - Every response (pages, API, next-auth, the OG image, `_next/static`, public files) gets `securityHeaders`:
 *   next.config.ts `headers()` sets them from `configHeaders()`, and the proxy (proxy.ts) sets the same on what it answers.
 * - Pages also get a nonce-based Content-Security-Policy from the proxy, which passes it on the request too,
 *   from which Next puts the nonce on its own scripts. Nothing else sets a CSP, so a page has exactly one.
 * - HSTS only when the request came over HTTPS, as the entry proxy says with `X-Forwarded-Proto: https`.
 */
export function contentSecurityPolicy(
  nonce: string,
  options: { dev: boolean; https: boolean; connectSources?: string[]; imageSources?: readonly string[]; scriptSources?: readonly string[] },
): string {
  // `scriptSources`: hosts a page's nonce-bearing script loads from (issue 36: WeChat's JS-SDK, on the pages of a channel
  // with a WeChat account only). 'strict-dynamic' already trusts what such a script loads where browsers know it; the
  // host is there for the older in-app browsers that know only nonces and hosts.
  const script = [
    `'self'`,
    `'nonce-${nonce}'`,
    `'strict-dynamic'`,
    ...(options.scriptSources ?? []),
    ...(options.dev ? [`'unsafe-eval'`] : []),
  ];
  const connect = [`'self'`, ...(options.connectSources ?? [])];
  // Images from this site and the media hosts the deployment lists, the very ones a skin may name (issue 29;
  // lib/channel/skin.ts `skinImageProblem`), not any https host. Unless the caller passes the list, MEDIA_ORIGINS.
  const images = [`'self'`, 'data:', 'blob:', ...(options.imageSources ?? mediaOriginsOrNone(process.env.MEDIA_ORIGINS))];
  return [
    `default-src 'self'`,
    `script-src ${script.join(' ')}`,
    // The channel skin is set as CSS variables in a style attribute; next/image sets inline sizes.
    `style-src 'self' 'unsafe-inline'`,
    `img-src ${images.join(' ')}`,
    `font-src 'self' data:`,
    `connect-src ${connect.join(' ')}`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    // Chat-app web views show the page at the top level; nobody else may frame it.
    `frame-ancestors 'self'`,
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const HSTS = { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } as const;

/** What every response carries; HSTS only over HTTPS. Names in lower case, so a later setter replaces, never repeats. */
export function securityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
    'cross-origin-opener-policy': 'same-origin',
    // Framing for responses without the page CSP (API, images, static files, the proxy's own pages); on pages
    // the CSP's `frame-ancestors 'self'` says the same and takes precedence.
    'x-frame-options': 'SAMEORIGIN',
    ...(options.https ? HSTS : {}),
  };
}

/**
 * Whether the request came over HTTPS: `X-Forwarded-Proto` is exactly `https`. The entry server strips a client's
 * X-Forwarded-* unless the peer is a trusted proxy, so the header can be believed. The same test as the `has`
 * condition of `configHeaders()` (Next matches `^https$` on the header), so pages and other responses agree.
 */
export function forwardedHttps(headers: Headers): boolean {
  return headers.get('x-forwarded-proto') === 'https';
}

type ConfigHeader = {
  source: string;
  has?: { type: 'header'; key: string; value: string }[];
  headers: { key: string; value: string }[];
};

const entries = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

/** next.config.ts `headers()`: the security headers on every path; HSTS on every path reached over HTTPS. */
export function configHeaders(): ConfigHeader[] {
  return [
    { source: '/:path*', headers: entries(securityHeaders({ https: false })) },
    { source: '/:path*', has: [{ type: 'header', key: 'x-forwarded-proto', value: 'https' }], headers: entries(HSTS) },
  ];
}

/** A fresh nonce per response: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The origin of an absolute TRACKING_URL, which the page must be allowed to reach; none for a site path. */
export function originOf(url: string | undefined): string[] {
  if (!url || url.startsWith('/')) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

/**
 * MEDIA_ORIGINS (lib/env.ts; issue 29): the https origins, comma-separated, a skin's images may come from besides this
 * site, e.g. `https://cdn.example.com, https://img.example.com:8443`. Each is reduced to its origin (lower case, no
 * default port); throws naming an entry that is not a bare https origin (no path, query, credentials or wildcard).
 */
export function parseMediaOrigins(value: string | undefined): string[] {
  const origins: string[] = [];
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    // Host names as DNS has them (letters, digits, dots, dashes; an IDN in its xn-- form) and an optional port.
    if (!/^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/?$/.test(entry) || !URL.canParse(entry)) {
      throw new Error(`MEDIA_ORIGINS: "${entry}" is not an https origin such as https://cdn.example.com`);
    }
    const origin = new URL(entry).origin;
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

/** The list as the CSP takes it; none when the variable is malformed (the start-time check in lib/env.ts refuses it). */
function mediaOriginsOrNone(value: string | undefined): string[] {
  try {
    return parseMediaOrigins(value);
  } catch {
    return [];
  }
}
