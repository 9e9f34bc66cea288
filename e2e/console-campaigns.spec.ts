import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { OPS, signInOwner } from './console-owner';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';

// issue 32, "Campaigns": the owner makes a gift campaign on GIFT with an offer that asks a redeem code, generates a
// batch of codes and exports it once as CSV (the export is then gone); a buyer on the channel's host claims the gift
// with one code; the owner sees it used, by a masked phone; revokes the batch; a second code of it is refused with its
// own words. Then the owner edits the campaign the buyer took: its opening is shown fixed with the reason, its end moves
// and the store's gift page shows the new end at once; an exchange recipe is made by picking collectibles by name.

const SHOTS = process.env.CONSOLE_SHOTS; // a folder: the screens are saved there to be looked at

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

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
  await second.close();

  // issue 32, editing: a buyer took this gift, so its opening is fixed, with the reason; its end still moves.
  await page.reload();
  const edit = page.getByRole('form', { name: 'Edit campaign' });
  await expect(edit.getByLabel('Opens')).toBeDisabled();
  await expect(edit.getByText('Fixed: buyers have already taken this campaign’s offers')).toBeVisible();
  await edit.getByLabel('Closes (optional)').fill('2027-03-01T20:00');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByRole('status')).toHaveText('Saved.');
  await expect(page.getByText(/Mar 1, 2027/).first()).toBeVisible();
  // The offer's edit: what it gives and asks is fixed; a count below the one taken is refused under the count.
  await offer.locator('details[data-offer-edit] > summary').click();
  const offerEdit = offer.getByRole('form', { name: /^Edit offer/ });
  await expect(offerEdit.getByLabel('Collectible given')).toBeDisabled();
  await offerEdit.getByLabel('Count').fill('0');
  await offerEdit.getByRole('button', { name: 'Save' }).click();
  await expect(offerEdit.locator('[data-field-error="total"]')).toHaveText('The count cannot be below the 1 already taken.');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'campaign-edit-1280');
  await page.setViewportSize({ width: 820, height: 1180 });
  await shot(page, 'campaign-edit-820');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The store's gift page shows the new end (its campaign reads are dropped on the edit).
  await buyer.goto(channelUrl('gift', `/receive_detail_new/${campaignId}/${offerId}`));
  await expect(buyer.getByText('2027-03-01 20:00')).toBeVisible();
  await buyerContext.close();

  // The tab in Chinese, at 1280 and on a tablet.
  const zh = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    storageState: await page.context().storageState(),
  });
  const zhPage = await zh.newPage();
  await zhPage.goto(`${OPS}/channels/GIFT/campaigns/${campaignId}`);
  await expect(zhPage.getByRole('form', { name: '编辑活动' }).getByText('已固定：已有买家领取或兑换')).toBeVisible();
  await zhPage.locator('details[data-offer-edit] > summary').click();
  await shot(zhPage, 'campaign-edit-zh-1280');
  await zhPage.setViewportSize({ width: 820, height: 1180 });
  await shot(zhPage, 'campaign-edit-zh-820');
  await zhPage.goto(`${OPS}/channels/GIFT/campaigns`);
  await shot(zhPage, 'campaigns-zh-820');
  await zh.close();
});

test('an exchange recipe is made by picking collectibles by name, and rewritten before anyone exchanged', async ({ page }) => {
  test.setTimeout(120_000);
  await signInOwner(page);
  await page.goto(`${OPS}/channels/GIFT/campaigns`);
  await shot(page, 'campaigns-1280');
  const form = page.getByRole('form', { name: 'New campaign' });
  await form.getByLabel('Kind').selectOption('exchange');
  await form.getByLabel('Code').fill(`e2e-recipe-${Date.now() % 1_000_000}`);
  await form.getByLabel('Name').fill('E2E recipe');
  await form.getByLabel('Opens').fill('2026-01-01T00:00');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/channels\/GIFT\/campaigns\/\d+$/);

  const add = page.getByRole('form', { name: 'Add an offer' });
  const first = add.getByLabel('Choose a collectible 1');
  const names = (await first.locator('option').allTextContents()).filter((n) => n && n !== 'Choose a collectible');
  expect(names.length).toBeGreaterThan(1);
  await first.selectOption({ label: names[0]! });
  await add.getByLabel('Quantity 1').fill('2');
  await add.getByRole('button', { name: 'Add a collectible' }).click();
  await add.getByLabel('Choose a collectible 2').selectOption({ label: names[1]! });
  await add.getByLabel('Count', { exact: true }).fill('5');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  const offer = page.locator('article[data-offer]');
  await expect(offer).toContainText(`${names[0]} × 2 + ${names[1]} × 1`);

  // Nobody exchanged yet: the recipe can be rewritten (one line fewer, a new quantity).
  await offer.locator('details[data-offer-edit] > summary').click();
  const edit = offer.getByRole('form', { name: /^Edit offer/ });
  await edit.getByRole('button', { name: 'Remove' }).nth(1).click();
  await edit.getByLabel('Quantity 1').fill('3');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(offer).toContainText(`${names[0]} × 3`);
  await expect(offer).not.toContainText(`${names[1]} × 1`);
  await shot(page, 'recipe-1280');
});

test('a chain-up campaign is edited on the tab: its closing time moves, in the list at once', async ({ page }) => {
  test.setTimeout(60_000);
  await signInOwner(page);
  await page.goto(`${OPS}/channels/CHAIN/campaigns`);
  const edit = page.locator('details[data-chain-edit]').first();
  await edit.locator('summary').click();
  const form = edit.getByRole('form', { name: /^Edit chain-up campaign/ });
  await expect(form.getByLabel('Collectible a chained-up code gives')).toBeVisible();
  await form.getByLabel('Closes (optional)').fill('2027-04-01T20:00');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  await expect(page.getByRole('region', { name: 'Chain-up campaigns', exact: true })).toContainText('Apr 1, 2027');
  await shot(page, 'chain-edit-1280');
  await page.setViewportSize({ width: 820, height: 1180 });
  await shot(page, 'chain-edit-820');
});
