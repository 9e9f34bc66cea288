import { devices, expect, test, type Page, type Response } from '@playwright/test';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';
import { postFromPage } from './page-api';

// issue 34: /mine is served from the rendered-page cache like the pay page, in two variants: signed in (the profile
// card, counts and entries with placeholders of their size) and anonymous (the login prompt, as before). Neither holds
// anything of a buyer; a signed-in buyer's own part comes from `userAttribute/mineSummary` in the browser. What an
// attacker would look for: anything of buyer A in the HTML buyer B is served. None.

const { defaultBrowserType: _webkit, ...phone } = devices['iPhone 13'];
void _webkit;

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

/** The page's HTML with its answer's nonce taken out (every answer has its own; docs/caching.md). */
async function htmlOf(response: Response): Promise<string> {
  const nonce = /'nonce-([^']+)'/.exec(response.headers()['content-security-policy'] ?? '')?.[1];
  const html = await response.text();
  return nonce ? html.split(nonce).join('NONCE') : html;
}

async function saleIdOf(page: Page, name: string): Promise<string> {
  await page.goto(channelUrl('aurora'));
  const href = await page.getByTestId('sale-card').filter({ hasText: name }).first().getAttribute('href');
  return /\/goods\/detail\/(\d+)$/.exec(href ?? '')![1]!;
}

test('two buyers on /mine: the same cached HTML, nothing of A in B’s, each with their own phone, account number and counts', async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const saleId = await saleIdOf(page, 'Star Fox');
  const phoneA = await logInThroughApi(page, 'aurora');
  // A has one order to pay; B has none.
  await postFromPage(page, '/market/api/order/create', { saleId: Number(saleId), quantity: 1, idempotencyKey: `mine-${Date.now()}` });

  const loadA = (await page.goto(channelUrl('aurora', '/mine')))!;
  expect(loadA.headers()['x-storefront-cache']).toBe('shared');
  const htmlA = await htmlOf(loadA);
  await expect(page.getByTestId('mine-phone')).toHaveText(masked(phoneA));
  await expect(page.getByTestId('mine-account-id')).toHaveText(/^[1-9]\d{2} \d{3} \d{4}$/);
  await expect(page.getByTestId('mine-summary-to-pay')).toHaveText('1');
  const accountA = (await page.getByTestId('mine-account-id').textContent())!.trim();
  for (const secret of [phoneA, masked(phoneA), accountA, accountA.replace(/\s/g, '')]) {
    expect([secret, htmlA.includes(secret)]).toEqual([secret, false]);
  }

  const contextB = await browser.newContext({ ...phone });
  try {
    const pageB = await contextB.newPage();
    const phoneB = await logInThroughApi(pageB, 'aurora');
    const loadB = (await pageB.goto(channelUrl('aurora', '/mine')))!;
    expect(loadB.headers()['x-storefront-cache']).toBe('shared');
    const htmlB = await htmlOf(loadB);
    // One page for every signed-in buyer of the channel, byte for byte but for the answer's nonce.
    expect(htmlB).toBe(htmlA);
    for (const secret of [phoneA, masked(phoneA), accountA, accountA.replace(/\s/g, ''), phoneB, masked(phoneB)]) {
      expect([secret, htmlB.includes(secret)]).toEqual([secret, false]);
    }
    await expect(pageB.getByTestId('mine-phone')).toHaveText(masked(phoneB));
    await expect(pageB.getByTestId('mine-summary-to-pay')).toHaveText('0');
    const accountB = (await pageB.getByTestId('mine-account-id').textContent())!.trim();
    expect(accountB).toMatch(/^[1-9]\d{2} \d{3} \d{4}$/);
    expect(accountB).not.toBe(accountA);
    await expect(pageB.getByTestId('mine-entries')).toBeVisible();
  } finally {
    await contextB.close();
  }
});

test('an anonymous visitor gets the login prompt in the HTML itself, with no placeholder, even when asking for the signed-in page', async ({
  browser,
  page,
}) => {
  const load = (await page.goto(channelUrl('aurora', '/mine')))!;
  expect(load.headers()['x-storefront-cache']).toBe('shared');
  const html = await load.text();
  expect(html).toContain('data-testid="mine-anonymous"');
  expect(html).not.toContain('mine-profile-pending');
  // No element pulses as a placeholder (the page's inline stylesheet names the class; no element carries it).
  expect(html).not.toMatch(/class="[^"]*\banimate-pulse\b/);
  await expect(page.getByTestId('mine-anonymous')).toBeVisible();
  await expect(page.getByTestId('mine-anonymous').getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?redirect=%2Fmine');

  // Only the proxy says who a page is for: a visitor's own copy of its header changes nothing.
  const forged = await browser.newContext({ ...phone, extraHTTPHeaders: { 'x-storefront-visitor': 'buyer' } });
  try {
    const forgedPage = await forged.newPage();
    const forgedHtml = await (await forgedPage.goto(channelUrl('aurora', '/mine')))!.text();
    expect(forgedHtml).toContain('data-testid="mine-anonymous"');
    expect(forgedHtml).not.toContain('mine-profile-pending');
  } finally {
    await forged.close();
  }
});

test('a session revoked elsewhere shows the login prompt on /mine, which stays where it is', async ({ browser, page }) => {
  test.setTimeout(60_000);
  await logInThroughApi(page, 'lumen');
  await page.goto(channelUrl('lumen', '/mine'));
  await expect(page.getByTestId('mine-profile')).toBeVisible();
  // The same session cookie in a second browser, then the session revoked from the first (its logout).
  const copy = await browser.newContext({ ...phone, storageState: await page.context().storageState() });
  try {
    await postFromPage(page, '/auth/api/auth/logout', {});
    const stale = await copy.newPage();
    const load = (await stale.goto(channelUrl('lumen', '/mine')))!;
    // The cookie still decrypts: the signed-in page is served, and the buyer's call, refused, shows the prompt.
    expect(load.headers()['x-storefront-cache']).toBe('shared');
    await expect(stale.getByTestId('mine-anonymous')).toBeVisible();
    await expect(stale.getByTestId('mine-account-id')).toHaveCount(0);
    await expect(stale.getByTestId('mine-entries')).toHaveCount(0);
    await expect(stale).toHaveURL(channelUrl('lumen', '/mine'));
    // Signed out for good: the next load is the anonymous page.
    await stale.reload();
    await expect(stale.getByTestId('mine-anonymous')).toBeVisible();
  } finally {
    await copy.close();
  }
});
