import { expect, test, type Page } from '@playwright/test';
import { codeAt, E2E_OWNER, e2eOwner, freshOwnerCode, OPS, takeRecoveryCode } from './operator-key';

// issue 31, the team: an owner signed in with a recovery code invites a manager of AURORA, which asks for the password
// and a code again (the re-auth dialog) and lands after it; the manager enrols and sees only AURORA; a grant change
// within the confirmation's 5 minutes lands without asking; the owner disables the manager, and
// the manager's open page is refused on its next call and sent to sign-in on its next load. Desktop (1280 × 800), with
// the Team page checked on a tablet (820 × 1180) and in Chinese.

const SHOTS = process.env.CONSOLE_SHOTS;
const MANAGER_PASSWORD = 'the aurora manager chose this';

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

test('an owner runs the team: an invitation behind the re-auth dialog, enrolment, a grant change, and disabling', async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = await e2eOwner(browser);
  const name = `aurora.${Date.now().toString(36)}`;

  // The owner signs in with a recovery code: in, but without the fresh TOTP proof a sensitive write needs.
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const ownerPage = await ownerContext.newPage();
  await ownerPage.goto(`${OPS}/sign-in`);
  await ownerPage.getByLabel('Account name').fill(E2E_OWNER);
  await ownerPage.getByLabel('Password').fill(owner.password);
  await ownerPage.getByLabel('Code', { exact: true }).fill(takeRecoveryCode(owner));
  await ownerPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(ownerPage).toHaveURL(`${OPS}/channels`);
  await ownerPage.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Team' }).click();
  await expect(ownerPage.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  await expect(ownerPage.locator(`tr[data-operator="${E2E_OWNER}"]`)).toContainText('Every channel');

  // Invite a manager of AURORA: the one-time link is shown once, with its expiry and a copy button.
  const invite = ownerPage.getByRole('form', { name: 'Invite an operator' });
  await invite.getByLabel('Account name').fill(name);
  await invite.getByLabel('Role').selectOption('manager');
  await invite.getByLabel('AURORA').check();
  await invite.getByRole('button', { name: 'Invite' }).click();
  // Inviting is a sensitive write (a new account: red team): the re-auth dialog asks for the password and a code, and
  // the invitation is sent once they are confirmed.
  const dialog = ownerPage.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await expect(ownerPage.getByTestId('one-time-link')).toHaveCount(0);
  await shot(ownerPage, 'team-reauth-1280');
  await dialog.getByLabel('Password').fill(owner.password);
  await dialog.getByLabel('Code').fill(freshOwnerCode(owner));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  const link = ownerPage.getByTestId('one-time-link');
  await expect(link).toHaveText(/^http:\/\/ops\.localhost:\d+\/enrol\/[A-Za-z0-9_-]+$/);
  await expect(ownerPage.getByRole('status')).toContainText(`Send this one-time link to ${name}`);
  await expect(ownerPage.getByRole('status')).toContainText(/works once, until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(ownerPage.getByRole('button', { name: 'Copy' })).toBeVisible();
  const enrolUrl = (await link.textContent())!;
  const row = ownerPage.locator(`tr[data-operator="${name}"]`);
  await expect(row.getByTestId('operator-status')).toHaveText('Invited');
  await shot(ownerPage, 'team-1280');
  await ownerPage.setViewportSize({ width: 820, height: 1180 });
  expect(await ownerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
  // On a tablet the tables fit their boxes: every row's actions (and a key's Revoke) are on the screen.
  for (const table of await ownerPage.locator('table').all()) {
    expect(await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBe(0);
  }
  const disable = (await row.getByRole('button', { name: 'Disable' }).boundingBox())!;
  expect(disable.x + disable.width).toBeLessThanOrEqual(820);
  await shot(ownerPage, 'team-820');
  await ownerPage.setViewportSize({ width: 1280, height: 800 });

  // The manager enrols from the link and signs in: AURORA only.
  const managerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const managerPage = await managerContext.newPage();
  await managerPage.goto(enrolUrl);
  const secret = (await managerPage.getByTestId('totp-secret').textContent())!.trim();
  await managerPage.getByLabel('Password', { exact: true }).fill(MANAGER_PASSWORD);
  await managerPage.getByLabel('Password again').fill(MANAGER_PASSWORD);
  await managerPage.getByLabel('Code from the app').fill(codeAt(secret, Date.now()));
  await managerPage.getByRole('button', { name: 'Finish setting up' }).click();
  await expect(managerPage.getByRole('heading', { name: 'Your account is ready' })).toBeVisible();
  await managerPage.goto(`${OPS}/sign-in`);
  await managerPage.getByLabel('Account name').fill(name);
  await managerPage.getByLabel('Password').fill(MANAGER_PASSWORD);
  await managerPage.getByLabel('Code', { exact: true }).fill(codeAt(secret, Date.now() + 30_000));
  await managerPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(managerPage).toHaveURL(`${OPS}/channels`);
  await expect(managerPage.locator('tr[data-channel]')).toHaveCount(1);
  await expect(managerPage.locator('tr[data-channel="AURORA"]')).toBeVisible();

  // A grant change, within the 5 minutes the confirmation counts: no dialog this time.
  await ownerPage.reload();
  await expect(row.getByTestId('operator-status')).toHaveText('Active');
  await row.getByRole('button', { name: 'Change role and channels' }).click();
  await row.getByLabel('LUMEN').check();
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByTestId('operator-channels')).toHaveText('AURORA, LUMEN');
  await expect(dialog).toBeHidden();
  await managerPage.reload();
  await expect(managerPage.locator('tr[data-channel]')).toHaveCount(2);

  // The manager has the Team page open (their API keys) when the owner disables them.
  await managerPage.goto(`${OPS}/team`);
  await expect(managerPage.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(managerPage.getByRole('heading', { name: 'Operators' })).toHaveCount(0);
  ownerPage.once('dialog', (confirm) => void confirm.accept());
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByTestId('operator-status')).toHaveText('Disabled');

  // Their open page's next call is refused; a page load goes to sign-in.
  const keyForm = managerPage.getByRole('form', { name: 'Create an API key' });
  await keyForm.getByLabel('Label').fill('after disabling');
  await keyForm.getByRole('button', { name: 'Create key' }).click();
  await expect(keyForm.getByRole('alert')).toHaveText('You are not signed in, or your session has ended. Please sign in.');
  await managerPage.reload();
  await expect(managerPage).toHaveURL(`${OPS}/sign-in`);

  // The Team page in Chinese.
  const zh = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    storageState: await ownerContext.storageState(),
  });
  const zhPage = await zh.newPage();
  await zhPage.goto(`${OPS}/team`);
  await expect(zhPage.getByRole('heading', { name: '团队', level: 1 })).toBeVisible();
  await shot(zhPage, 'team-zh-1280');
  await Promise.all([zh.close(), ownerContext.close(), managerContext.close()]);
});
