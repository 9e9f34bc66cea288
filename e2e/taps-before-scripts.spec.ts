import { expect, test, type Page } from '@playwright/test';
import { channelUrl } from './support';
import { buyerState } from './buyers';

// Issue 34: on a slow phone the page is painted seconds before its scripts have arrived. What a buyer taps then must
// still work: the cover opens the full picture, Buy goes where it should. Proven here with no JavaScript at all.
test.use({ javaScriptEnabled: false });

async function openAuroraDawn(page: Page): Promise<string> {
  await page.goto(channelUrl('aurora'));
  await page.getByTestId('sale-card').filter({ hasText: 'Aurora Dawn' }).click();
  await expect(page).toHaveURL(/\/goods\/detail\/\d+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

test('tapping the cover shows the full picture', async ({ page }) => {
  await openAuroraDawn(page);
  const cover = page.getByRole('link', { name: 'View Aurora Dawn full screen', exact: true });
  const href = await cover.getAttribute('href');
  expect(href).toBeTruthy();
  const full = new URL(href!, page.url()).href;
  const [picture] = await Promise.all([page.waitForResponse((response) => response.url() === full), cover.click()]);
  await expect(page).toHaveURL(full);
  // The browser shows the picture itself (the demo's art is SVG: an image document of its own).
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toMatch(/^image\//);
  expect((await picture.body()).length).toBeGreaterThan(0);
});

test('tapping Buy without a session reaches the login page with the way back to the pay page', async ({ page }) => {
  const saleId = await openAuroraDawn(page);
  await page.getByTestId('buy-button').click();
  await expect(page).toHaveURL(new RegExp(`/login\\?redirect=${encodeURIComponent(`/pay/${saleId}`)}$`));
  await expect(page.getByRole('textbox').first()).toBeVisible();
});

test.describe('logged in', () => {
  test.use({ storageState: buyerState('aurora') });

  test('tapping Buy reaches the pay page', async ({ page }) => {
    const saleId = await openAuroraDawn(page);
    await page.getByTestId('buy-button').click();
    await expect(page).toHaveURL(new RegExp(`/pay/${saleId}$`));
  });
});
