/**
 * Security headers for pages (DESIGN §10): a nonce-based Content-Security-Policy and the usual hardening headers.
 * Pure and edge-safe; the middleware sets them on every page response and passes the CSP on the request, from
 * which Next puts the nonce on its own scripts.
 */
export function contentSecurityPolicy(nonce: string, options: { dev: boolean; https: boolean; connectSources?: string[] }): string {
  const script = [`'self'`, `'nonce-${nonce}'`, `'strict-dynamic'`, ...(options.dev ? [`'unsafe-eval'`] : [])];
  const connect = [`'self'`, ...(options.connectSources ?? [])];
  return [
    `default-src 'self'`,
    `script-src ${script.join(' ')}`,
    // The channel skin is set as CSS variables in a style attribute; next/image sets inline sizes.
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: https:`,
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

export function securityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
    'cross-origin-opener-policy': 'same-origin',
    ...(options.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
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
