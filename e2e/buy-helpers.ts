import { expect, type Page } from '@playwright/test';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';

/**
 * A new buyer on a channel buys one copy of the sale of that name, paying at the sandbox cashier (specs that need a
 * holder of a collectible). Logs in through the API first; returns the edition number shown on the success page.
 */
export async function logInAndBuyOne(page: Page, channel: string, saleName: string): Promise<string> {
  await logInThroughApi(page, channel);
  await page.goto(channelUrl(channel, '/'));
  const href = await page.getByTestId('sale-card').filter({ hasText: saleName }).first().getAttribute('href');
  const saleId = /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
  await page.goto(channelUrl(channel, `/pay/${saleId}`));
  await expect(page).toHaveURL(channelUrl(channel, `/pay/${saleId}`));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page).toHaveURL(/\/pay\/success\?orderNo=\d{22}$/);
  return (await page.getByTestId('pay-success-editions').getByRole('listitem').first().textContent())!.trim();
}
