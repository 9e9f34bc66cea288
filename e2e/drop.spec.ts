import { expect, test, type Page } from '@playwright/test';
import { channelUrl } from './support';

// A coming-soon drop (issue 17, item 7): a countdown on its card and its goods page, counted by the server's clock
// from the sale's start, that turns into the buy button at the opening second without a reload. Lantern Festival
// (AURORA) opens two hours after the demo's seed, so it is less than two hours away whenever this runs.

const DROP = 'Lantern Festival';
const TWO_HOURS_AND_A_BIT = '02:00:05';

async function saleHref(page: Page, name: string): Promise<string> {
  const href = await page.getByTestId('sale-card').filter({ hasText: name }).getAttribute('href');
  expect(href).toMatch(/^\/goods\/detail\/\d+$/);
  return href!;
}

/** Marks the document, so a reload (which would drop the mark) cannot pass for an update in place. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { dropMark: number }).dropMark = 17));
}
async function sameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { dropMark?: number }).dropMark)).toBe(17);
}

test('the goods page of a coming-soon sale counts down and offers the buy at the opening, without a reload', async ({ page }) => {
  await page.clock.install();
  await page.goto(channelUrl('aurora'));
  const href = await saleHref(page, DROP);
  // The shared link, as a buyer waiting for the drop opens it (served from the rendered-page cache).
  await page.goto(channelUrl('aurora', href));
  const bar = page.getByTestId('buy-button');
  await expect(bar).toHaveText(/^Opens in 0[0-2]:\d{2}:\d{2}$/);
  // The countdown ticks in the page, and reads to screen readers as when the sale opens, not a number a second.
  const before = await bar.textContent();
  await page.clock.fastForward(3000);
  await expect(bar).not.toHaveText(before!);
  await expect(page.getByRole('timer', { name: /^Opens \d{2}-\d{2} \d{2}:\d{2}$/ })).toHaveCount(2);
  await expect(bar).toHaveAttribute('aria-live', 'off');
  await expect(page.getByRole('link', { name: 'Buy now' })).toHaveCount(0);
  await markDocument(page);

  await page.clock.fastForward(TWO_HOURS_AND_A_BIT);
  await expect(page.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', href.replace('/goods/detail/', '/pay/'));
  await expect(page.getByTestId('sale-status')).toHaveText('On sale');
  await expect(page.getByRole('timer')).toHaveCount(0);
  await sameDocument(page);
});

test('the home card of a coming-soon sale changes state at the opening, without a reload', async ({ page }) => {
  await page.clock.install();
  // The card's clock loads with the first countdown on the page and asks the server its time once (issue 34: only a
  // sale not yet open loads it). The jump below must come after that, as the opening comes to a page long open: a jump
  // while the clock was still loading read as a two-hour difference between the phone and the server.
  const serverTime = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/time');
  await page.goto(channelUrl('aurora'));
  const status = page.getByTestId('sale-card').filter({ hasText: DROP }).getByTestId('sale-status');
  await expect(status).toHaveText(/^0[0-2]:\d{2}:\d{2}$/);
  await expect(status).toHaveAttribute('data-status', '0');
  await serverTime;
  // It counts down in the page.
  const before = await status.textContent();
  await expect(status).not.toHaveText(before!);
  await markDocument(page);
  await page.clock.fastForward(TWO_HOURS_AND_A_BIT);
  await expect(status).toHaveText('On sale');
  await expect(status).toHaveAttribute('data-status', '1');
  await sameDocument(page);
});

for (const locale of ['en', 'zh-CN'] as const) {
  test.describe(`on a 390 px phone (${locale})`, () => {
    test.use({ locale, extraHTTPHeaders: { 'Accept-Language': locale === 'en' ? 'en' : 'zh-CN,zh;q=0.9' } });

    test('a countdown badge stays on one line and leaves the price where the other cards have it', async ({ page }) => {
      await page.goto(channelUrl('aurora'));
      expect(page.viewportSize()?.width).toBe(390);
      await expect(page.locator('[data-testid="sale-card"] [data-status="0"] [data-testid="sale-countdown"]')).toHaveCount(2);
      const cards = await page.getByTestId('sale-card').evaluateAll((elements) =>
        elements.map((card) => {
          const badge = card.querySelector('[data-testid="sale-status"]')!;
          const price = card.querySelector('[data-testid="sale-price"]')!;
          const b = badge.getBoundingClientRect();
          const p = price.getBoundingClientRect();
          const c = card.getBoundingClientRect();
          return {
            name: card.querySelector('h3')?.textContent,
            soon: badge.getAttribute('data-status') === '0',
            row: Math.round(c.top),
            oneLine: b.height < 1.5 * parseFloat(getComputedStyle(badge).lineHeight) + 8,
            inside: b.right <= c.right && p.left >= c.left && p.right < b.left,
            priceTop: Math.round(p.top - c.top),
            priceLines: price.getClientRects().length,
          };
        }),
      );
      for (const card of cards) {
        expect(card, `${card.name}`).toMatchObject({ oneLine: true, inside: true, priceLines: 1 });
      }
      // Every card's price sits at the same height within its card, countdown or not.
      const soon = cards.filter((c) => c.soon);
      expect(soon.length).toBe(2);
      expect(new Set(cards.map((c) => c.priceTop)).size).toBe(1);
    });
  });
}

test('goods detail offers "open in app" where the channel has an app; with no app to download, the buyer stays on the goods page with a note', async ({
  page,
}) => {
  await page.goto(channelUrl('lumen'));
  await page.goto(channelUrl('lumen', await saleHref(page, 'Sunrise')));
  await expect(page.getByTestId('goods-author')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open in app' })).toHaveCount(0);

  // No app is installed here: the scheme opens nothing and the page stays visible. The demo has no download page
  // (docs/decisions.md, "Open in app"; issue 30: its made-up address left the buyer on the browser's error page), so
  // after 2000 ms the buyer is still on the goods page, told the app did not open, and nothing left for another host.
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && !new URL(request.url()).hostname.endsWith('.localhost')) elsewhere.push(request.url());
  });
  await page.clock.install();
  await page.goto(channelUrl('aurora'));
  await page.goto(channelUrl('aurora', await saleHref(page, 'Aurora Dawn')));
  // The link opens the app even before the page's scripts have come (issue 34); the fall-back and the note come with them.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '1');
  await page.getByRole('link', { name: 'Open in app' }).click();
  // The tap's helper is fetched when the finger comes down (issue 34): the 2000 ms count from when it asks for the app.
  await expect.poll(() => elsewhere.some((url) => url.startsWith('aurora:'))).toBe(true);
  await page.clock.fastForward(1000);
  await expect(page.getByRole('status').filter({ hasText: 'did not open' })).toHaveCount(0);
  await page.clock.fastForward(1000);
  await expect(page.getByRole('status').filter({ hasText: 'did not open' })).toHaveText(
    'The Aurora Collectibles app did not open. Is it installed on this phone?',
  );
  await expect(page).toHaveURL(/aurora\.localhost:\d+\/goods\/detail\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Aurora Dawn', level: 1 })).toBeVisible();
  expect(elsewhere.filter((url) => !url.startsWith('aurora:'))).toEqual([]);
  await page.screenshot({ path: 'e2e/.artifacts/open-in-app-note.png' });
});
