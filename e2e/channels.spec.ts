import { expect, test } from '@playwright/test';
import { channelUrl, hexToRgb, seedChannel } from './support';

// Foundation: one deployment, many channels, each on its own host (spec §1, §2; issue "Foundation").

test.describe('each demo channel on its own host', () => {
  for (const [host, key, title] of [
    ['aurora', 'AURORA', 'digital collectible activity'],
    ['lumen', 'LUMEN', 'digital collectible sale'],
    ['bazaar', 'BAZAAR', '购买商品'],
  ] as const) {
    test(`${host}.localhost shows ${key}'s title and colours from the first paint`, async ({ page }) => {
      // No JavaScript: the colours must come with the server-rendered HTML.
      await page.context().route('**/*.js', (route) => route.abort());
      await page.goto(channelUrl(host));
      await expect(page).toHaveTitle(title);
      const palette = seedChannel(key).palette;
      const app = page.locator('#app');
      await expect(app).toHaveCSS('background-color', hexToRgb(palette.pageBgColor));
      await expect(page.locator('html')).toHaveAttribute('data-channel', key);
      const buttonVar = await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--skin-button-bg-color').trim(),
      );
      expect(buttonVar).toBe(palette.buttonBgColor);
    });
  }

  test('channels do not share colours', async () => {
    const backgrounds = ['AURORA', 'LUMEN', 'GIFT', 'CHAIN', 'SWAP', 'DARK', 'BAZAAR', 'PERKS'].map(
      (k) => seedChannel(k).palette.pageBgColor,
    );
    expect(new Set(backgrounds).size).toBe(backgrounds.length);
  });

  test('bare localhost takes a visitor to the default channel on its own host (AURORA in the demo)', async ({ page }) => {
    await page.goto(`http://localhost:${process.env.E2E_PORT ?? 3100}/`);
    await expect(page).toHaveURL(channelUrl('aurora'));
    await expect(page).toHaveTitle('digital collectible activity');
    await expect(page.locator('html')).toHaveAttribute('data-channel', 'AURORA');
  });

  test('AURORA home lists its sales with cover, name, price and state', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    const cards = page.getByTestId('sale-card');
    expect(await cards.count()).toBeGreaterThanOrEqual(8);
    const first = cards.filter({ hasText: 'Aurora Dawn' });
    await expect(first.getByRole('img', { name: 'Aurora Dawn' })).toBeVisible();
    await expect(first.getByTestId('sale-price')).toHaveText('¥199.00');
    await expect(first.getByTestId('sale-status')).toHaveText('On sale');
    await expect(cards.filter({ hasText: 'Neon Koi' }).getByTestId('sale-status')).toHaveText('Sold out');
    await expect(cards.filter({ hasText: 'Jade Dragon' }).getByTestId('sale-status')).toHaveText('Ended');
    // Coming soon counts down (days and hours from a day up), named by when it opens in the channel's time zone.
    const soon = cards.filter({ hasText: 'Moon Rabbit' }).getByTestId('sale-status');
    await expect(soon).toHaveText(/^\dd \d{1,2}h$/);
    await expect(soon).toHaveAttribute('role', 'timer');
    await expect(soon).toHaveAccessibleName(/^Opens \d{2}-\d{2} \d{2}:\d{2}$/);
    await expect(cards.filter({ hasText: 'Aurora Mystery Box' })).toContainText('Blind box');
    // Cover images really load (no broken images).
    const broken = await page.$$eval('img', (imgs) => imgs.filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.src));
    expect(broken).toEqual([]);
  });

  test('LUMEN hides every amount (showAmount false)', async ({ page }) => {
    await page.goto(channelUrl('lumen'));
    await expect(page.getByTestId('sale-card')).toHaveCount(3);
    await expect(page.getByTestId('sale-price')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('¥');
    await page.getByTestId('sale-card').filter({ hasText: 'Sunrise' }).click();
    await expect(page).toHaveURL(/\/goods\/detail\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Sunrise' })).toBeVisible();
    await expect(page.locator('body')).not.toContainText('¥');
    expect(await page.content()).not.toContain('"price"');
  });

  test('the footer shows the tabs of the channel labels', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Home', 'Activity', 'Receive', 'Chain-up', 'Mine']);
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await page.goto(channelUrl('lumen'));
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Home', 'Mine']);
  });

  test("each channel's head links its own favicon and touch icon, and /favicon.ico answers per host", async ({ page }) => {
    const favicons: string[] = [];
    for (const host of ['aurora', 'lumen']) {
      await page.goto(channelUrl(host));
      const href = (selector: string) => page.locator(`head ${selector}`).first().getAttribute('href');
      const links = {
        ico: await href('link[rel="icon"][href*="/favicon.ico"]'),
        png: await href('link[rel="icon"][type="image/png"]'),
        touch: await href('link[rel="apple-touch-icon"]'),
      };
      // Each link loads as an image in the page, from the channel's own host.
      for (const [name, link] of Object.entries(links)) {
        expect(link, name).toBeTruthy();
        const url = new URL(link!, page.url());
        expect(url.host, name).toBe(new URL(channelUrl(host)).host);
        const size = await page.evaluate(async (src) => {
          const image = new Image();
          image.src = src;
          await image.decode();
          return [image.naturalWidth, image.naturalHeight];
        }, url.toString());
        if (name === 'touch') expect(size, name).toEqual([180, 180]);
        else expect(size[0], name).toBeGreaterThan(0);
      }
      const favicon = await page.goto(channelUrl(host, '/favicon.ico'));
      expect(favicon?.status()).toBe(200);
      expect(favicon?.headers()['content-type']).toBe('image/x-icon');
      favicons.push((await favicon!.body()).toString('base64'));
    }
    expect(favicons[0]).not.toBe(favicons[1]);
    const unknown = await page.goto(channelUrl('nowhere', '/favicon.ico'));
    expect(unknown?.status()).toBe(404);
  });
});

test.describe('guards and redirects (spec §2)', () => {
  test('home of a channel without label 1 goes to its feature', async ({ page }) => {
    await page.goto(channelUrl('gift'));
    await expect(page).toHaveURL(channelUrl('gift', '/receive2'));
    await page.goto(channelUrl('swap'));
    await expect(page).toHaveURL(channelUrl('swap', '/active'));
    await page.goto(channelUrl('chain', '/?from=share&code=7'));
    await expect(page).toHaveURL(channelUrl('chain', '/chain?from=share&code=7'));
    // The gift-only class goes to the old receive list.
    await page.goto(channelUrl('perks'));
    await expect(page).toHaveURL(channelUrl('perks', '/receive'));
    await expect(page.getByTestId('gift-offer')).toContainText('Perks Pin');
  });

  test('/set_key/:key and unknown paths go to /404', async ({ page }) => {
    await page.goto(channelUrl('aurora', '/set_key/LUMEN'));
    await expect(page).toHaveURL(channelUrl('aurora', '/404'));
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.goto(channelUrl('aurora', '/no/such/page'));
    await expect(page).toHaveURL(channelUrl('aurora', '/404'));
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(channelUrl('aurora', '/'));
  });

  test('/detail/:id is the home page opened on one sale; an unknown or another channel’s sale goes to /404', async ({ page }) => {
    const response = await page.goto(channelUrl('aurora', '/detail/1'));
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Aurora Dawn | digital collectible activity');
    const featured = page.getByTestId('featured-sale');
    await expect(featured.getByRole('heading', { name: 'Shared with you' })).toBeVisible();
    await expect(featured.getByTestId('sale-card')).toHaveCount(1);
    await expect(featured.getByTestId('sale-card')).toContainText('Aurora Dawn');
    // The store's other drops follow, without the featured one twice.
    const list = page.getByTestId('sale-list').getByTestId('sale-card');
    await expect(list.first()).toBeVisible();
    await expect(list.filter({ hasText: 'Aurora Dawn' })).toHaveCount(0);
    await featured.getByTestId('sale-card').click();
    await expect(page).toHaveURL(channelUrl('aurora', '/goods/detail/1'));
    for (const id of ['999999', 'abc']) {
      await page.goto(channelUrl('aurora', `/detail/${id}`));
      await expect(page).toHaveURL(channelUrl('aurora', '/404'));
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    }
    // A sale of another channel is not this store's.
    await page.goto(channelUrl('lumen', '/detail/1'));
    await expect(page).toHaveURL(channelUrl('lumen', '/404'));
    // A store without sales sends it where its home goes.
    await page.goto(channelUrl('perks', '/detail/1'));
    await expect(page).toHaveURL(channelUrl('perks', '/receive'));
  });

  test('another channel’s internal path is refused', async ({ page }) => {
    await page.goto(channelUrl('lumen', '/AURORA/en'));
    await expect(page).toHaveURL(channelUrl('lumen', '/404'));
  });

  test('/active needs label 2, and is not for the gift-only class even with it', async ({ page }) => {
    await page.goto(channelUrl('lumen', '/active'));
    await expect(page).toHaveURL(channelUrl('lumen', '/404'));
    await page.goto(channelUrl('perks', '/active'));
    await expect(page).toHaveURL(channelUrl('perks', '/404'));
    // Nor does its footer offer the activity tab.
    await page.goto(channelUrl('perks', '/mine'));
    await expect(page.getByRole('navigation').getByRole('link')).toHaveText(['Receive', 'Mine']);
  });

  test('DARK (status 0) hides the root screen', async ({ page }) => {
    await page.goto(channelUrl('dark'));
    await expect(page).toHaveTitle('digital collectible sale');
    await expect(page.locator('#app')).toBeHidden();
    await expect(page.getByTestId('sale-card')).toBeHidden();
  });

  test('a host that matches no channel gets "store not found" with HTTP 404', async ({ page }) => {
    const response = await page.goto(channelUrl('nowhere'));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Store not found' })).toBeVisible();
  });

  for (const path of ['/mine/records', '/mine/collection', '/pay/1']) {
    test(`${path} without a session redirects to login`, async ({ page }) => {
      await page.goto(channelUrl('aurora', `${path}?from=e2e`));
      await expect(page).toHaveURL(channelUrl('aurora', `/login?redirect=${encodeURIComponent(`${path}?from=e2e`)}`));
    });
  }

  test('/mine is open without a session', async ({ page }) => {
    await page.goto(channelUrl('aurora', '/mine'));
    await expect(page).toHaveURL(channelUrl('aurora', '/mine'));
  });

  test('/sellout is a finished page', async ({ page }) => {
    await page.goto(channelUrl('aurora', '/sellout'));
    await expect(page.getByRole('heading', { name: 'Sold out' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'See other drops' })).toHaveAttribute('href', '/');
  });
});

test.describe('language', () => {
  test.use({ locale: 'zh-CN' });
  test('Accept-Language picks Simplified Chinese when the channel sets no locale', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    await expect(page).toHaveTitle('数字藏品活动');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByRole('heading', { name: '发售' })).toBeVisible();
  });
});
