import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { OPS, signInOwner } from './console-owner';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';

// issue 32, "Campaigns": the owner makes a gift campaign on GIFT with an offer that asks a redeem code, generates a
// batch of codes and exports it once as CSV (the export is then gone); a buyer on the channel's host claims the gift
// with one code; the owner sees it used, by a masked phone; revokes the batch; a second code of it is refused with its
// own words.

test('an operator runs a redeem-code gift: batch, export once, a buyer claims, usage masked, revoke, next code refused', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signInOwner(page);
  await page.goto(`${OPS}/channels/GIFT/campaigns`);
  await expect(page.getByRole('link', { name: 'Campaigns' })).toHaveAttribute('aria-current', 'page');

  const code = `e2e-codes-${Date.now() % 1_000_000}`;
  const form = page.getByRole('form', { name: 'New campaign' });
  await form.getByLabel('Code').fill(code);
  await form.getByLabel('Name').fill('E2E code gift');
  await form.getByLabel('Opens').fill('2026-01-01T00:00');
  // Closing before opening is refused under its field, and nothing is made.
  await form.getByLabel('Closes (optional)').fill('2025-12-31T00:00');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page.locator('[data-field-error="endTime"]')).toHaveText('The closing time must be after the opening time.');
  await form.getByLabel('Closes (optional)').fill('');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/channels\/GIFT\/campaigns\/\d+$/);
  const campaignId = /campaigns\/(\d+)$/.exec(page.url())![1]!;

  const offerForm = page.getByRole('form', { name: 'Add an offer' });
  await offerForm.getByLabel('Count').fill('10');
  await offerForm.getByLabel('A redeem code').check();
  await offerForm.getByRole('button', { name: 'Add' }).click();
  const offer = page.locator('article[data-offer]');
  await expect(offer).toContainText('By redeem code');
  const offerId = (await offer.getAttribute('data-offer'))!;

  await offer.getByLabel('How many codes').fill('5');
  await offer.getByRole('button', { name: 'Generate' }).click();
  const batchRow = offer.locator('tr[data-batch]');
  await expect(batchRow).toContainText('Waiting for its one export');
  const download = page.waitForEvent('download');
  await batchRow.getByRole('button', { name: 'Export CSV (once)' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');
  const codes = csv
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(',')[0]!);
  expect(codes).toHaveLength(5);
  // Exported once: the button is gone.
  await expect(batchRow).toContainText('Exported');
  await expect(batchRow.getByRole('button', { name: 'Export CSV (once)' })).toHaveCount(0);

  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  const phone = await logInThroughApi(buyer, 'gift');
  await buyer.goto(channelUrl('gift', `/receive_detail_new/${campaignId}/${offerId}`));
  await buyer.getByRole('button', { name: 'Receive' }).click();
  await buyer.getByLabel('Redeem code').fill(codes[0]!);
  await buyer.getByRole('button', { name: 'Receive' }).click();
  await expect(buyer.getByTestId('gift-edition')).toBeVisible();

  await page.reload();
  await page.locator('tr[data-batch]').getByRole('button', { name: 'Who used them' }).click();
  const masked = `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  await expect(page.locator(`[data-used-by="${masked}"]`)).toBeVisible();
  await expect(page.getByText(phone)).toHaveCount(0);

  await page.locator('tr[data-batch]').getByRole('button', { name: 'Revoke batch' }).click();
  await page.locator('tr[data-batch]').getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(page.locator('tr[data-batch]')).toContainText('Revoked');

  // The buyer keeps the gift; a second buyer's code of the revoked batch is refused, saying why.
  const second = await browser.newContext();
  const other = await second.newPage();
  await logInThroughApi(other, 'gift');
  await other.goto(channelUrl('gift', `/receive_detail_new/${campaignId}/${offerId}`));
  await other.getByRole('button', { name: 'Receive' }).click();
  await other.getByLabel('Redeem code').fill(codes[1]!);
  await other.getByRole('button', { name: 'Receive' }).click();
  await expect(other.getByText('This redeem code has been withdrawn by the store and can no longer be used.')).toBeVisible();
  await buyerContext.close();
  await second.close();
});
