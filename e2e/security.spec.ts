import { expect, test, type APIRequestContext, type APIResponse, type Response as PageResponse } from '@playwright/test';
import { PORT, channelUrl, seedChannel } from './support';
import { logInWithQuestion } from './login-helpers';
import { request as httpRequest } from 'node:http';

// DESIGN §10: security headers with a nonce-based CSP, and pages that still work under it.

test('pages carry a nonce CSP that their own scripts satisfy', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(channelUrl('aurora'));
  const headers = response!.headers();
  const csp = headers['content-security-policy'] ?? '';
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');

  // Next's scripts carry the nonce, and the page hydrates: client navigation works.
  expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
  await page.getByTestId('sale-card').filter({ hasText: 'Star Fox' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Star Fox' })).toBeVisible();
  await expect(page.getByTestId('route-view')).toHaveAttribute('data-router-type', 'forward');

  // Each response gets its own nonce.
  const again = await page.goto(channelUrl('aurora'));
  expect(/'nonce-([^']+)'/.exec(again!.headers()['content-security-policy'] ?? '')?.[1]).not.toBe(nonce);
  expect(violations).toEqual([]);
});

// ---------------------------------------------------------------------------------------------------------------
// Red-team findings 5, 11 and 12.

/**
 * A request as it reaches the server from a channel's host, redirects not followed. Node cannot resolve *.localhost
 * (DESIGN §11): the loopback address with the channel's Host header.
 */
function rawGet(request: APIRequestContext, channel: string, path: string, headers: Record<string, string> = {}) {
  return request.get(`http://127.0.0.1:${PORT}${path}`, { headers: { host: `${channel}.localhost:${PORT}`, ...headers }, maxRedirects: 0 });
}

test('logging in with a redirect that normalises to another host lands on the storefront (finding 5)', async ({ page, context }) => {
  // Had the browser left the site, it would show this instead of failing on a name it cannot resolve.
  const left: string[] = [];
  await context.route(
    (url) => url.hostname !== 'aurora.localhost',
    (route) => {
      left.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>phished</h1>' });
    },
  );
  await page.goto(channelUrl('aurora', '/login?redirect=/.//evil.example/phish'));
  await logInWithQuestion(page);
  await expect(page).toHaveURL(channelUrl('aurora', '/mine'));
  await expect(page.getByTestId('mine-profile')).toBeVisible();
  expect(left).toEqual([]);
});

test('paths with a file ending go through the middleware; only the real public files skip it (finding 11)', async ({ page, request }) => {
  const dark = seedChannel('DARK');
  const lumen = seedChannel('LUMEN');
  for (const path of [
    '/DARK/en/goods/detail/13.png',
    '/DARK/en/goods/detail/13.svg',
    '/AURORA/en/mine.png',
    '/LUMEN/en/pay/1.jpg',
    '/DARK/en/mine/records.txt',
    '/goods/detail/1.png',
    '/robots.txt',
  ]) {
    const response = await rawGet(request, 'aurora', path);
    // The proxy's rule for a path that is not a route of the storefront (or the goods page's, for a sale id
    // that does not exist): to /404 on the same host. Never another channel's internal route.
    expect([path, response.status()]).toEqual([path, 307]);
    const location = new URL(response.headers()['location'] ?? '', channelUrl('aurora'));
    expect([path, location.href]).toEqual([path, channelUrl('aurora', '/404')]);
    const body = await response.text();
    for (const other of [dark.brandName, dark.palette.color1, lumen.brandName]) expect([path, body.includes(other)]).toEqual([path, false]);
  }

  // What a buyer sees: the storefront's own /404.
  await page.goto(channelUrl('aurora', '/DARK/en/goods/detail/13.png'));
  await expect(page).toHaveURL(channelUrl('aurora', '/404'));
  await expect(page.getByText(dark.brandName)).toHaveCount(0);

  // The real files under public/ still load, as images.
  for (const path of ['/goods/star-fox.svg', '/brands/aurora/brand.svg', '/brands/dark/user-face.svg']) {
    const response = await rawGet(request, 'aurora', path);
    expect([path, response.status()]).toEqual([path, 200]);
    expect(response.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toContain('<svg');
  }
  const image = await page.goto(channelUrl('aurora', '/goods/star-fox.svg'));
  expect(image?.status()).toBe(200);
  expect(image?.headers()['content-type']).toMatch(/^image\/svg\+xml/);
});

/** A response as the browser received it, as a request context did, or as Node's http.request did (fromClient). */
type Response = Pick<PageResponse | APIResponse, 'headersArray'>;
type Checked = { label: string; response: Response; page?: boolean };

/** The hardening headers every response carries, each exactly once as the browser receives them. */
async function expectHardened({ label, response, page = false }: Checked, https = false): Promise<void> {
  const all = await response.headersArray();
  const values = (name: string) => all.filter((h) => h.name.toLowerCase() === name).map((h) => h.value);
  expect.soft([label, values('x-content-type-options')]).toEqual([label, ['nosniff']]);
  expect.soft([label, values('referrer-policy')]).toEqual([label, ['strict-origin-when-cross-origin']]);
  expect.soft([label, values('cross-origin-opener-policy')]).toEqual([label, ['same-origin']]);
  expect.soft([label, values('permissions-policy')]).toEqual([label, ['camera=(), microphone=(), geolocation=(), payment=(self)']]);
  const csp = values('content-security-policy');
  // Framing: SAMEORIGIN everywhere; a page's CSP says frame-ancestors 'self' too, in its one and only CSP.
  expect.soft([label, values('x-frame-options')]).toEqual([label, ['SAMEORIGIN']]);
  if (page) {
    expect.soft([label, csp.length]).toEqual([label, 1]);
    expect.soft([label, csp[0]]).toEqual([label, expect.stringMatching(/'nonce-[^']+'.*frame-ancestors 'self'/)]);
  } else {
    expect.soft([label, csp]).toEqual([label, []]);
  }
  expect.soft([label, values('strict-transport-security')]).toEqual([label, https ? ['max-age=31536000; includeSubDomains'] : []]);
}

test('every kind of response carries the security headers; pages keep one nonce CSP (finding 12)', async ({ page, request }) => {
  const checked: Checked[] = [];
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/_next/static/') && response.url().endsWith('.js')) scripts.push(response);
  });

  checked.push({ label: 'page', response: (await page.goto(channelUrl('aurora')))!, page: true });
  await expect.poll(() => scripts.length).toBeGreaterThan(0);
  checked.push({ label: '_next/static script', response: scripts[0]! });
  const saleId = /\/goods\/detail\/(\d+)$/.exec((await page.locator('a[href^="/goods/detail/"]').first().getAttribute('href')) ?? '')?.[1];
  expect(saleId).toBeTruthy();

  // An API call the way the client makes it: POST with a JSON body.
  const [api] = await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/api/market/api/channel/detail')),
    page.evaluate(() =>
      fetch('/api/market/api/channel/detail', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'AURORA' }),
      }),
    ),
  ]);
  expect(api.request().method()).toBe('POST');
  checked.push({ label: 'API POST', response: api });

  for (const [label, path] of [
    ['next-auth csrf', '/api/auth/csrf'],
    ['health', '/api/health'],
    ['openapi', '/api/openapi.json'],
    ['OG image', `/api/og/sale/${saleId}`],
    ['public SVG under /goods', '/goods/star-fox.svg'],
    ['public SVG under /brands', '/brands/aurora/brand.svg'],
  ] as const) {
    const response = (await page.goto(channelUrl('aurora', path)))!;
    expect([label, response.status()]).toEqual([label, 200]);
    checked.push({ label, response });
  }
  checked.push({ label: '/404 page', response: (await page.goto(channelUrl('aurora', '/404')))!, page: true });
  const nowhere = (await page.goto(`http://nowhere.localhost:${PORT}/`))!;
  expect(nowhere.status()).toBe(404);
  await expect(page).toHaveTitle('Store not found');
  checked.push({ label: 'store not found', response: nowhere });
  // The proxy's own redirect (the login guard).
  checked.push({ label: 'login guard redirect', response: await rawGet(request, 'aurora', '/mine/records') });

  for (const item of checked) await expectHardened(item);
});

test('HSTS only over HTTPS as a trusted proxy reports it; a client cannot claim it (findings 2, 12)', async ({ page, request }) => {
  await page.goto(channelUrl('aurora'));
  const script = await page.locator('script[src^="/_next/static/"]').first().getAttribute('src');
  expect(script).toBeTruthy();
  const paths: [string, string, boolean][] = [
    ['page', '/', true],
    ['/404 page', '/404', true],
    ['_next/static script', script!, false],
    ['next-auth csrf', '/api/auth/csrf', false],
    ['health', '/api/health', false],
    ['public SVG', '/goods/star-fox.svg', false],
  ];
  // The test server trusts this machine as its proxy (TRUSTED_PROXIES=127.0.0.1,::1, scripts/e2e-server.sh, so each
  // test buyer can arrive from an address of its own); a client is any other address, here 127.0.0.2. The entry server
  // drops the client's X-Forwarded-Proto.
  for (const [label, path, isPage] of paths) {
    await expectHardened({ label: `${label} over HTTP`, response: await fromClient('GET', path), page: isPage });
    await expectHardened({
      label: `${label} claiming HTTPS`,
      response: await fromClient('GET', path, { 'x-forwarded-proto': 'https' }),
      page: isPage,
    });
  }
  const api = await fromClient('POST', '/api/market/api/channel/detail', { 'x-forwarded-proto': 'https' }, { key: 'AURORA' });
  expect(api.status).toBe(200);
  await expectHardened({ label: 'API POST claiming HTTPS', response: api });

  // The same server as its trusted proxy (this machine, 127.0.0.1) reaches it after terminating TLS: HSTS on every
  // kind of response; over plain HTTP, none.
  for (const [label, path, isPage] of paths) {
    const get = (proto: string) =>
      request.get(`http://127.0.0.1:${PORT}${path}`, {
        headers: { host: `aurora.localhost:${PORT}`, 'x-forwarded-proto': proto },
        maxRedirects: 0,
      });
    await expectHardened({ label: `${label} behind the proxy over HTTPS`, response: await get('https'), page: isPage }, true);
    await expectHardened({ label: `${label} behind the proxy over HTTP`, response: await get('http'), page: isPage });
  }
});

// Issue 29: bad bytes in a path parameter made Next answer its own bare 500, without the security headers.
test('bad bytes in a path are answered 400 with the security headers, never a bare 500 (issue 29)', async ({ request }) => {
  for (const path of [
    '/goods/detail/%C0%AF',
    '/goods/detail/%FF',
    '/goods/detail/%E4%B8',
    '/goods/detail/%',
    '/goods/detail/1%00',
    '/agreement/%FF',
    '/receive_detail_new/1/%E4%B8',
    '/AURORA/en/goods/detail/%FF',
    '/_next/image?url=%2F%25FF&w=64&q=75',
  ]) {
    const response = await rawGet(request, 'aurora', path);
    expect([path, response.status()]).toEqual([path, 400]);
    expect([path, await response.text()]).toEqual([path, expect.stringMatching(/^Bad request: (path|url): /)]);
    await expectHardened({ label: path, response });
  }
  for (const path of [
    '/api/og/sale/%FF',
    '/api/icon/%E4%B8',
    '/api/market/api/saleRecord/detail/%C0%AF',
    '/api/auth/%FF',
    '/api/auth/api/%',
    '/api/operator/channels/%FF/skin',
  ]) {
    const response = await rawGet(request, 'aurora', path);
    expect([path, response.status()]).toEqual([path, 400]);
    expect([path, await response.json()]).toEqual([path, { code: 400, message: expect.stringMatching(/^path: /), data: null }]);
    await expectHardened({ label: path, response });
  }

  // A Host next-auth cannot build its URLs from (it answered 500).
  const badHost = await request.get(`http://127.0.0.1:${PORT}/api/auth/session`, { headers: { host: 'aurora.localhost:99999' } });
  expect(badHost.status()).toBe(400);
  await expectHardened({ label: 'bad Host', response: badHost });

  // A made-up local image for the optimizer (a 500 when the proxy redirected its fetch), and Next's own redirect of //x.
  const image = await rawGet(request, 'aurora', '/_next/image?url=/goods/nope.png&w=64&q=75');
  expect(image.status()).toBe(400);
  await expectHardened({ label: 'image optimizer', response: image });
  const slashes = await rawGet(request, 'aurora', '//goods/detail/1');
  expect(slashes.status()).toBe(308);
  await expectHardened({ label: 'Next redirect of //', response: slashes });

  // A session cookie with bad escapes is no session: the login guard and the API's 401, with the headers.
  const cookie = 'next-auth.session-token=%E4%B8%FF; storefront_device=%';
  const guarded = await rawGet(request, 'aurora', '/mine/records', { cookie });
  expect(guarded.status()).toBe(307);
  await expectHardened({ label: 'bad session cookie, page', response: guarded });
  const api = await request.post(`http://127.0.0.1:${PORT}/api/market/api/userAttribute/queryByUserUuid`, {
    headers: { host: `aurora.localhost:${PORT}`, cookie, 'sec-fetch-site': 'same-origin' },
    data: {},
  });
  expect(await api.json()).toMatchObject({ code: 401 });
  await expectHardened({ label: 'bad session cookie, API', response: api });

  // Well-formed UTF-8 reaches the page, which answers a sale id that does not exist as always: to /404, one nonce CSP.
  const unknown = await rawGet(request, 'aurora', '/goods/detail/%E4%B8%AD');
  expect(unknown.status()).toBe(307);
  expect(unknown.headers()['location']).toBe('/404');
  await expectHardened({ label: 'a sale id in UTF-8 that does not exist', response: unknown, page: true });
});

/**
 * A request to the test server from 127.0.0.2, an address it does not trust as a proxy: a client as a phone is. Node's
 * own http.request, since Playwright's request context cannot choose the address it connects from.
 */
function fromClient(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string> = {},
  json?: unknown,
): Promise<{ status: number; headersArray: () => Promise<{ name: string; value: string }[]> }> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: PORT,
        localAddress: '127.0.0.2',
        method,
        path,
        headers: {
          host: `aurora.localhost:${PORT}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const pairs: { name: string; value: string }[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push({ name: res.rawHeaders[i]!, value: res.rawHeaders[i + 1]! });
          resolve({ status: res.statusCode ?? 0, headersArray: async () => pairs });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
