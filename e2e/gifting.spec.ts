import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { consoleCaller } from './operator-key';
import { logInThroughApi } from './api-login';
import { arriveFromOwnAddress } from './buyers';
import { channelUrl } from './support';

// issue 36, gifting between buyers (转赠; docs/gifting.md). On two phones on AURORA, whose pages follow the browser's
// language: A (English) buys two Star Fox; within AURORA's holding period the card's Give is disabled and says from
// when. Once the holding period is waited out (the owner sets it to 0 hours, as the console's Settings tab does: the
// server's clock is not the browser's), A gives one to B by B's account number, read off B's Mine page, and confirms B's
// masked name; B (Chinese) sees the dot on Mine and the gift, accepts it after the confirm sheet, and holds the same
// edition; A's records show it given and accepted. A gives the second one; B refuses it and it is back in A's
// collection. The give page and the incoming gift are shot in both languages.

const SHOTS = 'e2e/.artifacts';

/** Buys one Star Fox for the page's buyer at the sandbox cashier; answers its edition (`#n/2000`). */
async function buyStarFox(page: Page): Promise<string> {
  await page.goto(channelUrl('aurora', '/'));
  const href = await page.getByTestId('sale-card').filter({ hasText: 'Star Fox' }).first().getAttribute('href');
  const saleId = /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
  await page.goto(channelUrl('aurora', `/pay/${saleId}`));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page).toHaveURL(/\/pay\/success\?orderNo=\d{22}$/);
  return (await page.getByTestId('pay-success-editions').getByRole('listitem').first().textContent())!.trim();
}

/** The same buyer in another language: a context of its own with the buyer's cookies and storage. */
async function sameBuyerIn(browser: Browser, context: BrowserContext, locale: string): Promise<Page> {
  const other = await browser.newContext({ locale, storageState: await context.storageState() });
  await arriveFromOwnAddress(other);
  return other.newPage();
}

/** The collection's card of this edition (`#n/2000`). */
function card(page: Page, edition: string) {
  return page.getByTestId('holding').filter({ has: page.getByTestId('holding-edition').getByText(edition, { exact: true }) });
}

test('A gives a collectible to B by account number; B accepts one gift and refuses another', async ({ browser }) => {
  test.setTimeout(240_000);
  const ops = await consoleCaller(browser);
  const setHours = async (holdingHours: number) => {
    const saved = await ops('/ops/api/channel/saveHoldingPeriod', { channel: 'AURORA', holdingHours });
    expect(saved.code, saved.message).toBe(200);
  };
  await setHours(24);

  const aContext = await browser.newContext({ locale: 'en' });
  const a = await aContext.newPage();
  const aPhone = await logInThroughApi(a, 'aurora');
  const first = await buyStarFox(a);
  const second = await buyStarFox(a);
  const aName = `****${aPhone.slice(-4)}`;

  const bContext = await browser.newContext({ locale: 'zh-CN' });
  const b = await bContext.newPage();
  const bPhone = await logInThroughApi(b, 'aurora');
  const bName = `****${bPhone.slice(-4)}`;
  await b.goto(channelUrl('aurora', '/mine'));
  const bNumber = (await b.getByTestId('mine-account-id').textContent())!.replace(/\D/g, '');
  expect(bNumber).toMatch(/^\d{10}$/);
  // Nothing waits for B yet: the gifts row has no dot.
  await expect(b.getByTestId('mine-gifts')).toBeVisible();
  await expect(b.getByTestId('mine-gifts-dot')).toHaveCount(0);

  try {
    // Inside the holding period: the card's Give is disabled and says from when; so does the give page.
    await a.goto(channelUrl('aurora', '/mine/collection'));
    await expect(card(a, first).getByTestId('holding-give-disabled')).toContainText(/^Give from \d\d-\d\d \d\d:\d\d$/);
    await a.screenshot({ path: `${SHOTS}/gifting-collection-en-holding.png` });

    // The holding period waited out (0 hours from now on); once the editions are on the chain ledger, Give is there.
    await setHours(0);
    await expect(async () => {
      await a.goto(channelUrl('aurora', '/mine/collection'));
      await expect(card(a, first).getByTestId('holding-give')).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await card(a, first).getByTestId('holding-give').click();
    await expect(a).toHaveURL(/\/mine\/gifts\/give\/\d+$/);
    await expect(a.getByTestId('give-edition')).toHaveText(first);
    await expect(a.getByTestId('give-provenance')).toContainText(aName);

    // An unknown number is refused in words, nothing found.
    await a.getByTestId('give-account').fill('1000000009');
    await a.getByRole('button', { name: 'Find' }).click();
    await expect(a.getByText('No buyer of this store has that account number.', { exact: false })).toBeVisible();
    await expect(a.getByTestId('give-receiver')).toHaveCount(0);
    // The toast goes by itself, before the page is shot.
    await expect(a.getByText('No buyer of this store has that account number.', { exact: false })).toBeHidden({ timeout: 15_000 });

    // B's number: B's masked name to confirm.
    await a.getByTestId('give-account').fill(bNumber.replace(/(\d{3})(\d{3})(\d{4})/, '$1 $2 $3'));
    await a.getByRole('button', { name: 'Find' }).click();
    await expect(a.getByTestId('give-receiver-name')).toHaveText(bName);
    await a.screenshot({ path: `${SHOTS}/gifting-give-en.png`, fullPage: true });
    await a.getByTestId('give-receiver').getByRole('button', { name: 'Give' }).click();
    const sheet = a.getByRole('dialog');
    await expect(sheet).toContainText(`Give to ${bName}?`);
    await expect(sheet).toContainText(`Star Fox ${first.split('/')[0]} goes to ${bName}`);
    await sheet.getByRole('button', { name: 'Give' }).click();
    await expect(a.getByTestId('give-sent')).toContainText(`Gift sent to ${bName}`);
    await a.screenshot({ path: `${SHOTS}/gifting-give-en-sent.png`, fullPage: true });

    // The same page in Chinese, for the second edition (A's own context in Chinese).
    await a.goto(channelUrl('aurora', '/mine/collection'));
    await card(a, second).getByTestId('holding-give').click();
    await expect(a).toHaveURL(/\/mine\/gifts\/give\/\d+$/);
    const secondGivePath = new URL(a.url()).pathname;
    const aZh = await sameBuyerIn(browser, aContext, 'zh-CN');
    await aZh.goto(channelUrl('aurora', secondGivePath));
    await expect(aZh.getByRole('heading', { name: '转赠给好友' })).toBeVisible();
    await aZh.getByTestId('give-account').fill(bNumber);
    await aZh.getByRole('button', { name: '查找' }).click();
    await expect(aZh.getByTestId('give-receiver-name')).toHaveText(bName);
    await aZh.screenshot({ path: `${SHOTS}/gifting-give-zh.png`, fullPage: true });
    await aZh.context().close();

    // B: a dot on Mine, and the gift from A's masked name.
    await b.goto(channelUrl('aurora', '/mine'));
    await expect(b.getByTestId('mine-gifts-dot')).toBeVisible();
    await expect(b.getByTestId('mine-gifts-waiting')).toHaveText('1 件转赠待接收');
    await b.screenshot({ path: `${SHOTS}/gifting-mine-zh-dot.png`, fullPage: true });
    await b.getByTestId('mine-gifts-link').click();
    await expect(b).toHaveURL(/\/mine\/gifts$/);
    const gift = b.getByTestId('gift-incoming');
    await expect(gift).toHaveCount(1);
    await expect(gift.getByTestId('gift-from')).toHaveText(`来自${aName}`);
    await expect(gift.getByTestId('gift-edition')).toHaveText(first);
    await b.screenshot({ path: `${SHOTS}/gifting-incoming-zh.png`, fullPage: true });
    const bEn = await sameBuyerIn(browser, bContext, 'en');
    await bEn.goto(channelUrl('aurora', '/mine/gifts'));
    await expect(bEn.getByTestId('gift-from')).toHaveText(`From ${aName}`);
    await bEn.screenshot({ path: `${SHOTS}/gifting-incoming-en.png`, fullPage: true });
    await bEn.context().close();

    // B's messages tell it too, in Chinese, and lead to the gifts.
    await b.goto(channelUrl('aurora', '/mine/messages'));
    const told = b.getByTestId('message').first();
    await expect(told).toContainText(`${aName}转赠给你Star Fox ${first.split('/')[0]}`);
    await expect(told).toHaveAttribute('href', '/mine/gifts');
    await b.screenshot({ path: `${SHOTS}/gifting-messages-zh.png`, fullPage: true });
    await b.goto(channelUrl('aurora', '/mine/gifts'));

    // Accepting asks first (final), then the edition is B's.
    await gift.getByTestId('gift-accept').click();
    const accept = b.getByRole('dialog');
    await expect(accept).toContainText('接受后不可撤回');
    await b.screenshot({ path: `${SHOTS}/gifting-accept-zh-confirm.png` });
    await accept.getByRole('button', { name: '接受' }).click();
    await expect(b.getByTestId('gifts-empty')).toBeVisible();
    await b.goto(channelUrl('aurora', '/mine/collection'));
    await expect(card(b, first)).toHaveCount(1);
    await expect(card(b, first)).toContainText('Star Fox');

    // A: gone from the collection, given and accepted in the records.
    await a.goto(channelUrl('aurora', '/mine/collection'));
    await expect(card(a, first)).toHaveCount(0);
    await a.goto(channelUrl('aurora', '/mine/gifts/records'));
    const given = a.locator('[data-testid="gift-record"][data-direction="sent"][data-status="accepted"]');
    await expect(given).toHaveCount(1);
    await expect(given).toContainText('Given');
    await expect(given).toContainText(`To ${bName}`);
    await expect(given).toContainText(first);
    await a.screenshot({ path: `${SHOTS}/gifting-records-en.png`, fullPage: true });

    // The second gift: A gives it, B refuses it, and it is A's again.
    await a.goto(channelUrl('aurora', secondGivePath));
    await a.getByTestId('give-account').fill(bNumber);
    await a.getByRole('button', { name: 'Find' }).click();
    await expect(a.getByTestId('give-receiver-name')).toHaveText(bName);
    await a.getByTestId('give-receiver').getByRole('button', { name: 'Give' }).click();
    await a.getByRole('dialog').getByRole('button', { name: 'Give' }).click();
    await expect(a.getByTestId('give-sent')).toBeVisible();
    await a.goto(channelUrl('aurora', '/mine/collection'));
    await expect(card(a, second).getByTestId('holding-give-disabled')).toHaveText('Gift waiting');

    await b.goto(channelUrl('aurora', '/mine/gifts'));
    await expect(b.getByTestId('gift-edition')).toHaveText(second);
    await b.getByTestId('gift-refuse').click();
    await b.getByRole('dialog').getByRole('button', { name: '拒绝' }).click();
    await expect(b.getByTestId('gifts-empty')).toBeVisible();
    await b.goto(channelUrl('aurora', '/mine/gifts/records'));
    await expect(b.locator('[data-testid="gift-record"][data-status="refused"]')).toContainText('已拒绝');
    await b.screenshot({ path: `${SHOTS}/gifting-records-zh.png`, fullPage: true });

    await a.goto(channelUrl('aurora', '/mine/collection'));
    await expect(card(a, second).getByTestId('holding-give')).toBeVisible();
    await a.goto(channelUrl('aurora', '/mine/gifts/records'));
    await expect(a.locator('[data-testid="gift-record"][data-status="refused"]')).toContainText('Refused');
  } finally {
    await setHours(24);
  }
});

test('a visitor asking for the gifts is sent to log in and back', async ({ page }) => {
  await page.goto(channelUrl('aurora', '/mine/gifts'));
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmine%2Fgifts$/);
});
