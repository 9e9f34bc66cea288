import { expect, test, type Page } from '@playwright/test';
import { enrolOwner, OPS, signInOwner } from './console-owner';
import { PORT } from './support';
import { startFakeDns } from '../test/dns-server';

// issue 31, "A change shows on the next page view of that channel on every server process, not only the one that
// took it", and the issue's journey: the owner works in the console on the first server; the store is looked at on the
// second (playwright.servers.config.ts: two server processes on one PostgreSQL). The second server's next page load
// after the change is the one asserted: no waiting, no reload until it shows.
const SECOND_PORT = Number(process.env.E2E_SECOND_PORT ?? PORT + 1);
const DNS_PORT = Number(process.env.E2E_SERVERS_DNS_PORT ?? 5396);
const onSecond = (host: string, path = '/') => `http://${host}:${SECOND_PORT}${path}`;
const DOMAIN = 'shop.example.test';

const skinColour = (p: Page) => p.locator('html').evaluate((html) => getComputedStyle(html).getPropertyValue('--skin-color1').trim());

test.describe.serial('two server processes', () => {
  let dns: Awaited<ReturnType<typeof startFakeDns>>;
  test.beforeAll(async () => {
    dns = await startFakeDns(DNS_PORT);
  });
  test.afterAll(async () => {
    await dns.close();
  });

  test('the owner enrols and signs in on the first server; the second serves the same store', async ({ page }) => {
    await enrolOwner(page, 'the owner of two servers');
    await signInOwner(page);
    await expect(page.locator('tr[data-channel="AURORA"]')).toBeVisible();
    await page.goto(onSecond('aurora.localhost'));
    await expect(page.getByTestId('sale-list')).toBeVisible();
  });

  test('a skin published on the first server shows on the second server’s next page load', async ({ page, browser }) => {
    test.setTimeout(120_000);
    // A buyer on the second server: the home page is in that server's page cache with the old skin.
    const buyer = await (await browser.newContext()).newPage();
    await buyer.goto(onSecond('aurora.localhost'));
    const before = await skinColour(buyer);
    await buyer.goto(onSecond('aurora.localhost'));
    expect(await skinColour(buyer)).toBe(before);

    await signInOwner(page);
    await page.goto(`${OPS}/channels/AURORA/skin`);
    const colour = before === '#7e22ce' ? '#1d4ed8' : '#7e22ce';
    await page.locator('#skin-color1').fill(colour);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Published. Buyers see the new skin on their next page view.')).toBeVisible();

    await buyer.goto(onSecond('aurora.localhost'));
    expect(await skinColour(buyer)).toBe(colour);
    await buyer.context().close();
  });

  test('a domain added and verified on the first server is served by the second, which may get it a certificate', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(onSecond(DOMAIN));
    await expect(page.getByRole('heading', { name: 'Store not found' })).toBeVisible();

    await signInOwner(page);
    await page.goto(`${OPS}/channels/AURORA/domains`);
    await page.getByLabel('Domain', { exact: true }).fill(DOMAIN);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const txt = page.locator('tr[data-record="TXT"]');
    await expect(txt).toContainText(`_storefront-verify.${DOMAIN}`);
    dns.zone.cname.set(DOMAIN, 'stores.e2e.test');
    dns.zone.txt.set(`_storefront-verify.${DOMAIN}`, [(await txt.locator('td').nth(2).textContent())!.trim()]);
    const row = page.locator(`tr[data-host="${DOMAIN}"]`);
    await row.getByRole('button', { name: 'Verify now' }).click();
    await expect(row).toContainText('Verified');

    await page.goto(onSecond(DOMAIN));
    await expect(page.getByTestId('sale-list')).toBeVisible();
    expect((await page.request.get(`http://127.0.0.1:${SECOND_PORT}/api/tls/ask?domain=${DOMAIN}`)).status()).toBe(200);
  });
});
