import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { OPS, readOwner, signInOwner } from './console-owner';
import { channelUrl } from './support';

// issue 31, "An audit trail": the owner makes a write (an invitation), finds it on the audit page by its filters, opens
// its before and after, and downloads the CSV, which has the row. And "Channels": a phone's page views of a store show
// on the channel list the same day. Runs after e2e/console.spec.ts (project console-areas), as the owner it enrolled.

const SHOTS = process.env.CONSOLE_SHOTS;
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Today in the console's time zone (CONSOLE_TIME_ZONE, Asia/Shanghai in the demo), as a date input takes it. */
const todayInShanghai = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());

// One sign-in for the file: each TOTP step signs in once, and failed tries count against the account's limit.
let signedIn: BrowserContext;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ browser }) => {
  signedIn = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  await signInOwner(await signedIn.newPage());
});
test.afterAll(() => signedIn.close());

test('the owner finds an invitation in the audit trail by its filters, opens before and after, and downloads it as CSV', async () => {
  const page = await signedIn.newPage();
  await page.goto(`${OPS}/channels`);

  // The write: an invitation, through the console's own call.
  const invited = await page.evaluate(async () => {
    const res = await fetch('/api/ops/api/operator/invite', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'audit.invitee', role: 'support', channels: ['AURORA'] }),
    });
    return (await res.json()) as { code: number };
  });
  expect(invited.code).toBe(200);

  await page.getByRole('link', { name: 'Audit trail' }).click();
  await expect(page).toHaveURL(`${OPS}/audit`);
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  await expect(page.getByTestId('audit-zone')).toHaveText('Times in Asia/Shanghai');
  await shot(page, 'audit-1280');

  await page.getByLabel('Operator', { exact: true }).selectOption(readOwner().name);
  await page.getByLabel('Kind', { exact: true }).selectOption('operator/invite');
  await page.getByLabel('From', { exact: true }).fill(todayInShanghai());
  await page.getByLabel('To', { exact: true }).fill(todayInShanghai());
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/kind=operator%2Finvite/);
  const rows = page.locator('tr[data-audit-entry]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('operator/invite');
  await expect(rows.first()).toContainText(readOwner().name);

  await rows.first().getByRole('link', { name: 'Open' }).click();
  const detail = page.getByTestId('audit-detail');
  await expect(detail.getByTestId('audit-input')).toContainText('audit.invitee');
  await expect(detail.getByTestId('audit-before')).toContainText('Nothing');
  await expect(detail.getByTestId('audit-after')).toContainText('"invited"');
  await expect(detail.getByTestId('audit-after').locator('[data-changed="true"]').first()).toBeVisible();
  await shot(page, 'audit-open-1280');
  await page.setViewportSize({ width: 820, height: 1180 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
  await shot(page, 'audit-open-820');
  await page.setViewportSize({ width: 1280, height: 800 });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const lines = csv.trim().split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('"operator/invite"');
  expect(lines[1]).toContain('audit.invitee');
  expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
});

test("a phone's views of a store show on the channel list as today's views", async ({ browser }) => {
  const page = await signedIn.newPage();
  await page.goto(`${OPS}/channels`);
  const views = async () =>
    Number((await page.locator('tr[data-channel="LUMEN"] [data-testid="views-today"]').textContent())!.replace(/\D/g, ''));
  const before = await views();
  // The figure stands under its own heading.
  const column = (await page.locator('thead th').allTextContents()).findIndex((h) => /views today/i.test(h));
  await expect(page.locator('tr[data-channel="LUMEN"] td').nth(column)).toHaveAttribute('data-testid', 'views-today');

  const phone = await browser.newContext({ userAgent: PHONE, viewport: { width: 390, height: 844 }, isMobile: true });
  const visitor = await phone.newPage();
  for (const path of ['/', '/goods/detail/1', '/']) await visitor.goto(channelUrl('lumen', path));
  await phone.close();

  // Counted in memory where the requests entered and written every 5 s (lib/channel/page-views.ts).
  await expect
    .poll(
      async () => {
        await page.reload();
        return views();
      },
      { timeout: 20_000, intervals: [1_000] },
    )
    .toBeGreaterThanOrEqual(before + 3);
  await shot(page, 'channels-views-1280');
});

test('speaks Chinese on the audit page', async ({ browser }) => {
  const context = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    storageState: await signedIn.storageState(),
  });
  const page = await context.newPage();
  await page.goto(`${OPS}/audit`);
  await expect(page.getByRole('heading', { name: '操作日志' })).toBeVisible();
  await expect(page.getByRole('link', { name: '下载 CSV' })).toBeVisible();
  await shot(page, 'audit-zh-1280');
  await page.setViewportSize({ width: 820, height: 1180 });
  await shot(page, 'audit-zh-820');
  await context.close();
});
