import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { consoleCaller } from './operator-key';
import { logInThroughApi } from './api-login';
import { arriveFromOwnAddress } from './buyers';
import { channelUrl } from './support';

// issue 35, "Priority purchase (优先购)", as buyers see it on a phone: the owner makes a sale opening in a minute and a
// half with priority purchase (1 minute early, decided 20 s from now) for the buyers on a whitelist, through the
// console's API (an owner's key), and puts one buyer on the list. Before the decision the goods page says when it is
// decided (a visitor is asked to log in); after it the listed buyer reads that they can buy early, gets "Buy now" at
// their early opening and buys through the pay page and the sandbox's cashier, while the other buyer reads that the
// sale opens to everyone at its opening and still sees the countdown. The server's clock is real. In English on AURORA;
// the line in Chinese too.

const SHOTS = 'e2e/.artifacts';

/** A logged-in buyer of AURORA on their own phone, and their account number as Mine shows it. */
async function buyer(browser: Browser, locale: string): Promise<{ page: Page; account: string }> {
  const page = await (await browser.newContext({ locale })).newPage();
  await logInThroughApi(page, 'aurora');
  await page.goto(channelUrl('aurora', '/mine'));
  const account = (await page.getByTestId('mine-account-id').textContent())!.replace(/\s/g, '');
  return { page, account };
}

/** axe-core's critical and serious violations of the page (WCAG 2 A and AA, as e2e/accessibility.spec.ts checks). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const standing = (page: Page) => page.getByTestId('priority-standing');
const button = (page: Page) => page.getByTestId('buy-button');

test('after the decision an eligible buyer buys early, and one who is not sees when the sale opens', async ({ browser }) => {
  test.setTimeout(240_000);
  const ops = await consoleCaller(browser);
  const invited = await buyer(browser, 'en');
  const other = await buyer(browser, 'en');
  const zh = await buyer(browser, 'zh-CN');

  const code = `priority-${Date.now().toString(36)}`;
  const startsAt = Date.now() + 95_000;
  const opensAt = startsAt - 60_000;
  const decideAt = Date.now() + 20_000;
  const made = await ops('/ops/api/sale/create', {
    channel: 'AURORA',
    code,
    collectible: 'aurora-dawn',
    price: 100,
    copies: 2,
    limitPerUser: 1,
    saleStartTime: new Date(startsAt).toISOString(),
    saleEndTime: null,
    listed: false,
    sort: 0,
  });
  expect(made.code, made.message).toBe(200);
  const saleId = /\/goods\/detail\/(\d+)$/.exec(String(made.data?.storePath))![1]!;
  const set = await ops('/ops/api/sale/priority/set', {
    channel: 'AURORA',
    sale: code,
    priority: { minutesEarly: 1, holderCollectibles: [], minPaidOrders: 1000, decideAt: new Date(decideAt).toISOString() },
  });
  expect(set.code, set.message).toBe(200);
  const listed = await ops('/ops/api/sale/priority/whitelist', { channel: 'AURORA', sale: code, csv: `${invited.account}\n` });
  expect(listed, listed.message).toMatchObject({ code: 200, data: { imported: 1, refused: [] } });
  const goods = channelUrl('aurora', `/goods/detail/${saleId}`);

  // Before the decision: the line under the status, and when eligibility is decided.
  await invited.page.goto(goods);
  await expect(invited.page.getByTestId('priority-line')).toContainText(
    /^Priority purchase: eligible buyers can buy from \d\d-\d\d \d\d:\d\d, 1 minute early — buyers with 1,000 paid orders or invited buyers$/,
  );
  await expect(standing(invited.page)).toHaveText(/^Eligibility is decided at \d\d-\d\d \d\d:\d\d\.$/);
  await expect(button(invited.page)).toHaveText(/^Opens in 00:01:\d\d$/);
  await invited.page.getByTestId('priority-line').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await invited.page.screenshot({ path: `${SHOTS}/priority-aurora-en-pending.png` });

  // A visitor reads the same line, and is asked to log in to learn their own standing (and comes back here).
  const visitor = await (await browser.newContext({ locale: 'en' })).newPage();
  await arriveFromOwnAddress(visitor.context());
  await visitor.goto(goods);
  await expect(visitor.getByTestId('priority-line')).toContainText('Priority purchase: eligible buyers can buy from');
  await expect(visitor.getByRole('link', { name: 'Log in to see whether you can buy early.' })).toHaveAttribute(
    'href',
    `/login?redirect=${encodeURIComponent(`/goods/detail/${saleId}`)}`,
  );
  await visitor.context().close();

  // After it, without a reload: the invited buyer may buy early; the other is told when the sale opens to everyone.
  await expect(standing(invited.page)).toHaveText(/^You can buy from \d\d-\d\d \d\d:\d\d \(priority purchase\)\.$/, {
    timeout: 40_000,
  });
  await other.page.goto(goods);
  await expect(standing(other.page)).toHaveText(
    /^You are not eligible for priority purchase; the sale opens to everyone at \d\d-\d\d \d\d:\d\d\.$/,
  );
  await other.page.getByTestId('priority-line').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await other.page.screenshot({ path: `${SHOTS}/priority-aurora-en-not-eligible.png` });
  expect(await violations(other.page)).toEqual([]);
  await zh.page.goto(goods);
  await expect(zh.page.getByTestId('priority-line')).toContainText('优先购：符合条件的买家');
  await expect(standing(zh.page)).toHaveText(/^你不符合优先购条件；本次发售 \d\d-\d\d \d\d:\d\d 对所有人开放。$/);
  await zh.page.getByTestId('priority-line').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await zh.page.screenshot({ path: `${SHOTS}/priority-aurora-zh-not-eligible.png` });

  // The early opening: "Buy now" for the invited buyer only, who buys through the pay page and the cashier.
  await expect(button(invited.page)).toHaveText('Buy now', { timeout: Math.max(0, opensAt - Date.now()) + 15_000 });
  expect(Date.now()).toBeLessThan(startsAt);
  await invited.page.getByTestId('priority-line').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await invited.page.screenshot({ path: `${SHOTS}/priority-aurora-en-eligible.png` });
  expect(await violations(invited.page)).toEqual([]);
  await expect(button(other.page)).toHaveText(/^Opens in 00:00:\d\d$/);
  await button(invited.page).click();
  await expect(invited.page).toHaveURL(channelUrl('aurora', `/pay/${saleId}`));
  await invited.page.getByRole('checkbox').check();
  await invited.page.getByRole('button', { name: 'Pay now' }).click();
  await expect(invited.page).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  await invited.page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(invited.page).toHaveURL(/\/pay\/success\?orderNo=\d{22}$/);
  expect(Date.now()).toBeLessThan(startsAt);

  // The other buyer's bar still counts down to the opening for everyone.
  await expect(button(other.page)).toHaveText(/^Opens in 00:00:\d\d$/);
});
