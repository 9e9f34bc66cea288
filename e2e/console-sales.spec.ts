import { expect, test, type Page } from '@playwright/test';
import { OPS, signInOwner } from './console-owner';
import { picture } from '../test/images';

// issue 32, "Catalogue", "Sales" and "Blind boxes": the owner creates a collectible with two uploaded pictures, a sale
// of it opening in a minute, and a blind box with three prizes at 70/25/5% (7000/2500/500 basis points), and sees them
// listed; odds adding up to 9999 basis points are refused on the page, naming the odds.

const SHOTS = process.env.CONSOLE_SHOTS; // a folder: the screens are saved there to be looked at
const MEDIA_URL = /\/media\/[0-9a-f]{64}\.webp$/;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A minute from now on the whole minute, as `datetime-local` reads it in Asia/Shanghai (AURORA's zone). */
function inAMinute(): string {
  const at = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Shanghai',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

async function newCollectible(page: Page, code: string, name: string, box: boolean) {
  await page.goto(`${OPS}/channels/AURORA/catalogue`);
  await page.locator('#collectible-code').fill(code);
  await page.locator('#collectible-name').fill(name);
  await page.locator('#collectible-authorName').fill('Ada Lin');
  await page.locator('#collectible-seriesName').fill('Console drops');
  await page.locator('#collectible-chainName').fill('Storefront Ledger');
  await page.locator('#collectible-chainContract').fill(`LEDGER-${code}`);
  await page.locator('#collectible-contractAddress').fill('0x1234');
  if (box) await page.getByLabel('This is a blind box').check();
  await page.getByTestId('upload-cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await picture(800, 800) });
  await expect(page.getByTestId('pictures-cover').locator('img')).toHaveAttribute('src', MEDIA_URL);
}

test('the owner creates a collectible with pictures, a sale opening in a minute and a blind box with its odds', async ({ page }) => {
  test.setTimeout(180_000);
  page.on('dialog', (dialog) => void dialog.accept());
  await signInOwner(page);
  const stamp = Date.now().toString(36);

  // A collectible with a cover and a gallery picture, both uploaded and re-encoded.
  const code = `console-${stamp}`;
  await newCollectible(page, code, `Console Comet ${stamp}`, false);
  await page.getByTestId('upload-gallery').setInputFiles({ name: 'gallery.png', mimeType: 'image/png', buffer: await picture(900, 700) });
  await expect(page.getByTestId('pictures-gallery').locator('img')).toHaveCount(1);
  await expect(page.getByTestId('pictures-gallery').locator('img')).toHaveAttribute('src', MEDIA_URL);
  await shot(page, 'catalogue-new');
  await page.getByRole('button', { name: 'Create collectible' }).click();
  await expect(page).toHaveURL(new RegExp(`/channels/AURORA/catalogue/${code}$`));
  await expect(page.getByRole('heading', { name: `Console Comet ${stamp}` })).toBeVisible();
  await page.goto(`${OPS}/channels/AURORA/catalogue`);
  await expect(page.getByTestId('collectible-list')).toContainText(`Console Comet ${stamp}`);

  // A sale of it opening in a minute, typed in the channel's time zone.
  await page.goto(`${OPS}/channels/AURORA/sales`);
  await page.locator('#sale-code').fill(`sale-${stamp}`);
  await page.locator('#sale-collectible').selectOption({ label: `Console Comet ${stamp}` });
  await page.locator('#sale-price').fill('19.90');
  await page.locator('#sale-copies').fill('50');
  await page.getByLabel('Opens (Asia/Shanghai)').fill(inAMinute());
  await page.getByRole('button', { name: 'Create sale' }).click();
  await expect(page).toHaveURL(new RegExp(`/channels/AURORA/sales/sale-${stamp}$`));
  await expect(page.getByTestId('sale-state')).toHaveText(/Coming|Live/);
  await page.goto(`${OPS}/channels/AURORA/sales`);
  const row = page.getByTestId(`sale-row-sale-${stamp}`);
  await expect(row).toContainText(`Console Comet ${stamp}`);
  await expect(row).toContainText('¥19.90');
  await expect(row).toContainText('50 / 50');
  await shot(page, 'sales-list');

  // A blind box with three prizes: 9999 basis points are refused naming the odds, 10000 are saved.
  const box = `box-${stamp}`;
  await newCollectible(page, box, `Console Box ${stamp}`, true);
  await page.getByRole('button', { name: 'Create collectible' }).click();
  await expect(page).toHaveURL(new RegExp(`/channels/AURORA/catalogue/${box}$`));
  const editor = page.getByTestId('prize-editor');
  const prizes: [string, string, string][] = [
    ['Crystal Owl', '7000', '19.90'],
    ['Ember Phoenix', '2500', '49.90'],
    ['Frost Lynx', '499', '199.00'],
  ];
  for (const [i, [name, weight, value]] of prizes.entries()) {
    await editor.getByRole('button', { name: 'Add a prize' }).click();
    await editor.getByLabel(`Prize ${i + 1}`).selectOption({ label: name });
    await editor.getByLabel(`Odds (basis points) ${i + 1}`).fill(weight);
    await editor.getByLabel(`Value (yuan) ${i + 1}`).fill(value);
  }
  await expect(editor.getByTestId('prize-total')).toContainText('9,999 of 10,000 (99.99%)');
  await editor.getByRole('button', { name: 'Save prizes' }).click();
  await expect(editor.locator('#prizes-error')).toContainText('The odds add up to 99.99%');
  await shot(page, 'prizes-refused');
  await editor.getByLabel('Odds (basis points) 3').fill('500');
  await editor.getByRole('button', { name: 'Save prizes' }).click();
  await expect(editor.getByRole('status')).toHaveText('Saved.');
  await page.reload();
  await expect(page.getByTestId('prize-editor').getByLabel('Odds (basis points) 1')).toHaveValue('7000');
  await expect(page.getByTestId('prize-editor').getByLabel('Odds (basis points) 3')).toHaveValue('500');
  await page.goto(`${OPS}/channels/AURORA/catalogue`);
  await expect(page.getByTestId('collectible-list')).toContainText(`Console Box ${stamp}`);
});

test('on a tablet the Catalogue and Sales tabs, a sale and a box fit the screen, in English and in Chinese', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signInOwner(page);
  const zh = await browser.newContext({ locale: 'zh-CN', storageState: await page.context().storageState() });
  for (const view of [page, await zh.newPage()]) {
    const locale = view === page ? 'en' : 'zh';
    await view.setViewportSize({ width: 820, height: 1180 });
    const fits = async (name: string) => {
      await shot(view, `${name}-820-${locale}`);
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
    };
    await view.goto(`${OPS}/channels/AURORA/catalogue`);
    await expect(view.getByTestId('collectible-list')).toBeVisible();
    await fits('catalogue');
    const box = await view.getByTestId('collectible-list').getByRole('link').first().getAttribute('href');
    await view.goto(`${OPS}/channels/AURORA/sales`);
    await fits('sales');
    const sale = await view.locator('[data-testid^="sale-row-"]').getByRole('link').first().getAttribute('href');
    await view.goto(new URL(sale!, OPS).toString());
    await fits('sale');
    await view.goto(new URL(box!, OPS).toString());
    await fits('collectible');
  }
  await zh.close();
});
