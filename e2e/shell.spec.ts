import { expect, test, type Page, type Request } from '@playwright/test';
import { channelUrl } from './support';

// The client shell (spec §1, §3, §4): environment tip, tracking, route transitions.

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';

test.describe('open-in-browser tip in the messaging-app browser', () => {
  test.use({ userAgent: WECHAT_UA });

  test('home and the goods page work in WeChat: no tip covers them (issue 36)', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '1');
    await expect(page.getByTestId('sale-list')).toBeVisible();
    await expect(page.getByTestId('wx-tip')).toHaveCount(0);
    await page.goto(channelUrl('aurora', '/goods/detail/1'));
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '1');
    await expect(page.getByTestId('buy-button')).toBeVisible();
    // Given the time the tip's code takes to load inside WeChat, it still does not show.
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('wx-tip')).toHaveCount(0);
    await page.screenshot({ path: 'e2e/.artifacts/wx-goods-no-tip.png' });
  });

  test('"open in app", which WeChat blocks, shows the tip, on a solid backing of its own (issue 30), and it can be dismissed', async ({
    page,
  }) => {
    await page.goto(channelUrl('aurora', '/goods/detail/1'));
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '1');
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: 'Open in app' }).click();
    const tip = page.getByRole('dialog', { name: 'Open in your browser' });
    await expect(tip).toBeVisible();
    await expect(tip.getByText('WeChat does not open other apps.', { exact: false })).toBeVisible();
    for (const words of [
      tip.getByRole('heading', { name: 'Open in your browser' }),
      tip.getByText(/top-right corner/),
      tip.getByRole('button', { name: 'Got it' }),
    ]) {
      const seen = await words.evaluate(backingOf);
      // What is drawn right behind the words is opaque and part of the tip, so nothing of the page shows through.
      expect(seen.backingAlpha, seen.text).toBe(1);
      expect(seen.backingInTip, seen.text).toBe(true);
      // And the element a finger or an eye meets at the words' centre is the tip, not the page under it.
      expect(seen.topmostInTip, seen.text).toBe(true);
      expect(seen.contrast, seen.text).toBeGreaterThanOrEqual(4.5);
    }
    await page.screenshot({ path: 'e2e/.artifacts/wx-tip.png' });
    await tip.getByRole('button', { name: 'Got it' }).click();
    await expect(tip).toBeHidden();
    // Still on the goods page: nothing was opened.
    await expect(page).toHaveURL(/\/goods\/detail\/1$/);
  });

  test('in Chinese too (BAZAAR)', async ({ page }) => {
    await page.goto(channelUrl('bazaar'));
    const href = await page.getByTestId('sale-card').first().getAttribute('href');
    await page.goto(channelUrl('bazaar', href!));
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', '1');
    await expect(page.getByTestId('wx-tip')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('open-in-app').click();
    const tip = page.getByRole('dialog', { name: '请在浏览器中打开' });
    await expect(tip).toContainText('微信内无法打开其他 App');
    await page.screenshot({ path: 'e2e/.artifacts/wx-tip-zh.png' });
  });

  test('a page not flagged for it shows no tip', async ({ page }) => {
    await page.goto(channelUrl('aurora', '/sellout'));
    await expect(page.getByRole('heading', { name: 'Sold out' })).toBeVisible();
    await expect(page.getByTestId('wx-tip')).toHaveCount(0);
  });
});

test('a plain mobile browser gets no tip', async ({ page }) => {
  await page.goto(channelUrl('aurora'));
  await expect(page.getByTestId('sale-list')).toBeVisible();
  await expect(page.getByTestId('wx-tip')).toHaveCount(0);
});

type SentRecord = {
  event_type: string;
  page_id: string;
  page_url: string;
  refer_id: string;
  refer_url: string;
  duration: number | null;
  commodity_id: string;
  proj_id: number;
  scene_id: string;
  os: string;
};

function recordsOf(request: Request): SentRecord[] {
  return (JSON.parse(request.postData() ?? '{}') as { records: SentRecord[] }).records;
}

async function waitForTracking(page: Page, trigger: () => Promise<unknown>): Promise<SentRecord[]> {
  const [request] = await Promise.all([page.context().waitForEvent('request', (r) => r.url().endsWith('/api/log/track')), trigger()]);
  return recordsOf(request);
}

test('page views arrive at the log service in a batch, with dwell times and previous pages', async ({ page }) => {
  await page.clock.install();
  await page.goto(channelUrl('aurora'));
  // The tracker comes once the page has loaded and been quiet for a second (components/shell/tracker-wake.ts), and
  // is running once it has its device id.
  await waitUntilLoaded(page);
  await page.clock.runFor(1_000);
  await page.waitForFunction(() => localStorage.getItem('art-device-id') !== null);
  // Dwell 3 s on home (that second included) and 4 s on the goods page: both before the first 10-second tick.
  await page.clock.runFor(2_000);
  await page.getByTestId('sale-card').filter({ hasText: 'Tide Whale' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tide Whale' })).toBeVisible();
  const saleId = page.url().split('/').pop();
  await page.clock.runFor(4_000);
  await page.goBack();
  await expect(page.getByTestId('sale-list')).toBeVisible();

  // Fewer than 10 records: they go out together on the 10-second tick.
  const batch = await waitForTracking(page, () => page.clock.runFor(10_000));
  expect(batch.map((r) => [r.event_type, r.page_id, r.refer_id])).toEqual([
    ['page_view', 'home', ''],
    ['page_view', 'goodsDetail', 'home'],
    ['page_view', 'home', 'goodsDetail'],
  ]);
  // Seconds, rounded; the installed clock also lets real time flow (a tap and a page change take a few seconds on a loaded
  // two-core CI machine), so allow up to two extra seconds.
  const [first, homeDwell, goodsDwell] = batch.map((r) => r.duration);
  expect(first).toBeNull();
  expect(homeDwell).toBeGreaterThanOrEqual(3);
  expect(homeDwell).toBeLessThanOrEqual(5);
  expect(goodsDwell).toBeGreaterThanOrEqual(4);
  expect(goodsDwell).toBeLessThanOrEqual(6);
  expect(batch[1]).toMatchObject({
    page_url: `/goods/detail/${saleId}`,
    commodity_id: saleId,
    refer_url: '/',
    proj_id: 5,
    scene_id: 'AURORA',
    os: 'iOS',
  });
  expect(JSON.stringify(batch)).not.toMatch(/token|(?<!\d)1[3-9]\d{9}(?!\d)/);

  // Hiding the page (switching apps on a phone) hands the last page's dwell time to sendBeacon.
  await page.clock.runFor(3_000);
  const leave = await waitForTracking(page, () =>
    page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }),
  );
  expect(leave).toEqual([expect.objectContaining({ event_type: 'page_leave', page_id: 'home' })]);
  // Home has been in view for the 10 s until the tick plus these 3 s.
  expect(leave[0]!.duration).toBeGreaterThanOrEqual(13);
  expect(leave[0]!.duration).toBeLessThanOrEqual(15);
});

/** The page has hydrated and its load event has fired (from then on the tracker's quiet second runs). */
async function waitUntilLoaded(page: Page) {
  // Polled from here, not in the page: a page whose clock stands still runs no polling of its own.
  await expect
    .poll(() => page.evaluate(() => document.readyState === 'complete' && document.documentElement.dataset.hydrated === '1'))
    .toBe(true);
}

test('a buyer who moves on before the tracker came still counts: the pages seen are recorded when it comes, on the next document', async ({
  page,
}) => {
  const sent: SentRecord[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/log/track')) sent.push(...recordsOf(request));
  });
  // The page's clock stands still: the tracker's quiet second does not pass until the test lets it.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.goto(channelUrl('aurora'));
  await waitUntilLoaded(page);
  // Before the quiet second: into a sale, then away by a document load (a plain link, a reload).
  await page.getByTestId('sale-card').filter({ hasText: 'Tide Whale' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tide Whale' })).toBeVisible();
  await page.clock.runFor(500);
  await page.goto(channelUrl('aurora', '/notices'));
  await waitUntilLoaded(page);
  expect(sent).toEqual([]); // no tracker came on the first document
  expect(await page.evaluate(() => localStorage.getItem('art-device-id'))).toBeNull();
  await page.clock.runFor(1_000);
  // It comes (React shows a loaded part after a short timer of its own, which this clock runs too).
  await expect
    .poll(async () => {
      await page.clock.runFor(100);
      return page.evaluate(() => localStorage.getItem('art-device-id'));
    })
    .not.toBeNull();
  await waitForTracking(page, () => page.clock.runFor(10_000));
  expect(sent.map((r) => [r.event_type, r.page_id, r.refer_id])).toEqual([
    ['page_view', 'home', ''],
    ['page_view', 'goodsDetail', 'home'],
    ['page_leave', 'goodsDetail', ''],
    ['page_view', 'notices', ''],
  ]);
  expect(sent[2]!.duration).toBeLessThanOrEqual(2);
});

test.describe('route transitions', () => {
  test('follow the router type: forward into a page, back out of it', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    await expect(page.getByTestId('route-view')).toHaveAttribute('data-router-type', 'none');
    await page.getByTestId('sale-card').filter({ hasText: 'Star Fox' }).click();
    await expect(page.getByTestId('route-view')).toHaveAttribute('data-router-type', 'forward');
    await page.goBack();
    await expect(page.getByTestId('route-view')).toHaveAttribute('data-router-type', 'back');
    // The animation class follows the attribute in the same render, but a busy machine may paint it a frame later.
    await expect.poll(() => page.getByTestId('route-view').evaluate((el) => getComputedStyle(el).animationName)).toBe('route-in-back');
  });

  test.describe('with reduced motion', () => {
    test.use({ reducedMotion: 'reduce' });
    test('pages change without animation', async ({ page }) => {
      await page.goto(channelUrl('aurora'));
      await page.getByTestId('sale-card').filter({ hasText: 'Star Fox' }).click();
      await expect(page.getByTestId('route-view')).toHaveAttribute('data-router-type', 'forward');
      expect(await page.getByTestId('route-view').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    });
  });
});

test.describe('between pages', () => {
  test('a tap on a slow connection shows progress at once and keeps the page tapped on until the next is there', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    await expect(page.getByTestId('sale-list')).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    // The next page takes 2 s to arrive.
    await page.route(
      (url) => url.pathname.startsWith('/goods/detail/'),
      async (route) => {
        const headers = route.request().headers();
        if (headers.rsc && !headers['next-router-prefetch']) await new Promise((r) => setTimeout(r, 2000));
        await route.continue();
      },
    );
    await page.getByTestId('sale-card').filter({ hasText: 'Star Fox' }).click();
    await expect(page.getByRole('progressbar', { name: 'Loading…' })).toBeVisible({ timeout: 1000 });
    await expect(page.getByTestId('sale-list')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Star Fox' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
  });

  test('a tap on a link to the page already shown starts nothing', async ({ page }) => {
    await page.goto(channelUrl('aurora'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForTimeout(300);
    await expect(page.getByRole('progressbar')).toHaveCount(0);
  });
});

/**
 * What a reader meets behind some words (run in the page): the nearest element, from the words up, that paints a
 * background, whether it is opaque and part of the open-in-browser tip, whether the tip is what lies on top at the
 * words' centre, and the words' contrast against that background (WCAG, the colours read through a canvas so any CSS
 * colour syntax works; a translucent text colour is blended over the background first).
 */
function backingOf(words: Element) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  const rgba = (color: string): [number, number, number, number] => {
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255];
  };
  const tip = document.querySelector('[data-testid="wx-tip"]')!;
  let backing: Element | null = words;
  while (backing && rgba(getComputedStyle(backing).backgroundColor)[3] === 0) backing = backing.parentElement;
  const background = rgba(backing ? getComputedStyle(backing).backgroundColor : 'white');
  const [tr, tg, tb, ta] = rgba(getComputedStyle(words).color);
  const text = [tr, tg, tb].map((c, i) => c * ta + background[i]! * (1 - ta));
  const luminance = (rgb: number[]) =>
    rgb
      .map((c) => c / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
      .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
  const [light, dark] = [luminance(text), luminance(background.slice(0, 3))].sort((a, b) => b - a);
  const box = words.getBoundingClientRect();
  const topmost = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {
    text: words.textContent ?? '',
    backingAlpha: background[3],
    backingInTip: backing !== null && tip.contains(backing),
    topmostInTip: topmost !== null && tip.contains(topmost),
    contrast: (light! + 0.05) / (dark! + 0.05),
  };
}
