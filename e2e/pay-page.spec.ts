import { devices, expect, test, type Page } from '@playwright/test';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';

// issue 34: the pay page's HTML is the same for every buyer and is served from the rendered-page cache; each buyer's
// own part (quota left, unpaid order, real-name notice) comes from `saleRecord/payState` in the browser. What an
// attacker would look for: anything of buyer A in the HTML buyer B is served. None.

const { defaultBrowserType: _webkit, ...phone } = devices['iPhone 13'];
void _webkit;

async function saleIdOf(page: Page, channel: string, name: string): Promise<string> {
  await page.goto(channelUrl(channel));
  const href = await page.getByTestId('sale-card').filter({ hasText: name }).first().getAttribute('href');
  return /\/goods\/detail\/(\d+)$/.exec(href ?? '')![1]!;
}

type PayStateAnswer = {
  code: number;
  data: { held: number; left: number; identity: { standing: string; message: string | null }; unpaidOrder: { orderNo: string } | null };
};

/** The buyer's payState as the pay page's own fetch sends it (from the page, same origin, with the session cookie). */
async function payStateOf(page: Page, saleId: string): Promise<PayStateAnswer> {
  return page.evaluate(async (id) => {
    const answer = await fetch('/api/market/api/saleRecord/payState', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
      body: JSON.stringify({ id }),
    });
    return (await answer.json()) as PayStateAnswer;
  }, saleId);
}

test('two buyers on one pay page: the same cached HTML, each with their own quota and unpaid order, nothing of A in B’s page', async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const saleId = await saleIdOf(page, 'aurora', 'Star Fox');
  const payPath = `/pay/${saleId}`;

  // Buyer A orders two and leaves the order unpaid at the cashier.
  const phoneA = await logInThroughApi(page, 'aurora');
  const firstA = await page.goto(channelUrl('aurora', payPath));
  expect(firstA!.headers()['x-storefront-cache']).toBe('shared');
  await expect(page.getByTestId('pay-buyer-left')).toHaveText('You may buy 10 more');
  await page.getByRole('button', { name: 'One more' }).click();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  const stateA = await payStateOf(page, saleId);
  expect(stateA.data).toMatchObject({ held: 2, left: 8 });
  const orderNoA = stateA.data.unpaidOrder!.orderNo;
  expect(orderNoA).toMatch(/^\d{22}$/);

  // A comes back to the pay page: served from the cache, A's own part after it.
  const backA = await page.goto(channelUrl('aurora', payPath));
  expect(backA!.headers()['x-storefront-cache']).toBe('shared');
  await expect(page.getByTestId('pay-buyer-left')).toHaveText('You may buy 8 more');
  await expect(page.getByTestId('pay-unpaid-order')).toHaveText(/You have an unpaid order of this sale \(2\)\./);

  // Buyer B, on a phone of their own: the same cached HTML, none of A's in it, and B's own part.
  const contextB = await browser.newContext({ ...phone });
  try {
    const pageB = await contextB.newPage();
    const phoneB = await logInThroughApi(pageB, 'aurora');
    const loadB = await pageB.goto(channelUrl('aurora', payPath));
    expect(loadB!.headers()['x-storefront-cache']).toBe('shared');
    const htmlB = await loadB!.text();
    // A's phone, order number and A's own words (the texts themselves travel with the page's messages, unfilled).
    for (const secret of [phoneA, orderNoA, 'You may buy 8', 'this sale (2)']) {
      expect([secret, htmlB.includes(secret)]).toEqual([secret, false]);
    }
    expect(htmlB).not.toContain(phoneB);
    await expect(pageB.getByTestId('pay-buyer-left')).toHaveText('You may buy 10 more');
    await expect(pageB.getByTestId('pay-unpaid-order')).toHaveCount(0);
    const stateB = await payStateOf(pageB, saleId);
    expect(stateB.data).toMatchObject({ held: 0, left: 10, unpaidOrder: null });
  } finally {
    await contextB.close();
  }
});

test('on the real-name store, an unverified buyer’s notice comes with their own part, never in the cached HTML', async ({ page }) => {
  const saleId = await saleIdOf(page, 'lumen', 'Sunrise');
  await logInThroughApi(page, 'lumen');
  const load = await page.goto(channelUrl('lumen', `/pay/${saleId}`));
  expect(load!.headers()['x-storefront-cache']).toBe('shared');
  expect(await load!.text()).not.toContain('asks buyers to verify their real name');
  await expect(page.getByTestId('pay-identity-notice')).toHaveText(/This store asks buyers to verify their real name before buying\./);
  await expect(page.getByTestId('pay-identity-notice').getByRole('link', { name: 'Verify now' })).toHaveAttribute(
    'href',
    `/mine/identity?back=${encodeURIComponent(`/pay/${saleId}`)}`,
  );
  expect((await payStateOf(page, saleId)).data.identity.standing).toBe('unverified');
});

test('without a session the pay page still sends the buyer to log in first, with the way back, before anything renders', async ({
  page,
}) => {
  const saleId = await saleIdOf(page, 'aurora', 'Star Fox');
  const padded = `/pay/0${saleId}`;
  const guard = page.waitForResponse((response) => response.url() === channelUrl('aurora', padded));
  await page.goto(channelUrl('aurora', padded));
  const first = await guard;
  expect(first.status()).toBe(307);
  expect(first.headers()['location']).toMatch(new RegExp(`/login\\?redirect=${encodeURIComponent(padded)}$`));
  await expect(page).toHaveURL(channelUrl('aurora', `/login?redirect=${encodeURIComponent(padded)}`));
});
