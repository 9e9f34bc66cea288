import { unstable_getResponseFromNextConfig } from 'next/experimental/testing/server';
import nextConfig from '../../next.config';
import { configHeaders, contentSecurityPolicy, forwardedHttps, newNonce, originOf, securityHeaders } from './headers';

describe('security headers (DESIGN §10)', () => {
  it('allows scripts only with the nonce, and no eval outside development', () => {
    const csp = contentSecurityPolicy('abc123', { dev: false, https: true });
    expect(csp).toContain(`script-src 'self' 'nonce-abc123' 'strict-dynamic'`);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain(`object-src 'none'`);
    expect(csp).toContain(`frame-ancestors 'self'`);
    expect(csp).toContain('upgrade-insecure-requests');
    expect(contentSecurityPolicy('n', { dev: true, https: false })).toContain(`'unsafe-eval'`);
    expect(contentSecurityPolicy('n', { dev: false, https: false })).not.toContain('upgrade-insecure-requests');
  });

  it('lets pages reach an outside log service', () => {
    expect(originOf('https://log.example.com/batch')).toEqual(['https://log.example.com']);
    expect(originOf('/api/log/track')).toEqual([]);
    expect(contentSecurityPolicy('n', { dev: false, https: true, connectSources: ['https://log.example.com'] })).toContain(
      `connect-src 'self' https://log.example.com`,
    );
  });

  it('sends HSTS only over HTTPS', () => {
    expect(securityHeaders({ https: true })).toHaveProperty('strict-transport-security');
    expect(securityHeaders({ https: false })).not.toHaveProperty('strict-transport-security');
    expect(securityHeaders({ https: false })['x-content-type-options']).toBe('nosniff');
    expect(securityHeaders({ https: false })['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('makes a different 128-bit nonce every time', () => {
    const a = newNonce();
    expect(atob(a)).toHaveLength(16);
    expect(newNonce()).not.toBe(a);
  });
});

// Red-team finding 12: API answers, next-auth, the OG image and static files had none of these headers.
describe('next.config headers on every response (finding 12)', () => {
  const headersFor = async (path: string, headers: Record<string, string> = {}) =>
    (await unstable_getResponseFromNextConfig({ url: `http://aurora.localhost${path}`, nextConfig, headers })).headers;

  it.each([
    '/',
    '/goods/detail/1',
    '/api/market/api/channel/detail',
    '/api/auth/csrf',
    '/api/health',
    '/api/openapi.json',
    '/api/og/sale/1',
    '/_next/static/chunks/main.js',
    '/goods/star-fox.svg',
    '/brands/aurora/brand.svg',
    '/404',
  ])('%s gets the security headers, and no CSP of its own', async (path) => {
    const headers = await headersFor(path);
    for (const [name, value] of Object.entries(securityHeaders({ https: false }))) expect([name, headers.get(name)]).toEqual([name, value]);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(headers.get('permissions-policy')).toContain('camera=()');
    // Pages get their nonce CSP from the middleware only: a second CSP here would be enforced on top of it.
    expect(headers.get('content-security-policy')).toBeNull();
    expect(headers.get('strict-transport-security')).toBeNull();
  });

  it.each([
    ['https', true],
    ['http', false],
    ['HTTPS', false],
    ['https, http', false],
    ['http, https', false],
    ['', false],
  ])('HSTS with X-Forwarded-Proto %j: %s, the same answer as the middleware gives', async (proto, hsts) => {
    for (const path of ['/', '/api/health', '/_next/static/chunks/main.js', '/goods/star-fox.svg']) {
      const headers = await headersFor(path, { 'x-forwarded-proto': proto });
      expect([path, headers.get('strict-transport-security')]).toEqual([
        path,
        hsts ? securityHeaders({ https: true })['strict-transport-security'] : null,
      ]);
    }
    expect(forwardedHttps(new Headers({ 'x-forwarded-proto': proto }))).toBe(hsts);
  });

  it('has no HSTS without X-Forwarded-Proto', async () => {
    expect((await headersFor('/api/health')).get('strict-transport-security')).toBeNull();
    expect(forwardedHttps(new Headers())).toBe(false);
  });

  it('are the headers of lib/security/headers.ts', async () => {
    const config = typeof nextConfig === 'function' ? nextConfig('phase-production-build') : nextConfig;
    expect(await config.headers?.()).toEqual(configHeaders());
  });
});
