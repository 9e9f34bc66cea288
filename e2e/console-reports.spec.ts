import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { OPS, signInOwner } from './console-owner';
import { logInAndBuyOne } from './buy-helpers';

// issue 32, "Reports": the owner opens AURORA's Reports tab (the last 14 days in Asia/Shanghai, a table and a chart per
// figure), downloads the CSV (the table's rows), and watches the live drop view while a buyer buys Star Fox in another
// browser: the copies sold go up without the page being reloaded. Desktop (1280 × 800), with a tablet and Chinese look.

const SHOTS = process.env.CONSOLE_SHOTS;
async function shot(p: Page, name: string) {
  if (SHOTS) await p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const soldOf = async (p: Page) =>
  Number(
    (await p.locator('tr[data-live-sale]').filter({ hasText: 'Star Fox' }).locator('[data-live="sold"]').textContent())!.replace(/\D/g, ''),
  );

test('the owner reads the reports, downloads the CSV, and sees a buy in the live drop view without reloading', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signInOwner(page);
  await page.goto(`${OPS}/channels/AURORA/reports`);
  await expect(page.getByRole('link', { name: 'Reports' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('report-zone')).toHaveText('Days in Asia/Shanghai');
  await expect(page.locator('tr[data-report-day]')).toHaveCount(14);
  // issue 36: with the share visits and share buys (docs/sharing.md).
  await expect(page.locator('figure[data-report-chart]')).toHaveCount(10);
  await expect(page.locator('figure[data-report-chart] svg').first()).toBeVisible();
  await shot(page, 'reports-1280');

  // The CSV is the table: a header and one line per day shown.
  const download = page.waitForEvent('download');
  await page.getByTestId('report-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^report-AURORA-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
  const lines = readFileSync((await file.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('day,page_views,visitors,buyers,orders,paid_yuan,refunds,refund_yuan,conversion_percent,share_visits,share_buys');
  const days = await page.locator('tr[data-report-day]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-report-day')));
  expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(days);

  // The live drop view, then a buy in another browser: the page redraws itself.
  await page.getByRole('link', { name: 'Live drop view' }).click();
  await expect(page).toHaveURL(`${OPS}/channels/AURORA/reports/live`);
  await expect(page.locator('tr[data-live-sale]').filter({ hasText: 'Star Fox' })).toBeVisible();
  const before = await soldOf(page);
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  const buyer = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await logInAndBuyOne(await buyer.newPage(), 'aurora', 'Star Fox');
  await buyer.close();
  await expect.poll(() => soldOf(page), { timeout: 15_000 }).toBe(before + 1);
  // The buy call reaches the view through the deployment's counts (the server adds its ended seconds to the database
  // once a second; the view shows 10 seconds ending 2 seconds ago): the row's per-second series is no longer all zeros.
  const calls = page.locator('tr[data-live-sale]').filter({ hasText: 'Star Fox' }).locator('[data-live="calls"]');
  await expect
    .poll(async () => ((await calls.getAttribute('title')) ?? '').split(' ').reduce((sum, n) => sum + Number(n), 0), { timeout: 15_000 })
    .toBeGreaterThan(0);
  expect(navigations).toBe(0);
  await shot(page, 'reports-live-1280');

  // The jobs count today every minute: the paid order reaches today's row of the table.
  await page.goto(`${OPS}/channels/AURORA/reports`);
  const today = page.locator('tr[data-report-day]').last();
  await expect
    .poll(
      async () => {
        await page.reload();
        return Number((await today.locator('[data-figure="orders"]').textContent())!.replace(/\D/g, ''));
      },
      { timeout: 100_000, intervals: [5_000] },
    )
    .toBeGreaterThan(0);

  await page.setViewportSize({ width: 820, height: 1180 });
  await shot(page, 'reports-820');

  // The page in Chinese.
  const zh = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    storageState: await page.context().storageState(),
  });
  const zhPage = await zh.newPage();
  await zhPage.goto(`${OPS}/channels/AURORA/reports`);
  await expect(zhPage.getByRole('heading', { name: '每日数据' })).toBeVisible();
  await expect(zhPage.getByTestId('report-zone')).toHaveText('日期按 Asia/Shanghai');
  await shot(zhPage, 'reports-zh-1280');
  await zh.close();
});
