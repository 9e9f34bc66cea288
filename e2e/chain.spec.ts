import { expect, test, type Page } from '@playwright/test';
import { channelUrl } from './support';
import { logInWithQuestion } from './login-helpers';
import { logInThroughApi } from './api-login';
import { buyerState } from './buyers';
import { demoCode } from '../lib/demo/seed-data';

// Self chain-up (label 4): a product's code and its store give a numbered digital twin, recorded on the chain ledger.

/** Opens /chain on a channel as a new user (logged in through the API). */
async function openChainLoggedIn(page: Page, channel: string): Promise<void> {
  await logInThroughApi(page, channel);
  await page.goto(channelUrl(channel, '/chain'));
  await expect(page).toHaveURL(channelUrl(channel, '/chain'));
}

test('chain up a product code: the confirm page, the result with its tx hash, the record and the collection', async ({ page }) => {
  await page.goto(channelUrl('chain'));
  await expect(page).toHaveURL(channelUrl('chain', '/chain'));
  await expect(page.getByRole('heading', { name: 'Self chain-up', exact: true })).toBeVisible();
  await expect(page).toHaveTitle('Self chain-up | digital collectible receive');
  await expect(page.getByTestId('chain-campaign').filter({ hasText: 'Iron Owl figurine' })).toContainText('Mo Studio');
  await page.screenshot({ path: 'e2e/.artifacts/chain-visitor.png' });

  // The page's own log-in link comes back to /chain (the login itself: login.spec.ts).
  await page.getByTestId('chain-login').click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fchain$/);
  await openChainLoggedIn(page, 'chain');
  // Each demo code works once; a retried test takes the next one. Typed loosely, as people do.
  const code = demoCode('iron-owl', 1 + test.info().retry);
  await page.getByLabel('Product or certificate code').fill(code.toLowerCase().replace(/-/g, ' '));
  await page.getByLabel('Store').selectOption('SH003');
  await page.screenshot({ path: 'e2e/.artifacts/chain-form.png' });
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page).toHaveURL(/\/chain\/\d+\/SH003\/1\/Mo%20Studio$/);
  await expect(page.getByTestId('chain-up-commodity')).toHaveText('Iron Owl (digital twin)');
  await expect(page.getByTestId('chain-up-store')).toHaveText('Shanghai store 3 (SH003)');
  await expect(page.getByTestId('chain-up-facts')).toContainText('Product code');
  // The code came along in the goods state, not in the address.
  await expect(page.getByTestId('chain-code')).toHaveText(code.toLowerCase().replace(/-/g, ' '));
  await page.screenshot({ path: 'e2e/.artifacts/chain-confirm.png' });
  await page.getByRole('button', { name: 'Chain up' }).click();

  await expect(page).toHaveURL(/\/chain\/result\?id=\d+$/);
  const resultUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Chain-up result' })).toBeVisible();
  await expect(page.getByTestId('chain-edition')).toHaveText(/^#\d+\/2000$/);
  const edition = (await page.getByTestId('chain-edition').textContent())!;
  // The ledger confirms within a few seconds (the chain-up job); the page shows it without a reload.
  await expect(page.getByTestId('chain-tx')).toHaveText(/^0x[0-9a-f]{64}$/, { timeout: 20_000 });
  await expect(page.getByTestId('chain-result-message')).toHaveText('Done: your digital twin is on the chain.');
  await page.screenshot({ path: 'e2e/.artifacts/chain-result.png' });
  const tx = await page.getByTestId('chain-tx').textContent();

  await page.getByRole('link', { name: 'Chain-up records' }).click();
  await expect(page).toHaveURL(channelUrl('chain', '/mine/chain'));
  const record = page.getByTestId('chain-record');
  await expect(record).toHaveCount(1);
  await expect(record).toContainText('Shanghai store 3 · Product code');
  await expect(record.getByTestId('chain-edition')).toHaveText(edition);
  await expect(record.getByTestId('chain-tx')).toHaveText(tx!);
  await page.screenshot({ path: 'e2e/.artifacts/chain-records.png' });

  await page.goto(channelUrl('chain', '/mine/collection'));
  await expect(page.getByTestId('holding').filter({ hasText: 'Iron Owl (digital twin)' })).toContainText(edition);

  // The same code again opens what it already gave.
  await page.goto(channelUrl('chain', '/chain'));
  await page.getByLabel('Product or certificate code').fill(code);
  await page.getByLabel('Store').selectOption('ONLINE');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(resultUrl);
});

test.describe('the buyer of the run', () => {
  test.use({ storageState: buyerState('chain') });

  test('the store must be chosen, and a wrong code is refused with the server message', async ({ page }) => {
    await page.goto(channelUrl('chain', '/chain'));
    await expect(page).toHaveURL(channelUrl('chain', '/chain'));
    await page.getByLabel('Product or certificate code').fill('AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Choose the store you bought it from')).toBeVisible();
    await page.getByLabel('Store').selectOption('BJ001');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('This product or certificate code is not valid here, or has been used.')).toBeVisible();
    await expect(page).toHaveURL(channelUrl('chain', '/chain'));
  });
});

test('a certificate code on AURORA: after a reload the confirm page asks for the code again, and takes it', async ({ page }) => {
  await openChainLoggedIn(page, 'aurora');
  const code = demoCode('aurora-print-certificate', 1 + test.info().retry);
  await page.getByLabel('Product or certificate code').fill(code);
  await page.getByLabel('Store').selectOption('GZ001');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/chain\/\d+\/GZ001\/2\/Mira%20Solberg$/);
  await expect(page.getByTestId('chain-up-facts')).toContainText('Certificate code');

  await page.reload();
  await expect(page.getByTestId('chain-code')).toHaveCount(0);
  await page.getByRole('button', { name: 'Chain up' }).click();
  await expect(page.getByText('Enter the product code')).toBeVisible();
  await page.getByLabel('Product or certificate code').fill(code);
  await page.getByRole('button', { name: 'Chain up' }).click();
  await expect(page).toHaveURL(/\/chain\/result\?id=\d+$/);
  await expect(page.getByTestId('chain-record')).toContainText('Aurora Dawn (print twin)');
  await expect(page.getByTestId('chain-record')).toContainText('Guangzhou flagship · Certificate code');
});

test("chain-up pages that are not this channel's, or not this user's, are not found; a channel without campaigns lists none", async ({
  page,
}) => {
  await page.goto(channelUrl('lumen', '/chain'));
  await expect(page.getByTestId('chain-empty')).toBeVisible();
  await expect(page.getByTestId('chain-login')).toHaveCount(0);

  await openChainLoggedIn(page, 'chain');
  const code = demoCode('iron-owl', 3 + test.info().retry);
  await page.getByLabel('Product or certificate code').fill(code);
  await page.getByLabel('Store').selectOption('SH001');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/chain\/\d+\/SH001\/1\/Mo%20Studio$/);
  const confirmPath = new URL(page.url()).pathname;
  await page.goto(channelUrl('chain', confirmPath.replace('/SH001/', '/PARIS1/')));
  await expect(page).toHaveURL(channelUrl('chain', '/404'));
  await page.goto(channelUrl('chain', confirmPath.replace('/Mo%20Studio', '/Someone')));
  await expect(page).toHaveURL(channelUrl('chain', '/404'));
  await page.goto(channelUrl('chain', confirmPath));
  await page.getByLabel('Product or certificate code').fill(code);
  await page.getByRole('button', { name: 'Chain up' }).click();
  await expect(page).toHaveURL(/\/chain\/result\?id=\d+$/);
  const result = new URL(page.url());

  // Another user (on the same channel, a new session) cannot open this result.
  await page.context().clearCookies();
  await page.goto(channelUrl('chain', '/login'));
  await logInWithQuestion(page);
  await expect(page).toHaveURL(channelUrl('chain', '/mine'));
  await page.goto(channelUrl('chain', `${result.pathname}${result.search}`));
  await expect(page).toHaveURL(channelUrl('chain', '/404'));
});
