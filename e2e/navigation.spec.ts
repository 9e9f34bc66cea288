import { expect, test, type Page, type Route } from '@playwright/test';
import { TITLE_KEEPER_OFF } from '../components/shell/title-keeper';
import { logInThroughApi } from './api-login';
import { channelUrl } from './support';

// Between pages (issue 30): the progress bar covers every navigation the router makes, not only a tapped link; and the
// tab's title keeper (components/shell/title-keeper.tsx), a workaround for Next.js, is checked against Next itself.

/** Holds the router's request for the next page (not its prefetches) until released, so the wait is the test's. */
async function holdNextPage(page: Page, isNextPage: (url: URL) => boolean): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => isNextPage(url),
    async (route: Route) => {
      const headers = route.request().headers();
      if (headers.rsc && !headers['next-router-prefetch']) await released;
      await route.continue();
    },
  );
  return release;
}

/**
 * Navigates in code, as the storefront's own router.push does: through the App Router instance Next exposes (for
 * debugging, so for tests). Until the page has hydrated the router takes no navigation and throws: tried again.
 */
async function routerPush(page: Page, href: string): Promise<void> {
  await expect(() =>
    page.evaluate((to) => (window as unknown as { next: { router: { push(href: string): void } } }).next.router.push(to), href),
  ).toPass();
}

test.describe('the bar between pages', () => {
  const bar = (page: Page) => page.getByRole('progressbar', { name: 'Loading…' });

  test('shows for a navigation made in code: Pay now takes the buyer to the cashier by router.push', async ({ page }) => {
    await toPayPage(page);
    const release = await holdNextPage(page, (url) => url.pathname.startsWith('/sandbox/cashier/'));

    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(bar(page)).toBeVisible();
    await expect(page.getByTestId('pay-item')).toBeVisible();

    release();
    await expect(page).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
    await expect(page.getByTestId('cashier-amount')).toBeVisible();
    await expect(bar(page)).toHaveCount(0);
  });

  test('shows for a navigation that changes only the query: the next page of a list', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    await expect(page.getByTestId('sale-list')).toBeVisible();
    const release = await holdNextPage(page, (url) => url.pathname === '/' && url.searchParams.get('page') === '2');

    // The bar listens from when its part of the page has hydrated (it may come after the router): pushed again until then.
    await expect(async () => {
      await routerPush(page, '/?page=2');
      await expect(bar(page)).toBeVisible({ timeout: 1000 });
    }).toPass();

    release();
    await expect(page).toHaveURL(channelUrl('aurora', '/?page=2'));
    await expect(bar(page)).toHaveCount(0);
  });
});

/** Logs a new buyer in and opens the pay page of Star Fox. */
async function toPayPage(page: Page): Promise<void> {
  await page.goto(channelUrl('aurora'));
  const href = await page.getByTestId('sale-card').filter({ hasText: 'Star Fox' }).first().getAttribute('href');
  const saleId = /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
  await logInThroughApi(page, 'aurora');
  await page.goto(channelUrl('aurora', `/pay/${saleId}`));
  await expect(page.getByTestId('pay-item')).toBeVisible();
}

/**
 * The tab's title at every change of the head through client navigations to pages the router has not loaded yet (a
 * query of their own each time; a page it has loaded comes back with its title at once): from the home page to Star
 * Fox's and back, eight times. Issue 17 (item 11) found the title empty for a moment after such a navigation.
 */
async function titlesThroughNavigations(page: Page): Promise<string[]> {
  await page.goto(channelUrl('aurora'));
  const sale = await page.getByTestId('sale-card').filter({ hasText: 'Star Fox' }).first().getAttribute('href');
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { titlesSeen: string[] }).titlesSeen = seen;
    new MutationObserver(() => seen.push(document.title)).observe(document.head, { childList: true, subtree: true, characterData: true });
  });
  for (let visit = 1; visit <= 8; visit++) {
    await routerPush(page, `${sale}?visit=${visit}`);
    await expect(page).toHaveTitle(/^Star Fox \| /);
    await routerPush(page, `/?visit=${visit}`);
    await expect(page).toHaveTitle('digital collectible activity');
  }
  const titles = await page.evaluate(() => (window as unknown as { titlesSeen: string[] }).titlesSeen);
  expect(titles.length).toBeGreaterThanOrEqual(16);
  return titles;
}

test.describe('the tab title through client navigations', () => {
  test('is never empty', async ({ page }) => {
    expect(await titlesThroughNavigations(page)).not.toContain('');
  });

  test.describe('without the title keeper', () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((off) => ((window as unknown as Record<string, boolean>)[off] = true), TITLE_KEEPER_OFF);
    });

    // Issue 30 wrote this watch. Issue 34's one-module shell made these navigations keep the title for a while; since
    // its seventh session (the stylesheet inline in the page, the tracker loaded once the page is quiet) Next empties
    // it for a moment again in every one of them. The keeper is what keeps it (the test above).
    test('is emptied by Next.js for a moment, which is why the store keeps it', async ({ page }) => {
      expect(
        await titlesThroughNavigations(page),
        'Next.js no longer empties the tab title during a client navigation: TitleKeeper (components/shell/title-keeper.tsx) ' +
          'is no longer needed. Remove it, its test switch and this test.',
      ).toContain('');
    });
  });
});
