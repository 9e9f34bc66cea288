import { expect, test } from '@playwright/test';
import { OPS, signInOwner } from './console-owner';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';

// issue 32, "Orders and buyers": a buyer logs in on AURORA and reads their account number on Mine (10 random digits,
// this channel's); the owner finds them in the console by their phone typed in full, sees the same number and the
// phone, blocks them with a reason, and the buyer's next page load finds them signed out. Lifting the block shows as
// lifted. Masking by role and the login refusal's words are in lib/buyer/buyers.test.ts.

const SHOTS = process.env.CONSOLE_SHOTS;

test('the owner finds a buyer by phone, blocks them, and the buyer is signed out at their next page load', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const buyerContext = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en' });
  const buyer = await buyerContext.newPage();
  const phone = await logInThroughApi(buyer, 'aurora');
  await buyer.goto(channelUrl('aurora', '/mine'));
  const shown = (await buyer.getByTestId('mine-account-id').textContent())!.trim();
  expect(shown).toMatch(/^[1-9]\d{2} \d{3} \d{4}$/);
  const accountNumber = shown.replace(/\s/g, '');

  await signInOwner(page);
  await page.goto(`${OPS}/channels/AURORA/orders`);
  await expect(page.getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
  // A phone typed in part finds nobody.
  await page.getByLabel('Order number, phone or account number').fill(phone.slice(0, 7));
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByTestId('buyers-not-found')).toContainText('is not an order number');
  await page.getByLabel('Order number, phone or account number').fill(phone);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page).toHaveURL(`${OPS}/channels/AURORA/buyers/${accountNumber}`);
  await expect(page.getByTestId('buyer-account-number')).toHaveText(accountNumber);
  // An owner reads the phone in full; managers and support read it masked (lib/buyer/buyers.test.ts).
  await expect(page.getByTestId('buyer-phone')).toHaveText(phone);
  await expect(page.getByTestId('buyer-block-state')).toHaveText('Not blocked');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/buyer-1280.png`, fullPage: true });

  await page.getByLabel('Reason').fill('chargeback fraud');
  await page.getByRole('button', { name: 'Block buyer' }).click();
  await expect(page.getByTestId('buyer-block-state')).toContainText('Blocked on this channel since');
  await expect(page.getByTestId('buyer-block-state')).toContainText('chargeback fraud');

  // The buyer's next page load: signed out (their session ended with the block).
  await buyer.reload();
  await expect(buyer.getByTestId('mine-anonymous')).toBeVisible();
  await expect(buyer.getByTestId('mine-account-id')).toHaveCount(0);

  await page.getByLabel('Reason').fill('bank confirmed the payment');
  await page.getByRole('button', { name: 'Lift block' }).click();
  await expect(page.getByTestId('buyer-block-state')).toHaveText('Not blocked');
  await buyerContext.close();
});
