import { request as httpRequest } from 'node:http';
import { expect, test, type Page, type Route } from '@playwright/test';
import { channelUrl, PORT } from './support';
import { logInThroughApi } from './api-login';
import { logInAndBuyOne } from './buy-helpers';
import { demoCode } from '../lib/demo/seed-data';

// Exchanges (label 2): the activity list, trading two starter cards up for a badge on SWAP (the confirm sheet, its
// cancel, the result, the collection, the destroy records titled 'Receive records' there, the exchange records), a
// tap whose answer was lost not exchanging twice, a user short of the recipe, a recipe with a redeem code, a visitor,
// the label guards, another channel's exchange, the Chinese pages.

/**
 * A screenshot of the whole page for looking at the layout on the phone. Animations are finished first: a forward
 * route transition slides the page in from 30% to the right, and a capture in the middle of it is wider than the phone.
 */
async function shot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  // From the top, so the sticky header is where a phone shows it.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `e2e/.artifacts/${name}.png`, fullPage, animations: 'disabled' });
}

/** Logs a new user in on SWAP (through the API) and receives the Starter Card gift twice (its limit): receive, reload, receive again. */
async function receiveTwoStarterCards(page: Page): Promise<void> {
  await page.goto(channelUrl('swap', '/receive2'));
  await page.getByTestId('gift-offer').filter({ hasText: 'Starter Card' }).click();
  await expect(page).toHaveURL(/\/receive_detail_new\/\d+\/\d+$/);
  const gift = new URL(page.url()).pathname;
  await page.getByTestId('gift-login').click();
  await logInThroughApi(page, 'swap');
  await page.goto(channelUrl('swap', gift));
  await expect(page).toHaveURL(channelUrl('swap', gift));
  for (let i = 0; i < 2; i++) {
    if (i > 0) await page.reload();
    await page.getByRole('button', { name: 'Receive' }).click();
    await expect(page.getByTestId('gift-edition')).toHaveText(/^#\d+\/20000$/);
  }
}

/**
 * Sends an intercepted request to the server from here and drops the answer: the server acts, the phone sees the
 * connection reset. Node cannot resolve *.localhost (DESIGN §11), so it goes to 127.0.0.1 with the page's Host and cookies.
 */
async function sendAndLoseAnswer(page: Page, route: Route): Promise<unknown> {
  const url = new URL(route.request().url());
  const cookies = await page.context().cookies(url.origin);
  const headers = {
    ...(await route.request().allHeaders()),
    host: url.host,
    cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
  };
  const answer = await new Promise<string>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: PORT, path: url.pathname, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end(route.request().postData() ?? '');
  });
  await route.abort('connectionreset');
  return JSON.parse(answer) as unknown;
}

/** From the channel's activity list, opens the exchange offer of that name; returns its path. */
async function openOffer(page: Page, channel: string, offerName: string): Promise<string> {
  await page.goto(channelUrl(channel, '/active'));
  await page.getByTestId('exchange-offer').filter({ hasText: offerName }).click();
  await expect(page).toHaveURL(/\/exchange_detail\/\d+\/\d+$/);
  await expect(page.getByTestId('exchange-name')).toHaveText(offerName);
  return new URL(page.url()).pathname;
}

test('trade two starter cards up for a badge: confirm sheet, cancel, exchange, collection, destroy and exchange records', async ({
  page,
}) => {
  test.setTimeout(60_000);
  // Two starter cards from the gift open to every member (limit 2).
  await receiveTwoStarterCards(page);

  await page.goto(channelUrl('swap', '/active'));
  await expect(page.getByRole('heading', { name: 'Activities' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const activity = page.getByTestId('activity').filter({ hasText: 'Starter trade-up' });
  await expect(activity.getByTestId('activity-status')).toHaveText('Open');
  await expect(activity.getByTestId('activity-window')).toHaveText(/^Until \d{4}-\d\d-\d\d \d\d:\d\d$/);
  const offer = activity.getByTestId('exchange-offer').filter({ hasText: 'Swap Club Badge' });
  await expect(offer.getByTestId('exchange-recipe')).toHaveText('Spend 2 × Starter Card');
  await expect(offer.getByTestId('exchange-left')).toHaveText(/^\d+ of 1,000 left$/);
  await shot(page, 'exchange-active');

  const detail = await openOffer(page, 'swap', 'Swap Club Badge');
  await expect(page.getByRole('heading', { name: 'Exchange detail', exact: true })).toBeVisible();
  const line = page.getByTestId('exchange-line').filter({ hasText: 'Starter Card' });
  await expect(line.getByTestId('exchange-have')).toHaveText('You have 2 of 2');
  const cards = line.getByTestId('exchange-editions').getByRole('listitem');
  await expect(cards).toHaveText([/^#\d+\/20000$/, /^#\d+\/20000$/]);
  const editions = await cards.allTextContents();
  await expect(page.getByTestId('exchange-times-left')).toHaveText('You can exchange 3 more times');
  await shot(page, 'exchange-detail');

  // The confirm sheet says what is spent and what is got; Cancel closes it and nothing happens.
  const exchangeButton = page.getByRole('button', { name: 'Exchange', exact: true });
  await exchangeButton.click();
  const sheet = page.getByRole('dialog', { name: 'Confirm exchange' });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText(
    `Spend 2 × Starter Card (${editions.join(', ')}) to get Swap Club Badge? What you spend is destroyed and cannot be undone.`,
  );
  await expect(sheet).toHaveAttribute('data-visible', 'true');
  await shot(page, 'exchange-confirm', { fullPage: false });
  await sheet.getByRole('button', { name: 'Cancel' }).click();
  await expect(sheet).toBeHidden();
  await expect(page.getByTestId('exchange-result')).toHaveCount(0);
  await page.reload();
  await expect(line.getByTestId('exchange-have')).toHaveText('You have 2 of 2');

  await exchangeButton.click();
  await sheet.getByRole('button', { name: 'Exchange', exact: true }).click();
  const result = page.getByTestId('exchange-result');
  await expect(result).toContainText('Exchanged! Swap Club Badge is in your collection now.');
  await expect(result.getByTestId('exchange-result-name')).toHaveText('Swap Club Badge');
  await expect(result.getByTestId('exchange-result-edition')).toHaveText(/^#\d+\/1000$/);
  const badge = (await result.getByTestId('exchange-result-edition').textContent())!;
  // The page refreshes its counts under the result: the cards are gone, so no second exchange.
  await expect(line.getByTestId('exchange-have')).toHaveText('You have 0 of 2');
  await expect(page.getByTestId('exchange-refusal')).toHaveText('You need 2 × Starter Card to exchange');
  await expect(page.getByTestId('exchange-times-left')).toHaveText('You can exchange 2 more times');
  await expect(exchangeButton).toHaveCount(0);
  await expect(result).toBeVisible();
  await shot(page, 'exchange-result');

  // Its records link names the exchange records, not the burnt items' list (titled 'Receive records' on SWAP).
  await expect(result.getByRole('link', { name: 'Exchange records' })).toHaveAttribute('href', '/mine/exchange');
  await result.getByRole('link', { name: 'See my collection' }).click();
  await expect(page).toHaveURL(channelUrl('swap', '/mine/collection'));
  await expect(page.getByTestId('holding').filter({ hasText: 'Swap Club Badge' })).toContainText(badge);
  await expect(page.getByTestId('holding')).toHaveCount(1);
  await expect(page.getByTestId('holding').filter({ hasText: 'Starter Card' })).toHaveCount(0);

  // SWAP titles its destroy records 'Receive records' (channel attribute destroyTitledReceive).
  // Back on the exchange later: the same counts, no result left over.
  await page.goto(channelUrl('swap', detail));
  await expect(line.getByTestId('exchange-have')).toHaveText('You have 0 of 2');
  await expect(page.getByTestId('exchange-result')).toHaveCount(0);

  await page.goto(channelUrl('swap', '/mine/destory'));
  await expect(page.getByRole('heading', { name: 'Receive records' })).toBeVisible();
  await expect(page).toHaveTitle(/^Receive records \| /);
  const destroyed = page.getByTestId('destroyed');
  await expect(destroyed).toHaveCount(2);
  for (const item of await destroyed.all()) {
    await expect(item).toContainText('Starter Card');
    await expect(item.getByTestId('destroyed-in')).toHaveText('Spent in Starter trade-up');
  }
  await expect(page.getByTestId('destroyed-edition')).toHaveText(editions.slice().reverse());
  await shot(page, 'exchange-destroyed');

  await page.goto(channelUrl('swap', '/mine/exchange'));
  await expect(page.getByRole('heading', { name: 'Exchange records' })).toBeVisible();
  const record = page.getByTestId('exchange-record');
  await expect(record).toHaveCount(1);
  await expect(record).toContainText('Starter trade-up');
  await expect(record).toContainText('Swap Club Badge');
  await expect(record.getByTestId('exchange-record-output')).toHaveText(badge);
  await expect(record.getByTestId('exchange-record-spent').getByRole('listitem')).toHaveText(editions.map((e) => `Starter Card ${e}`));
  await shot(page, 'exchange-records');
});

test('an exchange whose answer was lost on the way is not made twice when the user taps again', async ({ page }) => {
  await receiveTwoStarterCards(page);
  await openOffer(page, 'swap', 'Swap Club Badge');
  let calls = 0;
  let lost: unknown = null;
  await page.route('**/api/market/api/exchange/create', async (route) => {
    calls += 1;
    // The first answer never arrives, although the server exchanged; the tap after it goes through untouched.
    if (calls === 1) lost = await sendAndLoseAnswer(page, route);
    else await route.continue();
  });
  const sheet = page.getByRole('dialog', { name: 'Confirm exchange' });
  await page.getByRole('button', { name: 'Exchange', exact: true }).click();
  await sheet.getByRole('button', { name: 'Exchange', exact: true }).click();
  await expect(page.getByText('Too many buyers at the moment, system recovering, please retry later')).toBeVisible();
  await expect(page.getByTestId('exchange-result')).toHaveCount(0);
  expect(lost, 'the server made the exchange whose answer was lost').toMatchObject({ code: 200, data: { output: { amountNumber: 1000 } } });
  const made = (lost as { data: { output: { number: number } } }).data.output.number;

  // Tapping again sends the same tap: the server answers with the exchange it made, and spends nothing more.
  await page.getByRole('button', { name: 'Exchange', exact: true }).click();
  await sheet.getByRole('button', { name: 'Exchange', exact: true }).click();
  await expect(page.getByTestId('exchange-result-edition')).toHaveText(/^#\d+\/1000$/);
  await expect(page.getByTestId('exchange-result-edition')).toHaveText(`#${made}/1000`);
  expect(calls).toBe(2);
  await page.goto(channelUrl('swap', '/mine/exchange'));
  await expect(page.getByTestId('exchange-record')).toHaveCount(1);
  await expect(page.getByTestId('exchange-record-output')).toHaveText(`#${made}/1000`);
});

test('a buyer with one Star Fox of the two the trade asks sees what is missing and no Exchange button; empty records', async ({ page }) => {
  test.setTimeout(60_000);
  const fox = await logInAndBuyOne(page, 'aurora', 'Star Fox');

  await openOffer(page, 'aurora', 'Star Fox Constellation');
  const line = page.getByTestId('exchange-line').filter({ hasText: 'Star Fox' });
  await expect(line.getByTestId('exchange-have')).toHaveText('You have 1 of 2');
  await expect(line).toContainText('Yours');
  await expect(line.getByTestId('exchange-editions').getByRole('listitem')).toHaveText([fox]);
  await expect(page.getByTestId('exchange-refusal')).toHaveText('You need 2 × Star Fox to exchange');
  await expect(page.getByRole('button', { name: 'Exchange', exact: true })).toHaveCount(0);
  await shot(page, 'exchange-missing');

  // Nothing exchanged, nothing destroyed; AURORA calls its destroy records by their own name.
  await page.goto(channelUrl('aurora', '/mine/exchange'));
  // An empty list says so and offers the way on: the activities, where a buyer exchanges.
  const noExchanges = page.getByTestId('exchange-records-empty');
  await expect(noExchanges.getByText('No exchanges yet.')).toBeVisible();
  await expect(noExchanges.getByRole('link', { name: 'See activities' })).toHaveAttribute('href', '/active');
  await page.goto(channelUrl('aurora', '/mine/destory'));
  await expect(page.getByRole('heading', { name: 'Destroy records' })).toBeVisible();
  const nothingDestroyed = page.getByTestId('destroyed-empty');
  await expect(nothingDestroyed.getByText('Nothing destroyed yet.')).toBeVisible();
  await expect(nothingDestroyed.getByRole('link', { name: 'See activities' })).toBeVisible();
  await shot(page, 'exchange-destroyed-empty');
});

test('an exchange that asks for a redeem code: the code is asked for, a wrong one refused, a demo code exchanges', async ({ page }) => {
  test.setTimeout(60_000);
  const fox = await logInAndBuyOne(page, 'aurora', 'Star Fox');
  await openOffer(page, 'aurora', 'Star Fox Comet');
  await expect(page.getByTestId('exchange-recipe')).toHaveText('Spend 1 × Star Fox and a code');
  await expect(page.getByTestId('exchange-have')).toHaveText('You have 1 of 1');
  await expect(page.getByTestId('exchange-times-left')).toHaveText('You can exchange once more');
  const exchangeButton = page.getByRole('button', { name: 'Exchange', exact: true });
  const sheet = page.getByRole('dialog', { name: 'Confirm exchange' });
  await exchangeButton.click();
  await expect(page.getByText('Enter your redeem code')).toBeVisible();
  await expect(sheet).toHaveCount(0);

  await page.getByLabel('Redeem code').fill('AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG');
  await exchangeButton.click();
  await expect(sheet).toContainText(`Spend 1 × Star Fox (${fox}) and a code to get Star Fox Comet?`);
  await sheet.getByRole('button', { name: 'Exchange', exact: true }).click();
  await expect(page.getByText('This redeem code is not valid here, or has been used.')).toBeVisible();
  await expect(page.getByTestId('exchange-result')).toHaveCount(0);
  await expect(page.getByTestId('exchange-have')).toHaveText('You have 1 of 1');

  // Each demo code works once; a retried test takes the next one.
  await page.getByLabel('Redeem code').fill(demoCode('star-fox-comet', 1 + test.info().retry).toLowerCase());
  await shot(page, 'exchange-code');
  await exchangeButton.click();
  await sheet.getByRole('button', { name: 'Exchange', exact: true }).click();
  await expect(page.getByTestId('exchange-result-edition')).toHaveText(/^#\d+\/200$/);
  await expect(page.getByTestId('exchange-refusal')).toHaveText('You have exchanged as many times as allowed');
});

test('a visitor sees the recipe and a log-in link that comes back to the exchange', async ({ page }) => {
  const detail = await openOffer(page, 'swap', 'Swap Club Badge');
  await expect(page.getByTestId('exchange-recipe')).toHaveText('Spend 2 × Starter Card');
  await expect(page.getByTestId('exchange-line')).toContainText('Starter Card');
  await expect(page.getByTestId('exchange-line')).toContainText('× 2');
  await expect(page.getByTestId('exchange-have')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Exchange', exact: true })).toHaveCount(0);
  await shot(page, 'exchange-visitor');
  await page.getByRole('link', { name: 'Log in to exchange' }).click();
  await expect(page).toHaveURL(channelUrl('swap', `/login?redirect=${encodeURIComponent(detail)}`));
});

test('label guards: no /active without label 2; /mine/exchange without label 2 is not found even logged out', async ({ page }) => {
  await page.goto(channelUrl('lumen', '/active'));
  await expect(page).toHaveURL(channelUrl('lumen', '/404'));
  await page.goto(channelUrl('gift', '/mine/exchange'));
  await expect(page).toHaveURL(channelUrl('gift', '/404'));
  // With label 2, a visitor is asked to log in instead.
  await page.goto(channelUrl('swap', '/mine/exchange'));
  await expect(page).toHaveURL(channelUrl('swap', `/login?redirect=${encodeURIComponent('/mine/exchange')}`));
});

test('an exchange of another channel, or a made-up one, is not found', async ({ page }) => {
  await page.goto(channelUrl('swap', '/active'));
  const href = (await page.getByTestId('exchange-offer').filter({ hasText: 'Swap Club Badge' }).getAttribute('href'))!;
  await page.goto(channelUrl('aurora', href));
  await expect(page).toHaveURL(channelUrl('aurora', '/404'));
  await page.goto(channelUrl('swap', '/exchange_detail/abc/1'));
  await expect(page).toHaveURL(channelUrl('swap', '/404'));
  await page.goto(channelUrl('swap', '/exchange_detail/999999/1'));
  await expect(page).toHaveURL(channelUrl('swap', '/404'));
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN', extraHTTPHeaders: { 'Accept-Language': 'zh-CN,zh;q=0.9' } });

  test('the activity list and the exchange detail read in Simplified Chinese', async ({ page }) => {
    await page.goto(channelUrl('swap', '/active'));
    await expect(page.getByRole('heading', { name: '活动' })).toBeVisible();
    const offer = page.getByTestId('exchange-offer').filter({ hasText: 'Swap Club Badge' });
    await expect(page.getByTestId('activity').first().getByTestId('activity-status')).toHaveText('进行中');
    await expect(offer.getByTestId('exchange-recipe')).toHaveText('消耗 2 × Starter Card');
    await expect(offer.getByTestId('exchange-left')).toHaveText(/^剩余 \d+ \/ 1,000$/);
    await shot(page, 'exchange-active-zh');
    await offer.click();
    await expect(page.getByRole('heading', { name: '兑换详情' })).toBeVisible();
    await expect(page.getByRole('link', { name: '登录后兑换' })).toBeVisible();
    await shot(page, 'exchange-detail-zh');
  });
});
