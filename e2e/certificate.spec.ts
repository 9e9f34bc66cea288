import { expect, test, type Browser, type Page } from '@playwright/test';
import { consoleCaller } from './operator-key';
import { logInThroughApi } from './api-login';
import { arriveFromOwnAddress } from './buyers';
import { channelUrl } from './support';
import { SEED_UNANSWERED_GIFT } from '../lib/demo/seed-data';

// issue 36, a held collectible's own page (docs/gifting.md, "Certificate"). On AURORA: A buys a Star Fox; its card shows
// the token id short and opens the certificate with the full token id, which its copy button copies. B's gift code
// (Mine's account-number row) is a QR of the link that opens A's editions to give to B; A gives through it, B accepts,
// and B's certificate names A as the giver and in the provenance. The public page, opened by a stranger, has no owner
// actions. The 72 h return: the demo seeds a gift made 73 h before it ran (the server's clock, not the browser's):
// its receiver has nothing waiting and its sender has the edition back with a "returned" record. Shot in both languages
// (AURORA in English, BAZAAR in Chinese) at 390×844.

const SHOTS = 'e2e/.artifacts';
const PHONE = { width: 390, height: 844 };

test.use({ viewport: PHONE });

/** A new buyer of `channel` buys one of the sale named so at the sandbox cashier, in either language; answers `#n/m`. */
async function buyOne(page: Page, channel: string, saleName: string): Promise<string> {
  await page.goto(channelUrl(channel, '/'));
  const href = await page.getByTestId('sale-card').filter({ hasText: saleName }).first().getAttribute('href');
  const saleId = /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
  await page.goto(channelUrl(channel, `/pay/${saleId}`));
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: /^(Pay now|立即支付)$/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  await page.getByRole('button', { name: /^(Pay|支付)$/ }).click();
  await expect(page).toHaveURL(/\/pay\/success\?orderNo=\d{22}$/);
  return (await page.getByTestId('pay-success-editions').getByRole('listitem').first().textContent())!.trim();
}

/** The collection's card of this edition (`#n/m`). */
function card(page: Page, edition: string) {
  return page.getByTestId('holding').filter({ has: page.getByTestId('holding-edition').getByText(edition, { exact: true }) });
}

/** Opens the certificate of this edition from the collection, once the chain ledger has recorded it. */
async function openCertificate(page: Page, channel: string, edition: string): Promise<void> {
  await expect(async () => {
    await page.goto(channelUrl(channel, '/mine/collection'));
    await expect(card(page, edition).getByTestId('holding-chain')).toContainText(/On chain|已上链/, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await card(page, edition).getByTestId('holding-open').click();
  await expect(page).toHaveURL(/\/mine\/collection\/\d+$/);
  await expect(page.getByTestId('certificate-edition')).toHaveText(edition);
}

/** The page shows nothing wider than the screen (no id pushes the page sideways). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** Waits for the page's transitions to end (a page opened by a tap slides in), so a shot shows it at rest. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

async function stranger(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: PHONE });
  await arriveFromOwnAddress(context);
  return context.newPage();
}

test('the certificate: full ids with copy, a gift through the gift code, provenance, the public view', async ({ browser }) => {
  test.setTimeout(240_000);
  const ops = await consoleCaller(browser);
  const setHours = async (holdingHours: number) => {
    const saved = await ops('/ops/api/channel/saveHoldingPeriod', { channel: 'AURORA', holdingHours });
    expect(saved.code, saved.message).toBe(200);
  };

  const aContext = await browser.newContext({ locale: 'en', viewport: PHONE });
  await aContext.grantPermissions(['clipboard-read', 'clipboard-write']);
  const a = await aContext.newPage();
  const aPhone = await logInThroughApi(a, 'aurora');
  const aName = `****${aPhone.slice(-4)}`;
  const edition = await buyOne(a, 'aurora', 'Star Fox');

  const bContext = await browser.newContext({ locale: 'en', viewport: PHONE });
  await bContext.grantPermissions(['clipboard-read', 'clipboard-write']);
  const b = await bContext.newPage();
  const bPhone = await logInThroughApi(b, 'aurora');
  const bName = `****${bPhone.slice(-4)}`;

  try {
    // The card keeps the token id short; a tap opens the certificate, where it is whole and copies whole.
    await openCertificate(a, 'aurora', edition);
    const token = (await a.getByTestId('certificate-token').textContent())!;
    expect(token).toMatch(/^\d{10,}$/);
    await a.goBack();
    await expect(card(a, edition).getByTestId('holding-token')).toHaveText(`${token.slice(0, 6)}…${token.slice(-6)}`);
    await settled(a);
    await a.screenshot({ path: `${SHOTS}/certificate-collection-en.png` });
    await card(a, edition).getByTestId('holding-open').click();
    await expect(a.getByTestId('certificate-tx')).toHaveText(/^0x[0-9a-f]{64}$/);
    await expect(a.getByTestId('certificate-acquired')).toHaveText(/^Bought on \d{4}-\d\d-\d\d$/);
    await expect(a.getByTestId('certificate-holder')).toHaveText(aName);
    await expect(a.getByTestId('certificate-provenance')).toContainText(aName);
    // Inside the holding period (AURORA's 24 hours): Give is disabled and says from when and why.
    await expect(a.getByTestId('certificate-give-disabled')).toHaveText(/^Give from \d{4}-\d\d-\d\d \d\d:\d\d$/);
    await a.getByTestId('certificate-token-copy').click();
    await expect(a.getByTestId('certificate-token-copy')).toHaveText('Copied');
    expect(await a.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await expectNoSidewaysScroll(a);
    await settled(a);
    await a.screenshot({ path: `${SHOTS}/certificate-owner-en.png`, fullPage: true });

    // B's gift code: on Mine's account-number row, a QR sheet with the number under it.
    await b.goto(channelUrl('aurora', '/mine'));
    const bNumber = (await b.getByTestId('mine-account-id').textContent())!.replace(/\D/g, '');
    await settled(b);
    await b.screenshot({ path: `${SHOTS}/certificate-mine-en.png` });
    await b.getByTestId('mine-gift-code').click();
    await expect(b).toHaveURL(/\/mine\/gift-code$/);
    await expect(b.getByTestId('gift-code-number')).toHaveText(bNumber.replace(/(\d{3})(\d{3})(\d{4})/, '$1 $2 $3'));
    await expect(b.getByRole('img', { name: `QR code that opens giving to account number ${bNumber}` })).toBeVisible();
    await settled(b);
    await b.screenshot({ path: `${SHOTS}/certificate-gift-code-en.png`, fullPage: true });

    // A scans it (the link it holds: lib/transfer/gift-code.ts, decoded in components/collection/qr-code.test.tsx): a
    // visitor logs in first and comes back; A, signed in, sees the editions they can give. Once the holding period is
    // waited out (0 hours: the server's clock is not the browser's), the Star Fox is among them.
    const scanned = `/mine/collection/give-to/${bNumber}`;
    const visitor = await stranger(browser, 'en');
    await visitor.goto(channelUrl('aurora', scanned));
    await expect(visitor).toHaveURL(new RegExp(`/login\\?redirect=${encodeURIComponent(scanned).replace(/\//g, '%2F')}$`));
    await visitor.context().close();
    await setHours(0);
    await a.goto(channelUrl('aurora', scanned));
    const pick = a.getByTestId('give-to-edition').filter({ hasText: edition });
    await expect(pick).toHaveCount(1);
    await settled(a);
    await a.screenshot({ path: `${SHOTS}/certificate-give-to-en.png`, fullPage: true });
    await pick.click();
    await expect(a).toHaveURL(new RegExp(`/mine/gifts/give/\\d+\\?to=${bNumber}$`));
    await expect(a.getByTestId('give-account')).toHaveValue(bNumber);
    await a.getByRole('button', { name: 'Find' }).click();
    await expect(a.getByTestId('give-receiver-name')).toHaveText(bName);
    await a.getByTestId('give-receiver').getByRole('button', { name: 'Give' }).click();
    await a.getByRole('dialog').getByRole('button', { name: 'Give' }).click();
    await expect(a.getByTestId('give-sent')).toContainText(`Gift sent to ${bName}`);

    await b.goto(channelUrl('aurora', '/mine/gifts'));
    const gift = b.getByTestId('gift-incoming').filter({ hasText: edition });
    await gift.getByTestId('gift-accept').click();
    await b.getByRole('dialog').getByRole('button', { name: 'Accept' }).click();
    await expect(b.getByTestId('gift-incoming').filter({ hasText: edition })).toHaveCount(0);

    // B's certificate: received from A, A then B in the provenance, the same token id.
    await openCertificate(b, 'aurora', edition);
    await expect(b.getByTestId('certificate-acquired')).toHaveText(
      new RegExp(`^Received as a gift from ${aName.replace(/\*/g, '\\*')} on \\d{4}-\\d\\d-\\d\\d$`),
    );
    await expect(b.getByTestId('certificate-holder-row')).toHaveCount(2);
    await expect(b.getByTestId('certificate-holder-row').first()).toContainText(aName);
    await expect(b.getByTestId('certificate-holder-row').last()).toContainText(bName);
    await expect(b.getByTestId('certificate-token')).toHaveText(token);
    await b.getByTestId('share-copy').click();
    await expect(b.getByTestId('share-copy-status')).toHaveText('Link copied');
    const publicLink = await b.evaluate(() => navigator.clipboard.readText());
    expect(publicLink).toMatch(/^http:\/\/aurora\.localhost:\d+\/cert\/[A-Za-z0-9_-]{22}$/);
    // Its code is not the holding's id (the owner's page is /mine/collection/<id>).
    expect(publicLink.split('/').pop()).not.toBe(new URL(b.url()).pathname.split('/').pop());
    // The share poster of the edition: a picture the phone can press and hold to save, whose QR code is that link.
    await b.getByTestId('share-poster-button').click();
    const poster = b.getByTestId('share-poster').getByRole('img');
    await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 }).toBe(750);
    expect(await poster.getAttribute('src')).toBe(`/api/share/poster/cert/${publicLink.split('/').pop()}`);
    await b.screenshot({ path: `${SHOTS}/certificate-poster-en.png`, fullPage: true });

    // The public view, in a fresh context: the certificate as B holds it, no owner actions, a link preview.
    const viewer = await stranger(browser, 'en');
    await viewer.goto(publicLink);
    await expect(viewer.getByTestId('certificate-edition')).toHaveText(edition);
    await expect(viewer.getByTestId('certificate-holder')).toHaveText(bName);
    await expect(viewer.getByTestId('certificate-holder-row').first()).toContainText(aName);
    await expect(viewer.getByTestId('certificate-token')).toHaveText(token);
    await expect(viewer.getByTestId('certificate-actions')).toHaveCount(0);
    await expect(viewer.getByRole('link', { name: 'Give' })).toHaveCount(0);
    await expect(viewer.locator('meta[property="og:title"]')).toHaveAttribute('content', `Star Fox ${edition.split('/')[0]}`);
    await expect(viewer.locator('meta[property="og:image"]')).toHaveAttribute('content', /^http:\/\/aurora\.localhost:\d+\//);
    expect(await viewer.content()).not.toContain(bPhone);
    await expectNoSidewaysScroll(viewer);
    await settled(viewer);
    await viewer.screenshot({ path: `${SHOTS}/certificate-public-en.png`, fullPage: true });
    // An unknown code is the store's 404.
    await viewer.goto(channelUrl('aurora', '/cert/AAAAAAAAAAAAAAAAAAAAAA'));
    await expect(viewer).toHaveURL(/\/404$/);
    await viewer.context().close();

    // A no longer holds it: A's certificate of it is an unknown page.
    await a.goto(channelUrl('aurora', new URL(b.url()).pathname));
    await expect(a).toHaveURL(/\/404$/);
  } finally {
    await setHours(24);
  }
});

test('an unanswered gift comes back after 72 hours: nothing waits for the receiver, the sender has it again', async ({ browser }) => {
  test.setTimeout(120_000);
  const gift = SEED_UNANSWERED_GIFT;
  const receiverContext = await browser.newContext({ locale: 'en', viewport: PHONE });
  const receiver = await receiverContext.newPage();
  await logInThroughApi(receiver, 'aurora', gift.receiver.phone);
  await receiver.goto(channelUrl('aurora', '/mine/gifts'));
  await expect(receiver.getByTestId('gifts-empty')).toBeVisible();
  await expect(receiver.getByTestId('gift-incoming')).toHaveCount(0);

  const senderContext = await browser.newContext({ locale: 'en', viewport: PHONE });
  const sender = await senderContext.newPage();
  await logInThroughApi(sender, 'aurora', gift.sender.phone);
  await sender.goto(channelUrl('aurora', '/mine/gifts/records'));
  const record = sender.locator('[data-testid="gift-record"][data-direction="sent"]');
  await expect(record).toHaveCount(1);
  await expect(record).toHaveAttribute('data-status', 'expired');
  await expect(record).toContainText('Returned: not answered in 72 hours');
  await expect(record).toContainText('To M****n');
  await sender.goto(channelUrl('aurora', '/mine/collection'));
  await expect(sender.getByTestId('holding').filter({ hasText: 'Jade Dragon' })).toHaveCount(1);
});

test('the certificate and the gift code in Chinese (BAZAAR)', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ locale: 'zh-CN', viewport: PHONE });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const phone = await logInThroughApi(page, 'bazaar');
  const edition = await buyOne(page, 'bazaar', '夜市狐狸');
  await openCertificate(page, 'bazaar', edition);
  await expect(page.getByTestId('certificate-acquired')).toHaveText(/^\d{4}-\d\d-\d\d 购买$/);
  await expect(page.getByTestId('certificate-holder')).toHaveText(`****${phone.slice(-4)}`);
  await expect(page.getByTestId('certificate-give-disabled')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d 起可转赠$/);
  await expectNoSidewaysScroll(page);
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/certificate-owner-zh.png`, fullPage: true });

  await page.getByTestId('share-copy').click();
  await expect(page.getByTestId('share-copy-status')).toHaveText('链接已复制');
  const publicLink = await page.evaluate(() => navigator.clipboard.readText());
  const viewer = await stranger(browser, 'zh-CN');
  await viewer.goto(publicLink);
  await expect(viewer.getByTestId('certificate-edition')).toHaveText(edition);
  await expect(viewer.getByTestId('certificate-public-note')).toHaveText('本页公开可见，持有人仅以打码昵称显示。');
  await expect(viewer.getByTestId('certificate-actions')).toHaveCount(0);
  await expectNoSidewaysScroll(viewer);
  await settled(viewer);
  await viewer.screenshot({ path: `${SHOTS}/certificate-public-zh.png`, fullPage: true });
  await viewer.context().close();

  await page.goto(channelUrl('bazaar', '/mine'));
  await page.getByTestId('mine-gift-code').click();
  await expect(page.getByRole('heading', { name: '我的转赠码' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/certificate-gift-code-zh.png`, fullPage: true });
  await context.close();
});
