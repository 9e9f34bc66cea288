import { expect, test, type Page } from '@playwright/test';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';
import { logInAndBuyOne } from './buy-helpers';
import { demoCode } from '../lib/demo/seed-data';

// Gifts (label 3): the receive list, receiving a gift open to every member and one that asks for a redeem code,
// the receive records; a gift for holders refused to a non-holder; channels without label 3.

/**
 * From the channel's receive list, opens the gift of that name, follows its log-in link, and comes back to it as a new
 * user (logged in through the API: the login page has its own specs).
 */
async function openGiftLoggedIn(page: Page, channel: string, giftName: string): Promise<string> {
  await page.goto(channelUrl(channel, '/receive2'));
  await page.getByTestId('gift-offer').filter({ hasText: giftName }).click();
  await expect(page).toHaveURL(/\/receive_detail_new\/\d+\/\d+$/);
  const detail = new URL(page.url()).pathname;
  await expect(page.getByTestId('gift-name')).toHaveText(giftName);
  await page.getByTestId('gift-login').click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await logInThroughApi(page, channel);
  await page.goto(channelUrl(channel, detail));
  await expect(page).toHaveURL(channelUrl(channel, detail));
  return detail;
}

test('a gift-only channel: the receive list, receive a gift for every member, see it in the records and the collection', async ({
  page,
}) => {
  await page.goto(channelUrl('gift'));
  await expect(page).toHaveURL(channelUrl('gift', '/receive2'));
  await expect(page.getByRole('heading', { name: 'Receive list', exact: true })).toBeVisible();
  await expect(page).toHaveTitle('Receive list | digital collectible receive');
  const campaigns = page.getByTestId('campaign');
  await expect(campaigns.filter({ hasText: 'Welcome gift' }).getByTestId('campaign-status')).toHaveText('Open');
  await expect(campaigns.filter({ hasText: 'New Year gift' }).getByTestId('campaign-status')).toHaveText(/^\dd \d{1,2}h$/); // counts down (issue 30)
  await page.screenshot({ path: 'e2e/.artifacts/receive-list.png' });

  const detail = await openGiftLoggedIn(page, 'gift', 'Welcome Lantern');
  await expect(page.getByTestId('gift-requirement')).toHaveText('For every member · One per member');
  await page.getByRole('button', { name: 'Receive' }).click();
  await expect(page.getByTestId('gift-received')).toBeVisible();
  await expect(page.getByTestId('gift-edition')).toHaveText(/^#\d+\/5000$/);
  const edition = (await page.getByTestId('gift-edition').textContent())!;
  await page.screenshot({ path: 'e2e/.artifacts/receive-done.png' });

  // Once per member: back on the page, the button is gone and says why.
  await page.goto(channelUrl('gift', detail));
  await expect(page.getByTestId('gift-refusal')).toHaveText('You have received this gift');

  await page.goto(channelUrl('gift', '/mine/receive'));
  const record = page.getByTestId('receive-record');
  await expect(record).toHaveCount(1);
  await expect(record).toContainText('Welcome Lantern');
  await expect(record.getByTestId('receive-edition')).toHaveText(edition);
  await page.screenshot({ path: 'e2e/.artifacts/receive-records.png' });
  await page.goto(channelUrl('gift', '/mine/collection'));
  await expect(page.getByTestId('holding').filter({ hasText: 'Welcome Lantern' })).toContainText(edition);
});

test('a gift that asks for a redeem code: a wrong code is refused, a demo code typed in lower case works once', async ({ page }) => {
  await openGiftLoggedIn(page, 'gift', 'Member Crane');
  await expect(page.getByTestId('gift-requirement')).toContainText('Needs a redeem code');
  await page.getByRole('button', { name: 'Receive' }).click();
  await expect(page.getByText('Enter your redeem code')).toBeVisible();
  await page.getByLabel('Redeem code').fill('AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG');
  await page.getByRole('button', { name: 'Receive' }).click();
  await expect(page.getByText('This redeem code is not valid here, or has been used.')).toBeVisible();
  await expect(page.getByTestId('gift-received')).toHaveCount(0);

  // Each demo code works once; a retried test takes the next one.
  const code = demoCode('gift-member-crane', 1 + test.info().retry);
  await page.getByLabel('Redeem code').fill(code.toLowerCase().replace(/-/g, ' '));
  await page.screenshot({ path: 'e2e/.artifacts/receive-code.png' });
  await page.getByRole('button', { name: 'Receive' }).click();
  await expect(page.getByTestId('gift-edition')).toHaveText(/^#\d+\/500$/);
  await page.goto(channelUrl('gift', '/mine/receive'));
  await expect(page.getByTestId('receive-record')).toContainText('With a code');
});

test('a gift for holders of a collectible is refused, with the reason, to someone who does not hold it', async ({ page }) => {
  await openGiftLoggedIn(page, 'aurora', 'Afterglow Owl');
  await expect(page.getByTestId('gift-requirement')).toContainText('For holders of Aurora Dawn');
  await expect(page.getByTestId('gift-refusal')).toHaveText('Only holders of Aurora Dawn can receive this gift');
  await expect(page.getByRole('button', { name: 'Receive' })).toHaveCount(0);
});

test('a holder of the collectible a gift asks for receives it, into the collection', async ({ page }) => {
  await logInAndBuyOne(page, 'aurora', 'Star Fox');
  await page.goto(channelUrl('aurora', '/receive2'));
  await page.getByTestId('gift-offer').filter({ hasText: 'Star Fox Cub' }).click();
  await expect(page.getByTestId('gift-requirement')).toHaveText('For holders of Star Fox · One per member');
  await page.getByRole('button', { name: 'Receive' }).click();
  await expect(page.getByTestId('gift-edition')).toHaveText(/^#\d+\/2000$/);
  await page.goto(channelUrl('aurora', '/mine/collection'));
  await expect(page.getByTestId('holding').filter({ hasText: 'Star Fox Cub' })).toHaveCount(1);
});

test('channels without label 3 have no gifts; a gift of another channel is not found', async ({ page }) => {
  await page.goto(channelUrl('lumen', '/receive2'));
  await expect(page.getByTestId('gifts-empty')).toBeVisible();
  await page.goto(channelUrl('gift', '/receive2'));
  const href = await page.getByTestId('gift-offer').first().getAttribute('href');
  await page.goto(channelUrl('lumen', href!));
  await expect(page).toHaveURL(channelUrl('lumen', '/404'));
});

test('after a receive the count left drops and a gift of two per member offers the second, without a reload', async ({ page }) => {
  await openGiftLoggedIn(page, 'swap', 'Starter Card');
  await expect(page.getByTestId('gift-requirement')).toHaveText('For every member · Up to 2 per member');
  const leftNow = async () => Number((await page.getByTestId('gift-left').textContent())!.split(' of ')[0]!.replace(/,/g, ''));
  const before = await leftNow();

  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByTestId('gift-edition')).toHaveText(/^#\d+\/20000$/);
  const first = await page.getByTestId('gift-edition').textContent();
  await expect.poll(leftNow).toBeLessThan(before);

  await page.getByRole('button', { name: 'Receive another' }).click();
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByTestId('gift-edition')).toHaveText(/^#\d+\/20000$/);
  await expect(page.getByTestId('gift-edition')).not.toHaveText(first!);
  await expect.poll(leftNow).toBeLessThan(before - 1);
  // The limit is reached: no third.
  await expect(page.getByRole('button', { name: 'Receive another' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('gift-refusal')).toHaveText('You have received this gift');
});
