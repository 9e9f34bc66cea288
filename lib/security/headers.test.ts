import { unstable_getResponseFromNextConfig } from 'next/experimental/testing/server';
import nextConfig from '../../next.config';
import { parseEnv } from '../env';
import { configHeaders, contentSecurityPolicy, forwardedHttps, newNonce, originOf, parseMediaOrigins, securityHeaders } from './headers';

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
    // Pages get their nonce CSP from the proxy only: a second CSP here would be enforced on top of it.
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
  ])('HSTS with X-Forwarded-Proto %j: %s, the same answer as the proxy gives', async (proto, hsts) => {
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

// Issue 29: the page CSP let images come from any https host, and the operator API took a skin image from any of them.
// Now both hold to the same list: this site's art and the deployment's MEDIA_ORIGINS.
describe('where images may come from (issue 29)', () => {
  const imgSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('img-src '));

  it('lets pages show images from this site and the listed media hosts only, not any https host', () => {
    expect(imgSrc(contentSecurityPolicy('n', { dev: false, https: true, imageSources: [] }))).toBe(`img-src 'self' data: blob:`);
    expect(imgSrc(contentSecurityPolicy('n', { dev: false, https: true, imageSources: ['https://cdn.example.com'] }))).toBe(
      `img-src 'self' data: blob: https://cdn.example.com`,
    );
  });

  it('reads MEDIA_ORIGINS when the caller does not pass the list (the proxy does not)', () => {
    const saved = process.env.MEDIA_ORIGINS;
    try {
      delete process.env.MEDIA_ORIGINS;
      expect(imgSrc(contentSecurityPolicy('n', { dev: false, https: false }))).toBe(`img-src 'self' data: blob:`);
      process.env.MEDIA_ORIGINS = 'https://cdn.example.com, https://IMG.example.com:8443/';
      expect(imgSrc(contentSecurityPolicy('n', { dev: false, https: false }))).toBe(
        `img-src 'self' data: blob: https://cdn.example.com https://img.example.com:8443`,
      );
      process.env.MEDIA_ORIGINS = 'https:';
      expect(imgSrc(contentSecurityPolicy('n', { dev: false, https: false }))).toBe(`img-src 'self' data: blob:`);
    } finally {
      if (saved === undefined) delete process.env.MEDIA_ORIGINS;
      else process.env.MEDIA_ORIGINS = saved;
    }
  });

  it('takes bare https origins, each once, and names an entry that is not one', () => {
    expect(parseMediaOrigins(undefined)).toEqual([]);
    expect(parseMediaOrigins(' ')).toEqual([]);
    expect(parseMediaOrigins('https://cdn.example.com,https://cdn.example.com:443/, https://xn--fiqs8s.example')).toEqual([
      'https://cdn.example.com',
      'https://xn--fiqs8s.example',
    ]);
    for (const entry of [
      'https:',
      'http://cdn.example.com',
      'https://cdn.example.com/images',
      'https://*.example.com',
      'https://user@cdn.example.com',
      'https://cdn.example.com?x=1',
      'https://cdn.example.com:99999',
      "https://cdn.example.com 'unsafe-inline'",
      'cdn.example.com',
    ]) {
      expect(() => parseMediaOrigins(entry)).toThrow(`MEDIA_ORIGINS: "${entry}" is not an https origin such as https://cdn.example.com`);
    }
  });

  it('is a start-time setting, empty by default, refused when malformed', () => {
    expect(parseEnv({}).MEDIA_ORIGINS).toEqual([]);
    expect(parseEnv({ MEDIA_ORIGINS: 'https://cdn.example.com' }).MEDIA_ORIGINS).toEqual(['https://cdn.example.com']);
    expect(() => parseEnv({ MEDIA_ORIGINS: 'https://cdn.example.com/x' })).toThrow(
      'MEDIA_ORIGINS "https://cdn.example.com/x" is not an https origin such as https://cdn.example.com',
    );
  });

  it("lets next/image fetch from the listed hosts only, and from this site only Next's own imported images", () => {
    const saved = process.env.MEDIA_ORIGINS;
    try {
      process.env.MEDIA_ORIGINS = 'https://cdn.example.com,https://img.example.com:8443';
      const images = (typeof nextConfig === 'function' ? nextConfig('phase-production-server') : nextConfig).images;
      expect(images?.remotePatterns).toEqual([
        { protocol: 'https', hostname: 'cdn.example.com', port: '', pathname: '/**' },
        { protocol: 'https', hostname: 'img.example.com', port: '8443', pathname: '/**' },
      ]);
      // And this site's uploaded images (issue 31), by their shape only.
      expect(images?.localPatterns).toEqual([{ pathname: '/_next/static/media/**' }, { pathname: '/media/+([0-9a-f]).webp' }]);
      const { hasLocalMatch } = jest.requireActual<typeof import('next/dist/shared/lib/match-local-pattern')>(
        'next/dist/shared/lib/match-local-pattern',
      );
      expect(hasLocalMatch(images?.localPatterns, `/media/${'0a'.repeat(32)}.webp`)).toBe(true);
      for (const other of ['/media/x.webp', `/media/${'0A'.repeat(32)}.webp`, `/media/a/${'0a'.repeat(32)}.webp`, '/media/../x.webp']) {
        expect([other, hasLocalMatch(images?.localPatterns, other)]).toEqual([other, false]);
      }
    } finally {
      if (saved === undefined) delete process.env.MEDIA_ORIGINS;
      else process.env.MEDIA_ORIGINS = saved;
    }
  });
});
