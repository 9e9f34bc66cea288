import { expect, test, type APIRequestContext } from '@playwright/test';
import { PORT, channelUrl, seedChannel } from './support';
import { logInWithQuestion } from './login-helpers';

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
// Red-team findings.

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
  for (const path of ['/DARK/en/goods/detail/13.png', '/DARK/en/goods/detail/13.svg', '/AURORA/en/mine.png', '/LUMEN/en/pay/1.jpg', '/DARK/en/mine/records.txt', '/goods/detail/1.png', '/robots.txt']) {
    const response = await rawGet(request, 'aurora', path);
    // The middleware's rule for a path that is not a route of the storefront (or the goods page's, for a sale id
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
