import { expect, test, type Browser, type CDPSession, type Page } from '@playwright/test';
import { OPS, readOwner, signInOwner } from './console-owner';

// issue 31, "a second factor: TOTP … and/or a passkey (WebAuthn …; Chromium's virtual authenticator makes it
// testable)": the demo owner (enrolled with TOTP by e2e/console.spec.ts) adds a passkey on the Account page with a
// platform authenticator that verifies the user, signs out, and signs back in with name, password and the passkey in
// place of the code. Desktop first (1280 × 800) with a tablet look (820 × 1180), English and Chinese.

const SHOTS = process.env.CONSOLE_SHOTS; // a folder: the screens are saved there to be looked at

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/**
 * The page at both screens, in English (this page) and Chinese (a Chinese browser with the same cookies): nothing wider
 * than the screen; screens saved when asked.
 */
async function lookAt(page: Page, browser: Browser, name: string, heading: { en: string; zh: string }) {
  const zhContext = await browser.newContext({ locale: 'zh-CN', storageState: await page.context().storageState() });
  const zh = await zhContext.newPage();
  await zh.goto(page.url());
  for (const [lang, view, title] of [
    ['en', page, heading.en],
    ['zh', zh, heading.zh],
  ] as const) {
    await expect(view.getByRole('heading', { level: 1, name: title })).toBeVisible();
    for (const [width, height] of [
      [1280, 800],
      [820, 1180],
    ] as const) {
      await view.setViewportSize({ width, height });
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(view, `${name}-${lang}-${width}`);
    }
  }
  await zhContext.close();
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Chromium's virtual authenticator on this page: a platform one (like Touch ID) that verifies its user. */
async function platformAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test('the owner adds a passkey on the Account page, signs out, and signs in with name, password and the passkey', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000); // signInOwner may wait up to a TOTP step for a code not spent yet
  await signInOwner(page);
  const { cdp, authenticatorId } = await platformAuthenticator(page);

  await page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(`${OPS}/account`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await expect(page.getByTestId('totp')).toContainText('Set');
  await expect(page.getByTestId('recovery-left')).toContainText(/\d+ recovery codes? left/);
  await expect(page.getByText('No passkeys yet.')).toBeVisible();

  await page.getByLabel('Name of the new passkey').fill('Test laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status')).toHaveText('Passkey added.');
  const row = page.locator('tr[data-passkey="Test laptop"]');
  await expect(row).toBeVisible();
  await expect(row).toContainText('Not yet');
  // The passkey lives in the authenticator, made for the operator host.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials.map((c) => c.rpId)).toEqual([new URL(OPS).hostname]);

  await page.getByRole('button', { name: 'Rename: Test laptop' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Chromium');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('tr[data-passkey="Chromium"]')).toBeVisible();
  await lookAt(page, browser, 'account', { en: 'Your account', zh: '我的账号' });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${OPS}/sign-in`);
  await lookAt(page, browser, 'sign-in-passkey', { en: 'Sign in to the console', zh: '登录运营后台' });

  // Without the password, the passkey is not asked for.
  const owner = readOwner();
  await page.getByLabel('Account name').fill(owner.name);
  await page.getByRole('button', { name: 'Use a passkey instead of a code' }).click();
  await expect(page.getByText('Enter your account name and password first.')).toBeVisible();

  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Use a passkey instead of a code' }).click();
  await expect(page).toHaveURL(`${OPS}/channels`);
  await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();
  await expect(page.locator('tr[data-channel]').first()).toBeVisible();
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  await page.goto(`${OPS}/account`);
  await expect(page.locator('tr[data-passkey="Chromium"]')).not.toContainText('Not yet');
});
