import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { channelUrl } from './support';
import { logInThroughApi } from './api-login';
import { OPS, signInOwner } from './console-owner';

// issue 32, "Notices and a drop calendar": the owner publishes a notice on AURORA's Notices tab; a signed-in buyer on
// AURORA, on a phone, sees the dot on Mine, opens the list and the notice, and the dot is gone; the calendar shows an
// upcoming demo sale; the notice withdrawn leaves the store at once. The three store pages at 390×844 on two channels
// in both languages are saved to be looked at (CONSOLE_SHOTS, else e2e/.artifacts).

/** Where the phone screenshots go: CONSOLE_SHOTS, else the e2e artefacts folder. */
const SHOTS = process.env.CONSOLE_SHOTS ?? 'e2e/.artifacts';
const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  reducedMotion: 'reduce' as const,
};

async function phone(browser: Browser, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, locale });
  return { context, page: await context.newPage() };
}

async function publish(page: Page, channel: string, title: string, body: string): Promise<void> {
  await page.goto(`${OPS}/channels/${channel}/notices`);
  const form = page.getByTestId('notice-form');
  await form.getByLabel('Type', { exact: true }).selectOption('drop');
  await form.getByLabel('Title', { exact: true }).fill(title);
  await form.getByLabel('Text', { exact: true }).fill(body);
  await expect(form.getByTestId('notice-publish-now')).toBeChecked();
  await form.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.locator('tr[data-notice-id]', { hasText: title })).toContainText('Published');
}

const readCall = (page: Page) => page.waitForResponse((r) => r.url().includes('/market/api/notice/read') && r.status() === 200);

test('an operator publishes a notice; a buyer on a phone sees the dot, reads it, and the dot goes', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const title = `Star Fox II drops Friday ${Date.now().toString(36)}`;

  // The buyer signs in and has read what there is: no dot.
  const buyer = await phone(browser);
  await logInThroughApi(buyer.page, 'aurora');
  const read = readCall(buyer.page);
  await buyer.page.goto(channelUrl('aurora', '/notices'));
  await read;
  await buyer.page.goto(channelUrl('aurora', '/mine'));
  await expect(buyer.page.getByTestId('mine-notices')).toBeVisible();
  await expect(buyer.page.getByTestId('mine-notices-dot')).toHaveCount(0);
  await expect(buyer.page.getByTestId('footer-dot')).toHaveCount(0);

  // The owner publishes on AURORA's Notices tab, its time zone named.
  await signInOwner(page);
  await page.goto(`${OPS}/channels/AURORA/notices`);
  await expect(page.getByRole('link', { name: 'Notices', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('notice-form')).toContainText('Asia/Shanghai');
  await publish(page, 'AURORA', title, 'Ten copies at eight tonight.\n\nOne per buyer.');
  await expect(page.getByTestId('notices-store-link')).toHaveAttribute('href', /aurora\.localhost:\d+\/notices$/);

  // The buyer's Mine shows the dot, on the entry and on the footer's Mine tab.
  await buyer.page.reload();
  await expect(buyer.page.getByTestId('mine-notices-dot')).toBeVisible();
  await expect(buyer.page.getByTestId('footer-dot')).toBeVisible();

  // The list, newest first, then the notice itself, its paragraphs as text.
  const marked = readCall(buyer.page);
  await buyer.page.getByTestId('mine-notices').click();
  const first = buyer.page.getByTestId('notice').first();
  await expect(first).toContainText(title);
  await expect(first).toContainText('New drop');
  await marked;
  await first.click();
  await expect(buyer.page.getByTestId('notice-title')).toHaveText(title);
  await expect(buyer.page.getByTestId('notice-body').locator('p')).toHaveText(['Ten copies at eight tonight.', 'One per buyer.']);

  // Back on Mine: the dot is gone.
  await buyer.page.goto(channelUrl('aurora', '/mine'));
  await expect(buyer.page.getByTestId('mine-notices')).toBeVisible();
  await expect(buyer.page.getByTestId('mine-notices-dot')).toHaveCount(0);
  await expect(buyer.page.getByTestId('footer-dot')).toHaveCount(0);

  // The drop calendar lists AURORA's coming demo sales with their opening times, each a link to its goods page.
  await buyer.page.getByTestId('mine-calendar').click();
  const sale = buyer.page
    .getByTestId('calendar-sale')
    .filter({ hasText: /Lantern Festival|Moon Rabbit/ })
    .first();
  await expect(sale).toContainText(/Opens \d{2}:\d{2}/);
  await expect(sale).toHaveAttribute('href', /^\/goods\/detail\/\d+$/);
  await expect(buyer.page.getByText(/Times are in China Standard Time/)).toBeVisible();

  // Withdrawn in the console: gone from the store at once.
  const row = page.locator('tr[data-notice-id]', { hasText: title });
  await row.getByRole('button', { name: 'Withdraw' }).click();
  await row.getByRole('button', { name: 'Withdraw' }).click();
  await expect(row).toContainText('Withdrawn');
  await buyer.page.goto(channelUrl('aurora', '/notices'));
  // It was AURORA's only notice: the list says there are none (or, beside other notices, does not show it).
  await expect(buyer.page.getByTestId('notices').or(buyer.page.getByTestId('notices-empty'))).toBeVisible();
  await expect(buyer.page.getByRole('main')).not.toContainText(title);
  await buyer.context.close();
});

test('the three store pages on a phone, on two channels in both languages', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signInOwner(page);
  await publish(page, 'AURORA', 'Moon Rabbit opens in three days', 'Eight hundred copies, three per buyer.\n\nSet a reminder.');
  await publish(page, 'LUMEN', 'Lumen maintenance tonight', 'The store pauses from 02:00 to 02:30.');
  for (const channel of ['aurora', 'lumen']) {
    for (const locale of ['en-US', 'zh-CN']) {
      const visitor = await phone(browser, locale);
      const name = `${channel}-${locale}`;
      await visitor.page.goto(channelUrl(channel, '/notices'));
      await expect(visitor.page.getByTestId('notice').first()).toBeVisible();
      await visitor.page.screenshot({ path: `${SHOTS}/notices-${name}.png`, fullPage: true });
      await visitor.page.getByTestId('notice').first().click();
      await expect(visitor.page.getByTestId('notice-detail')).toBeVisible();
      await visitor.page.screenshot({ path: `${SHOTS}/notice-${name}.png`, fullPage: true });
      await visitor.page.goto(channelUrl(channel, '/calendar'));
      await expect(visitor.page.getByTestId('calendar').or(visitor.page.getByTestId('calendar-empty'))).toBeVisible();
      await visitor.page.screenshot({ path: `${SHOTS}/calendar-${name}.png`, fullPage: true });
      await visitor.context.close();
    }
  }
});
