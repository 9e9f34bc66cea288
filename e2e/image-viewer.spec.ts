import { expect, test, type Page } from '@playwright/test';
import { channelUrl } from './support';

// Image viewer (spec §2) on the goods page, driven by real touch events and by a mouse.

async function openViewer(page: Page) {
  await page.goto(channelUrl('aurora'));
  await page.getByTestId('sale-card').filter({ hasText: 'Aurora Dawn' }).click();
  // Before the page's scripts have come, the cover is a plain link to the picture (issue 34); the viewer comes with them.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '1');
  await page.getByRole('link', { name: 'View Aurora Dawn full screen', exact: true }).click();
  const viewer = page.getByRole('dialog', { name: 'Image viewer' });
  await expect(viewer).toBeVisible();
  return viewer;
}

/** A one-finger touch drag through Chromium's input pipeline (pointer events and all). */
async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, steps = 8) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let i = 1; i <= steps; i++) {
    const x = from.x + ((to.x - from.x) * i) / steps;
    const y = from.y + ((to.y - from.y) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test('swipe changes photo, double tap toggles zoom, a long vertical drag closes', async ({ page }) => {
  const viewer = await openViewer(page);
  const counter = viewer.getByTestId('viewer-counter');
  await expect(counter).toHaveText('1 / 2');
  const box = (await viewer.getByTestId('viewer-stage').boundingBox())!;
  const center = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

  // A short swipe (under 40 px) does nothing; a longer one goes to the next photo.
  await touchDrag(page, center, { x: center.x - 30, y: center.y });
  await expect(counter).toHaveText('1 / 2');
  await touchDrag(page, center, { x: center.x - 120, y: center.y });
  await expect(counter).toHaveText('2 / 2');

  const img = viewer.getByRole('img');
  await page.touchscreen.tap(center.x, center.y);
  await page.touchscreen.tap(center.x, center.y);
  await expect(img).toHaveAttribute('data-zoom', '2.5');
  await page.touchscreen.tap(center.x, center.y);
  await page.touchscreen.tap(center.x, center.y);
  await expect(img).toHaveAttribute('data-zoom', '1');

  // Dragging down under 14% of the screen height keeps it open; over 14% closes it.
  const viewport = page.viewportSize()!;
  await touchDrag(page, center, { x: center.x, y: center.y + viewport.height * 0.1 });
  await expect(viewer).toBeVisible();
  await touchDrag(page, center, { x: center.x, y: center.y + viewport.height * 0.2 });
  await expect(viewer).toBeHidden();
});

test.describe('with a mouse', () => {
  test.use({ hasTouch: false, isMobile: false });

  test('dragging left shows the next photo', async ({ page }) => {
    const viewer = await openViewer(page);
    const box = (await viewer.getByTestId('viewer-stage').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 100, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect(viewer.getByTestId('viewer-counter')).toHaveText('2 / 2');
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
  });
});
