import { expect, test } from '@playwright/test';
import { channelUrl } from './support';
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
