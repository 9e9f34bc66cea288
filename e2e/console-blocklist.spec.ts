import { expect, test, type Page } from '@playwright/test';
import { OPS, signInOwner } from './console-owner';

// issue 33, "Blocklists managed by operators": the owner opens AURORA's Buyers tab (the one blocklist), is refused a
// range wider than /16 under the field, blocks a /24 with a reason, reads it in the list (kind, the range, reason, by,
// when), and lifts it with a reason. What a blocked range cannot do (no code, no login, no order) is in
// lib/buyer/blocklist.test.ts. Screens at 1280×800 and 820×1180 in both languages (CONSOLE_SHOTS).

const SHOTS = process.env.CONSOLE_SHOTS;
async function shot(p: Page, name: string) {
  if (SHOTS) await p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('the owner blocks an address range on the Buyers tab and lifts it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInOwner(page);
  await page.goto(`${OPS}/channels/AURORA/buyers`);
  await expect(page.getByRole('link', { name: 'Buyers' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'Blocklist' })).toBeVisible();
  await expect(page.getByTestId('blocklist-empty')).toBeVisible();

  const form = page.getByTestId('blocklist-add-form');
  await form.getByLabel('Address range', { exact: true }).fill('10.0.0.0/8');
  await form.getByLabel('Reason', { exact: true }).fill('bot farm');
  await form.getByRole('button', { name: 'Add to the blocklist' }).click();
  await expect(form.getByRole('alert')).toContainText('This range is too wide');
  await expect(form.getByLabel('Address range', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Address range', { exact: true }).fill('203.0.113.77/24');
  await form.getByRole('button', { name: 'Add to the blocklist' }).click();
  const row = page.getByTestId('blocklist-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Address range');
  await expect(row).toContainText('203.0.113.0/24');
  await expect(row).toContainText('bot farm');
  await shot(page, 'blocklist-1280');
  await page.setViewportSize({ width: 820, height: 1180 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
  await shot(page, 'blocklist-820');

  const zh = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    storageState: await page.context().storageState(),
  });
  const zhPage = await zh.newPage();
  await zhPage.goto(`${OPS}/channels/AURORA/buyers`);
  await expect(zhPage.getByRole('heading', { name: '封禁名单' })).toBeVisible();
  await expect(zhPage.getByTestId('blocklist-row')).toContainText('地址段');
  await shot(zhPage, 'blocklist-zh-1280');
  await zhPage.setViewportSize({ width: 820, height: 1180 });
  await shot(zhPage, 'blocklist-zh-820');
  await zh.close();

  await row.getByRole('button', { name: 'Lift', exact: true }).click();
  await row.getByLabel('Why lift it').fill('carrier NAT, not bots');
  await row.getByRole('button', { name: 'Lift this block' }).click();
  await expect(page.getByTestId('blocklist-empty')).toBeVisible();
});
