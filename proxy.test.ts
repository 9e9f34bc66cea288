import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { config } from './proxy';

// Red-team finding 11: the matcher (then middleware.ts's, now proxy.ts's) let any path ending in .png, .svg, .txt...
// skip it, so /DARK/en/goods/detail/13.png on another channel's host reached DARK's internal route. Only real files
// under public/ (and Next's own assets and the API) may skip it. Next 16's testing helper keeps the old name.

const runsMiddleware = (pathname: string) => unstable_doesMiddlewareMatch({ config, url: `http://aurora.localhost${pathname}` });

/** Every file under public/, as a URL path. */
function publicFiles(dir = path.join(__dirname, 'public'), prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? publicFiles(full, `${prefix}/${name}`) : [`${prefix}/${name}`];
  });
}

describe('which requests the proxy sees (finding 11)', () => {
  it.each([
    // Internal routes with a file-like ending: never straight to the page.
    '/DARK/en/goods/detail/13.png',
    '/DARK/en/goods/detail/13.svg',
    '/AURORA/en/mine.png',
    '/AURORA/en/mine/records.txt',
    '/LUMEN/zh-CN/pay/1.jpg',
    '/goods/detail/1.png',
    '/goods/detail/1.svg',
    '/mine.webmanifest',
    '/robots.txt',
    '/sitemap.xml',
    '/x.ico',
    // Not the shape of a public file: another depth, another extension, another case, encoded characters.
    '/goods/star-fox.png',
    '/goods/detail/star-fox.svg',
    '/goods/star-fox.svg/x',
    '/GOODS/star-fox.svg',
    '/goods/Star-Fox.svg',
    '/goods/..%2FDARK%2Fen%2Fgoods%2Fdetail%2F13.svg',
    '/goods/%2e%2e.svg',
    '/goods/.svg',
    '/brands/aurora.svg',
    '/brands/aurora/x/brand.svg',
    '/brands/AURORA/brand.svg',
    '/DARK/goods/x.svg',
    '/DARK/en/brands/dark/brand.svg',
    '/x/favicon.ico',
    // Not an uploaded image's shape (issue 31): another length, case or extension, or a way out.
    `/media/${'0a'.repeat(31)}.webp`,
    `/media/${'0A'.repeat(32)}.webp`,
    `/media/${'0a'.repeat(32)}.svg`,
    `/media/${'0a'.repeat(32)}.webp/x`,
    `/media/..%2F${'0a'.repeat(32)}.webp`,
    `/DARK/media/${'0a'.repeat(32)}.webp`,
    '/media',
    '/favicon.ico.png',
    // Pages, and prefixes that only look like Next's assets or the API.
    '/',
    '/goods/detail/1',
    '/mine',
    '/login',
    '/api',
    '/apix/health',
    '/_next/staticx/chunk.js',
    '/_next/image/x.png',
    '/_next/imagex',
  ])('runs for %s', (pathname) => {
    expect(runsMiddleware(pathname)).toBe(true);
  });

  it.each([
    '/api/health',
    '/api/auth/csrf',
    '/api/market/api/channel/detail',
    '/api/og/sale/1',
    '/_next/static/chunks/main.js',
    '/_next/static/media/font.woff2',
    '/_next/image',
    '/favicon.ico',
    '/goods/star-fox.svg',
    '/goods/star-fox-2.svg',
    '/brands/aurora/brand.svg',
    '/brands/default/mine-destory.svg',
    // An uploaded image (issue 31): app/media/[file]/route.ts answers it.
    `/media/${'0a'.repeat(32)}.webp`,
  ])('skips %s', (pathname) => {
    expect(runsMiddleware(pathname)).toBe(false);
  });

  it('skips every file in public/, and nothing there has another shape', () => {
    const files = publicFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect([file, runsMiddleware(file)]).toEqual([file, false]);
  });
});

describe('the operator host (issue 31)', () => {
  const { NextRequest } = jest.requireActual<typeof import('next/server')>('next/server');
  const ask = async (pathname: string, host = 'ops.localhost:3000') => {
    const { proxy } = await import('./proxy');
    return proxy(new NextRequest(`http://${host}${pathname}`, { headers: { host, 'accept-language': 'zh-CN,zh;q=0.9' } }));
  };

  it("rewrites the console's paths to its own segment, in the asked language, never cached", async () => {
    for (const [asked, internal] of [
      ['/sign-in', '/ops/zh-CN/sign-in'],
      ['/channels', '/ops/zh-CN/channels'],
      ['/', '/ops/zh-CN'],
    ] as const) {
      const answer = await ask(asked);
      expect({ asked, rewrite: new URL(answer.headers.get('x-middleware-rewrite') ?? 'http://x/none').pathname }).toEqual({
        asked,
        rewrite: internal,
      });
      expect(answer.headers.get('cache-control')).toMatch(/no-store/);
    }
  });

  it('answers 404 for every channel path there, and for the segment itself', async () => {
    for (const asked of ['/mine', '/login', '/goods/detail/1', '/AURORA/en', '/ops/zh-CN/channels', '/404']) {
      const answer = await ask(asked);
      expect({ asked, status: answer.status, rewrite: answer.headers.get('x-middleware-rewrite') }).toEqual({
        asked,
        status: 404,
        rewrite: null,
      });
      expect(await answer.text()).toContain('运营后台没有这个页面。');
    }
  });
});
