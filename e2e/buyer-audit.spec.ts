import { expect, test, type Page } from '@playwright/test';
import { channelUrl } from './support';
import { logInWithQuestion } from './login-helpers';
import { logInThroughApi } from './api-login';
import en from '../lib/i18n/messages/en';
import zhCN from '../lib/i18n/messages/zh-CN';

// What a buyer reads and sees, as the phone audit of issue 30 found it wanting: a paused store said nothing, a gift not
// open yet had no countdown, counts were grouped on one page and not on the next, the chain-up login link forgot the
// query, and cancelling an order said nothing.

/** The id of a demo sale, read from its card on AURORA's home page. */
async function saleIdOf(page: Page, name: string): Promise<string> {
  await page.goto(channelUrl('aurora', '/'));
  const href = await page.getByTestId('sale-card').filter({ hasText: name }).first().getAttribute('href');
  return /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
}

test('a paused store (status 0) keeps its root screen hidden and says plainly that it is paused', async ({ page }) => {
  await page.goto(channelUrl('dark'));
  await expect(page.locator('#app')).toBeHidden();
  await expect(page.getByTestId('store-paused')).toBeVisible();
  await expect(page.getByTestId('store-paused')).toHaveText(en.common.storePaused);
  await page.screenshot({ path: 'e2e/.artifacts/store-paused.png' });
});

test.describe('a paused store, read in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('says it is paused in the channel’s language', async ({ page }) => {
    await page.goto(channelUrl('dark'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('store-paused')).toHaveText(zhCN.common.storePaused);
  });
});

test('the chain-up login link keeps the query: /chain?x=y, log in, back on /chain?x=y', async ({ page }) => {
  await page.goto(channelUrl('chain', '/chain?from=share&x=y'));
  await page.getByTestId('chain-login').click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fchain%3Ffrom%3Dshare%26x%3Dy$/);
  await logInWithQuestion(page);
  await expect(page).toHaveURL(channelUrl('chain', '/chain?from=share&x=y'));
});

test('a gift not open yet counts down to its opening, in the list and on its page, as a sale does', async ({ page }) => {
  await page.goto(channelUrl('gift', '/receive2'));
  const soon = page.getByTestId('campaign').filter({ hasText: 'New Year gift' }).getByTestId('campaign-status');
  // The New Year gift opens three days after the seed ran: days and hours from a day up, as a sale's badge.
  await expect(soon).toHaveText(/^\dd \d{1,2}h$/);
  await expect(soon).toHaveAttribute('role', 'timer');
  await expect(soon).toHaveAccessibleName(/^Opens \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  // An open one keeps its plain badge.
  await expect(page.getByTestId('campaign').filter({ hasText: 'Welcome gift' }).getByTestId('campaign-status')).toHaveText('Open');
  await page.getByTestId('gift-offer').filter({ hasText: 'New Year Rabbit' }).click();
  await expect(page.getByTestId('gift-name')).toHaveText('New Year Rabbit');
  await expect(page.getByTestId('gift-countdown')).toHaveText(/^\dd \d{1,2}h$/);
  await page.screenshot({ path: 'e2e/.artifacts/gift-countdown.png' });
});

test('counts are grouped alike on every page: the edition size of a gift as on a goods page, the copies left on the pay page', async ({
  page,
}) => {
  await page.goto(channelUrl('gift', '/receive2'));
  await page.getByTestId('gift-offer').filter({ hasText: 'Welcome Lantern' }).click();
  await expect(page.getByTestId('offer-edition-size')).toHaveText('5,000');

  const saleId = await saleIdOf(page, 'Star Fox');
  await page.goto(channelUrl('aurora', `/goods/detail/${saleId}`));
  await expect(page.getByTestId('edition-size')).toHaveText(/^2,000 /);
  await logInThroughApi(page, 'aurora');
  await page.goto(channelUrl('aurora', `/pay/${saleId}`));
  await expect(page.getByTestId('pay-left')).toHaveText(/^1,\d{3} left$/);
});

test('cancelling an order says so, and the order reads cancelled by the buyer', async ({ page }) => {
  const saleId = await saleIdOf(page, 'Tide Whale');
  await logInThroughApi(page, 'aurora');
  await page.goto(channelUrl('aurora', `/pay/${saleId}`));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  const cashier = page.url();
  await page.goto(channelUrl('aurora', '/mine/records'));
  const order = page.getByTestId('order').first();
  const orderNo = await order.getAttribute('data-order-no');
  await order.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(en.orders.cancelledToast)).toBeVisible();
  await expect(order.getByTestId('order-status')).toHaveText(en.orders.cancelled);
  await page.screenshot({ path: 'e2e/.artifacts/order-cancelled.png' });
  await page.goto(channelUrl('aurora', `/pay/fail?orderNo=${orderNo}`));
  await expect(page.getByTestId('pay-fail-body')).toHaveText(en.result.cancelledBody);
  await page.goto(cashier);
  await expect(page.getByTestId('cashier-closed')).toHaveText(en.cashier.cancelled);
});
