import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createConsoleSale, inZone, OPS, signInOwner } from './console-owner';
import { logInThroughApi } from './api-login';
import { channelUrl } from './support';

// issue 35, "Priority purchase (优先购)", the console's side: the owner turns priority purchase on for a new sale on its
// page (a decision after the early opening is refused at its field first), saves it, imports a whitelist with a row
// that is no account number and one of a buyer this store does not have (both named, with their lines), and once the
// decision's time came sees the section read-only with the eligible buyers' count. Screens at 1280×800 and 820×1180,
// in English and Chinese (CONSOLE_SHOTS). Runs after e2e/console.spec.ts (project console-areas), as the owner it
// enrolled.

const SHOTS = process.env.CONSOLE_SHOTS;
const ZONE = 'Asia/Shanghai'; // AURORA's time zone

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

let signedIn: BrowserContext;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ browser }) => {
  signedIn = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInOwner(await signedIn.newPage());
});
test.afterAll(() => signedIn.close());

test('the owner sets priority purchase on a sale, imports a whitelist with bad rows named, and sees the decision', async ({ browser }) => {
  test.setTimeout(180_000);
  // A buyer of AURORA, whose account number (Mine) goes on the whitelist.
  const buyer = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en' })).newPage();
  await logInThroughApi(buyer, 'aurora');
  await buyer.goto(channelUrl('aurora', '/mine'));
  const account = (await buyer.getByTestId('mine-account-id').textContent())!.replace(/\s/g, '');
  expect(account).toMatch(/^\d{10}$/);
  await buyer.context().close();

  const page = await signedIn.newPage();
  const saleCode = `priority-${Date.now().toString(36)}`;
  const startsAt = Date.now() + 3_600_000;
  const made = await createConsoleSale(page, { code: saleCode, copies: 2, startsAt });
  expect(made, made.message).toMatchObject({ code: 200 });

  await page.goto(`${OPS}/channels/AURORA/sales/${saleCode}`);
  const section = page.getByTestId('sale-priority');
  await expect(section.getByRole('heading', { name: 'Priority purchase' })).toBeVisible();
  const enable = section.getByRole('checkbox', { name: 'Open early to eligible buyers' });
  await expect(enable).not.toBeChecked();
  await enable.check();

  // A decision after the early opening (the opening less 10 minutes): refused at the decision's field.
  await section.getByLabel('Minutes early').fill('10');
  await section.getByRole('checkbox', { name: 'Aurora Dawn aurora-dawn', exact: true }).check();
  await section.getByLabel(`Eligibility decided at (${ZONE})`).fill(inZone(startsAt - 5 * 60_000));
  await section.getByRole('button', { name: 'Save priority purchase' }).click();
  await expect(section.locator('#priority-decideAt-error')).toBeVisible();
  await expect(section.getByLabel(`Eligibility decided at (${ZONE})`)).toHaveAttribute('aria-invalid', 'true');
  await expect(section.getByTestId('priority-facts')).toHaveCount(0);
  await shot(page, 'priority-refused-1280');

  // Right: decided in 25 s; holders of no collectible this time, buyers with 1000 paid orders (nobody) and the list.
  const decideAt = Date.now() + 25_000;
  await section.getByRole('checkbox', { name: 'Aurora Dawn aurora-dawn', exact: true }).uncheck();
  await section.getByLabel('At least this many paid orders (optional)').fill('1000');
  await section.getByLabel(`Eligibility decided at (${ZONE})`).fill(inZone(decideAt));
  await section.getByRole('button', { name: 'Save priority purchase' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved.');
  await expect(section.getByTestId('priority-facts')).toContainText('Eligibility is decided at');
  const whitelist = section.getByTestId('priority-whitelist');
  await expect(whitelist.getByTestId('priority-whitelist-count')).toHaveText('Nobody on the list');

  // The list: a header, the buyer, a row that is no account number, a number nobody here has, the buyer again.
  await whitelist.getByLabel('Account numbers (CSV)').fill(`account_number\n${account}\nnot-a-number\n1000000001\n${account}\n`);
  await whitelist.getByRole('button', { name: 'Import the list' }).click();
  await expect(whitelist.getByTestId('priority-imported')).toHaveText('Imported 1 account.');
  await expect(whitelist.getByTestId('priority-whitelist-count')).toHaveText('1 buyer on the list');
  const refused = whitelist.getByTestId('priority-refused').getByRole('listitem');
  await expect(refused).toHaveCount(3);
  await expect(refused.nth(0)).toHaveText(/^Line 3: “not-a-number” — .+/);
  await expect(refused.nth(1)).toHaveText(/^Line 4: “1000000001” — .+/);
  await expect(refused.nth(2)).toHaveText(new RegExp(`^Line 5: “${account}” — .+`));
  await shot(page, 'priority-imported-1280');
  await page.setViewportSize({ width: 820, height: 1180 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
  await shot(page, 'priority-imported-820');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The decision's time: read-only, the eligible count (the buyer on the list).
  await expect
    .poll(
      async () => {
        await page.reload();
        return section.getByTestId('priority-decided').count();
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe(1);
  await expect(section.getByTestId('priority-eligible')).toHaveText('Eligible: 1 buyer');
  await expect(section.getByLabel('Minutes early')).toBeDisabled();
  await expect(section.getByRole('button', { name: 'Save priority purchase' })).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Import the list' })).toHaveCount(0);
  await shot(page, 'priority-decided-1280');
  await page.setViewportSize({ width: 820, height: 1180 });
  await shot(page, 'priority-decided-820');

  // In Chinese.
  const zh = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    storageState: await signedIn.storageState(),
  });
  const zhPage = await zh.newPage();
  await zhPage.goto(`${OPS}/channels/AURORA/sales/${saleCode}`);
  await expect(zhPage.getByTestId('sale-priority').getByRole('heading', { name: '优先购' })).toBeVisible();
  await expect(zhPage.getByTestId('priority-eligible')).toHaveText('符合条件：1 人');
  await shot(zhPage, 'priority-zh-1280');
  await zhPage.setViewportSize({ width: 820, height: 1180 });
  await shot(zhPage, 'priority-zh-820');
  await zh.close();
});
