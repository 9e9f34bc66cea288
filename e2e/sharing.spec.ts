import { writeFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import jsQR from 'jsqr';
import { logInThroughApi } from './api-login';
import { arriveFromOwnAddress } from './buyers';
import { channelUrl } from './support';

// issue 36, sharing a sale (docs/sharing.md). Buyer A (AURORA, English) opens the goods page's Share link: the share
// page offers their link with their share code, copy, and the poster, whose QR code reads that link. A fresh phone
// opens the QR code's link, logs in and buys; A's share page then counts the visit and the buy; so it does when the friend
// pays and leaves at once, their tracker sending nothing after the visit (the order names their device). A made-up `from` is
// ignored and never written back into the page. The share page and the poster are shot in AURORA (English) and
// BAZAAR (Chinese, a visitor's: the plain link).

const SHOTS = 'e2e/.artifacts';

/** The id of a sale on AURORA's home page, by its card's name. */
async function saleIdOf(page: Page, channel: string, name: string | RegExp): Promise<string> {
  await page.goto(channelUrl(channel, '/'));
  const href = await page.getByTestId('sale-card').filter({ hasText: name }).first().getAttribute('href');
  return /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
}

/** A picture as the page's browser gets it (Node cannot resolve *.localhost, DESIGN §11), with its type checked. */
async function pngOf(page: Page, src: string): Promise<Buffer> {
  const { type, base64 } = await page.evaluate(async (url) => {
    const answer = await fetch(url);
    const bytes = new Uint8Array(await answer.arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { type: answer.headers.get('content-type'), base64: btoa(binary) };
  }, src);
  expect(type).toBe('image/png');
  return Buffer.from(base64, 'base64');
}

/** The poster the share page shows: fetched as the page's browser fetches it, its QR code decoded. */
async function posterLink(page: Page): Promise<{ link: string | null; width: number; height: number }> {
  const poster = page.getByTestId('share-poster').getByRole('img');
  await expect(poster).toBeVisible();
  await expect
    .poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 })
    .toBeGreaterThan(0);
  const src = await poster.getAttribute('src');
  const png = await pngOf(page, src!);
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const qr = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  return { link: qr?.data ?? null, width: info.width, height: info.height };
}

/** Buyer A, logged in on AURORA on a phone of their own, about to share Star Fox. */
async function sharerOfStarFox(browser: Browser) {
  const aContext = await browser.newContext({ locale: 'en' });
  const a = await aContext.newPage();
  await logInThroughApi(a, 'aurora');
  return { aContext, a, saleId: await saleIdOf(a, 'aurora', 'Star Fox') };
}

test('a buyer shares a sale; a friend comes through the poster’s link and buys; the sharer sees both', async ({ browser }) => {
  test.setTimeout(180_000);
  const { aContext, a, saleId } = await sharerOfStarFox(browser);
  await a.goto(channelUrl('aurora', `/goods/detail/${saleId}`));
  await expect(a.getByTestId('goods-share')).toHaveText('Share');
  await a.evaluate(() => window.scrollBy(0, 420));
  await a.screenshot({ path: `${SHOTS}/share-goods-aurora-en.png` });
  await a.getByTestId('goods-share').click();
  await expect(a).toHaveURL(new RegExp(`/share/goods/${saleId}$`));
  const link = await a.getByTestId('share-link').inputValue();
  expect(link).toMatch(new RegExp(`/goods/detail/${saleId}\\?from=[a-z2-7]{16}$`));
  await expect(a.getByTestId('share-figures')).toHaveText(/0 visits, 0 buys/);

  await a.screenshot({ path: `${SHOTS}/share-aurora-en-sheet.png`, fullPage: true });
  await a.getByRole('button', { name: 'Share poster' }).click();
  await expect(a.getByTestId('share-save-hint')).toHaveText('Press and hold the poster to save it, then send it to a friend.');
  const poster = await posterLink(a);
  expect(poster).toEqual({ link, width: 750, height: 1240 });
  await a.screenshot({ path: `${SHOTS}/share-aurora-en-poster.png`, fullPage: true });
  const src = await a.getByTestId('share-poster').getByRole('img').getAttribute('src');
  await writeFile(`${SHOTS}/poster-aurora-en.png`, await pngOf(a, src!));

  // A friend on another phone opens the QR code's link, logs in and buys.
  const bContext = await browser.newContext({ locale: 'en' });
  const b = await bContext.newPage();
  await arriveFromOwnAddress(bContext);
  const visitSent = b.waitForRequest((r) => r.url().includes('/log/track'), { timeout: 30_000 });
  await b.goto(poster.link!.replace(/^https?:\/\/[^/]+/, channelUrl('aurora', '').replace(/\/$/, '')));
  await expect(b.getByRole('heading', { level: 1, name: 'Star Fox' })).toBeVisible();
  // The page tracker sends the visit in its timed send (every 10 s) while the page is open.
  await expect(b.locator('html')).toHaveAttribute('data-hydrated', '1');
  await visitSent;
  await logInThroughApi(b, 'aurora');
  await b.goto(channelUrl('aurora', `/pay/${saleId}`));
  await b.getByRole('checkbox').check();
  await b.getByRole('button', { name: 'Pay now' }).click();
  await expect(b).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  await b.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(b).toHaveURL(/\/pay\/success\?orderNo=\d{22}$/);
  // B stays on the result page: the tracker's timed send (every 10 s, with the session) links B's device to B.

  // The sharer's page counts the friend's visit and buy.
  await expect(async () => {
    await a.reload();
    await expect(a.getByTestId('share-figures')).toHaveText(/1 visits?, 1 buys?/, { timeout: 2_000 });
  }).toPass({ timeout: 40_000 });
  await aContext.close();
  await bContext.close();
});

test('a friend who pays and leaves at once, the tracker sending nothing after the visit, still credits the sharer', async ({ browser }) => {
  test.setTimeout(180_000);
  const { aContext, a, saleId } = await sharerOfStarFox(browser);
  await a.goto(channelUrl('aurora', `/share/goods/${saleId}`));
  const link = await a.getByTestId('share-link').inputValue();
  await expect(a.getByTestId('share-figures')).toHaveText(/0 visits, 0 buys/);

  const bContext = await browser.newContext({ locale: 'en' });
  const b = await bContext.newPage();
  await arriveFromOwnAddress(bContext);
  const visitAnswered = b.waitForResponse((r) => r.url().includes('/log/track'), { timeout: 30_000 });
  await b.goto(link.replace(/^https?:\/\/[^/]+/, channelUrl('aurora', '').replace(/\/$/, '')));
  await expect(b.locator('html')).toHaveAttribute('data-hydrated', '1');
  await visitAnswered;
  // From here on the tracker reaches nobody: neither the pay page nor the result is reported.
  await bContext.route('**/log/track', (route) => route.abort());
  await logInThroughApi(b, 'aurora');
  await b.goto(channelUrl('aurora', `/pay/${saleId}`));
  await b.getByRole('checkbox').check();
  await b.getByRole('button', { name: 'Pay now' }).click();
  await expect(b).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  await b.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(b).toHaveURL(/\/pay\/success\?orderNo=\d{22}$/);
  await bContext.close();

  // The order names the device that followed the link: the buy is A's.
  await expect(async () => {
    await a.reload();
    await expect(a.getByTestId('share-figures')).toHaveText(/1 visits?, 1 buys?/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await aContext.close();
});

test('a made-up from is ignored and never written into the goods page', async ({ page }) => {
  const saleId = await saleIdOf(page, 'aurora', 'Star Fox');
  const forged = '"><script>window.__forged=1</script>';
  const answer = await page.goto(channelUrl('aurora', `/goods/detail/${saleId}?from=${encodeURIComponent(forged)}`));
  expect(answer?.status()).toBe(200);
  expect(await answer!.text()).not.toContain('__forged');
  expect(await page.evaluate(() => (window as unknown as { __forged?: number }).__forged)).toBeUndefined();
  await expect(page.getByTestId('goods-share')).toHaveAttribute('href', `/share/goods/${saleId}`);
});

test('a visitor in Chinese shares the plain link and its poster (BAZAAR)', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await arriveFromOwnAddress(context);
  await page.goto(channelUrl('bazaar', '/'));
  const href = await page.getByTestId('sale-card').first().getAttribute('href');
  const saleId = /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
  await page.goto(channelUrl('bazaar', `/goods/detail/${saleId}`));
  await page.getByTestId('goods-share').click();
  await expect(page.getByRole('button', { name: '复制链接' })).toBeVisible();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(new RegExp(`/goods/detail/${saleId}$`));
  await expect(page.getByTestId('share-login-hint')).toContainText('登录后分享你的专属链接');
  await page.screenshot({ path: `${SHOTS}/share-bazaar-zh.png`, fullPage: true });
  await page.getByRole('button', { name: '分享海报' }).click();
  await expect(page.getByTestId('share-save-hint')).toHaveText('长按海报保存到相册，再发给好友。');
  expect((await posterLink(page)).link).toBe(link);
  await page.screenshot({ path: `${SHOTS}/share-bazaar-zh-poster.png`, fullPage: true });
  const src = await page.getByTestId('share-poster').getByRole('img').getAttribute('src');
  await writeFile(`${SHOTS}/poster-bazaar-zh.png`, await pngOf(page, src!));
  await context.close();
});
