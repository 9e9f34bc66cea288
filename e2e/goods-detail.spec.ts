import { expect, test } from '@playwright/test';
import { channelUrl } from './support';

// Goods detail (spec §2 goodsDetail): server-rendered, with link previews for chat apps and crawlers.

async function openSale(page: import('@playwright/test').Page, channel: string, name: string): Promise<string> {
  await page.goto(channelUrl(channel));
  await page.getByTestId('sale-card').filter({ hasText: name }).click();
  await expect(page).toHaveURL(/\/goods\/detail\/\d+$/);
  return page.url();
}

test('a buyer sees everything needed before paying', async ({ page }) => {
  await openSale(page, 'aurora', 'Aurora Dawn');
  await expect(page.getByRole('heading', { level: 1, name: 'Aurora Dawn' })).toBeVisible();
  await expect(page.getByTestId('goods-price')).toHaveText('¥199.00');
  await expect(page.getByTestId('edition-size')).toHaveText('1,000 copies');
  await expect(page.getByTestId('stock-left')).toHaveText('742 of 1,000');
  await expect(page.getByTestId('sale-window')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} – \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await expect(page.getByTestId('goods-author')).toHaveText('Mira Solberg');
  await expect(page.getByText('Aurora Studio')).toBeVisible();
  await expect(page.getByTestId('chain-name')).toHaveText('Storefront Ledger (built-in)');
  await expect(page.getByTestId('contract-address')).toHaveText(/^0x[0-9a-f]{40}$/);
  // Neither the address nor a date is broken across lines on a phone: the address fits on one line, whole.
  const lines = await page.evaluate(() => {
    const lineCount = (el: Element) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
    const address = document.querySelector('[data-testid="contract-address"]')!;
    const dates = [...document.querySelectorAll('[data-testid="sale-window"] span')];
    return {
      address: lineCount(address),
      addressFits: address.scrollWidth <= address.clientWidth,
      dates: dates.map((d) => d.getClientRects().length),
    };
  });
  expect(lines).toEqual({ address: 1, addressFits: true, dates: [1, 1] });
  await expect(page.getByText('The first light over the northern sea')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Gallery' }).getByRole('img')).toHaveCount(1);
  await expect(page.getByTestId('buy-button')).toHaveText('Buy now');
});

test('a shared link has a preview: title, description, Open Graph, Twitter and JSON-LD', async ({ page, browser }) => {
  const url = await openSale(page, 'aurora', 'Aurora Dawn');
  // What a crawler sees: the server's HTML, no JavaScript.
  const crawler = await browser.newContext({ javaScriptEnabled: false });
  const raw = await crawler.newPage();
  await raw.goto(url);
  await expect(raw).toHaveTitle('Aurora Dawn | digital collectible activity');
  const meta = (selector: string) => raw.locator(selector).getAttribute('content');
  expect(await meta('meta[name="description"]')).toContain('The first light over the northern sea');
  expect(await meta('meta[property="og:title"]')).toBe('Aurora Dawn');
  expect(await meta('meta[property="og:url"]')).toBe(url);
  const saleId = url.split('/').pop();
  const card = channelUrl('aurora', `/api/og/sale/${saleId}`);
  expect(await meta('meta[property="og:image"]')).toBe(card);
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
  expect(await meta('meta[name="twitter:image"]')).toBe(card);
  const ld = JSON.parse((await raw.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
  expect(ld).toMatchObject({
    '@type': 'Product',
    name: 'Aurora Dawn',
    offers: { price: '199.00', priceCurrency: 'CNY', availability: 'https://schema.org/InStock' },
  });
  // The preview image is a PNG card (chat apps show no SVG) served from the channel's own host.
  const image = await raw.goto(card);
  expect(image?.status()).toBe(200);
  expect(image?.headers()['content-type']).toBe('image/png');
  expect((await image!.body()).subarray(1, 4).toString()).toBe('PNG');
  await crawler.close();
});

test('sale states decide the buy button', async ({ page }) => {
  await openSale(page, 'aurora', 'Neon Koi');
  await expect(page.getByTestId('buy-button')).toHaveText('Sold out');
  await openSale(page, 'aurora', 'Moon Rabbit');
  // Coming soon counts down to the opening (e2e/drop.spec.ts); its name is the opening time, in the channel's zone.
  await expect(page.getByTestId('buy-button')).toHaveText(/^Opens in \dd \d{2}:\d{2}:\d{2}$/);
  await expect(page.getByRole('timer', { name: /^Opens \d{2}-\d{2} \d{2}:\d{2}$/ }).first()).toBeVisible();
  await openSale(page, 'aurora', 'Jade Dragon');
  await expect(page.getByTestId('buy-button')).toHaveText('Sale ended');
});

test('a blind box publishes its odds before purchase', async ({ page }) => {
  await openSale(page, 'aurora', 'Aurora Mystery Box');
  await expect(page.getByTestId('blind-box-odds').getByRole('listitem')).toHaveText([
    /Crystal Owl\s*60%/,
    /Ember Phoenix\s*30%/,
    /Frost Lynx\s*10%/,
  ]);
});

test('a sale of another channel is not found on this host', async ({ page }) => {
  const lumenUrl = await openSale(page, 'lumen', 'Sunrise');
  const id = lumenUrl.split('/').pop();
  await page.goto(channelUrl('aurora', `/goods/detail/${id}`));
  await expect(page).toHaveURL(channelUrl('aurora', '/404'));
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('Sunrise');
});
