import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { consoleCaller, type Envelope } from './operator-key';
import { logInThroughApi } from './api-login';
import { logInWithQuestion } from './login-helpers';
import { arriveFromOwnAddress } from './buyers';
import { channelUrl } from './support';
import { verifyDraw } from '../lib/sale/draw';

// issue 35, a lottery sale as its buyers see it, on a phone: the owner makes a sale of one copy and sets a lottery up
// on it through the console's API (an owner's key); two buyers register on the goods page (one a visitor sent to log in
// and back, the other tapping twice); after the close the owner runs the draw; the winner sees it and buys through the
// pay page and the sandbox's cashier, the other sees their waitlist place; the public "verify this draw" page lists the
// winner, and the file it downloads passes `npm run draw:verify`. The server's clock is real: registration opens a few
// seconds after the setup and closes half a minute later, the draw at the close.

const SHOTS = 'e2e/.artifacts';

/** A sale of `copies` on `channel`, open already (the lottery decides who may buy), and its goods page's path. */
async function lotterySale(
  ops: (path: string, body: unknown) => Promise<Envelope>,
  channel: string,
  collectible: string,
  timing: { opensInMs: number; openForMs: number },
): Promise<{ code: string; saleId: string; drawAt: number }> {
  const code = `lottery-${Date.now().toString(36)}`;
  const made = await ops('/ops/api/sale/create', {
    channel,
    code,
    collectible,
    price: 100,
    copies: 1,
    limitPerUser: 1,
    saleStartTime: new Date(Date.now() - 60_000).toISOString(),
    saleEndTime: null,
    listed: false,
    sort: 0,
    confirmPast: true,
  });
  expect(made.code, made.message).toBe(200);
  const saleId = /\/goods\/detail\/(\d+)$/.exec(String(made.data?.storePath))![1]!;
  const opens = Date.now() + timing.opensInMs;
  const closes = opens + timing.openForMs;
  const set = await ops('/ops/api/sale/lottery/set', {
    channel,
    sale: code,
    registrationOpensAt: new Date(opens).toISOString(),
    registrationClosesAt: new Date(closes).toISOString(),
    drawAt: new Date(closes).toISOString(),
    purchaseWindowMinutes: 10,
    publicValueSource: 'The closing value of the e2e index at the draw',
  });
  expect(set.code, set.message).toBe(200);
  return { code, saleId, drawAt: closes };
}

/** axe-core's critical and serious violations of the page (WCAG 2 A and AA, as e2e/accessibility.spec.ts checks). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const panel = (page: Page) => page.getByTestId('lottery-panel');
const button = (page: Page) => page.getByTestId('lottery-button');

test('a lottery on a phone: register, drawn or waitlisted, the winner buys, and anyone verifies the draw', async ({ browser }) => {
  test.setTimeout(240_000);
  const ops = await consoleCaller(browser);

  // The second buyer logs in through the API before the setup: the window is for registering.
  const tapper = await (await browser.newContext({ locale: 'en' })).newPage();
  await logInThroughApi(tapper, 'aurora');
  const visitor = await (await browser.newContext({ locale: 'en' })).newPage();
  await arriveFromOwnAddress(visitor.context());

  const { code, saleId, drawAt } = await lotterySale(ops, 'AURORA', 'aurora-dawn', { opensInMs: 5_000, openForMs: 40_000 });
  const goods = `/goods/detail/${saleId}`;

  // Before the opening: the lottery's facts, and a countdown to registration.
  await tapper.goto(channelUrl('aurora', goods));
  await expect(tapper.getByTestId('lottery-facts')).toContainText('Lottery sale');
  await expect(tapper.getByTestId('lottery-facts')).toContainText('the draw picks 1 winner');
  await expect(button(tapper)).toHaveText(/^Registration opens in 00:00:0\d$/);
  await tapper.screenshot({ path: `${SHOTS}/lottery-aurora-en-not-open.png`, fullPage: true });

  // Registration opens in the page; a double tap registers once.
  await expect(button(tapper)).toHaveText('Register for the draw', { timeout: 15_000 });
  await button(tapper).dblclick();
  await expect(panel(tapper)).toHaveAttribute('data-state', 'registered');
  const tapperAccount = /account (\d{10})/.exec((await tapper.getByTestId('lottery-standing').textContent()) ?? '')![1]!;
  await expect(button(tapper)).toHaveText(/^Draw in 00:00:\d\d$/);
  await tapper.screenshot({ path: `${SHOTS}/lottery-aurora-en-registered.png` });
  expect(await violations(tapper)).toEqual([]);

  // A visitor is sent to log in and comes back to register.
  await visitor.goto(channelUrl('aurora', goods));
  await expect(panel(visitor)).toHaveAttribute('data-state', 'visitor');
  await button(visitor).click();
  await expect(visitor).toHaveURL(/\/login\?redirect=%2Fgoods%2Fdetail%2F\d+$/);
  await logInWithQuestion(visitor);
  await expect(visitor).toHaveURL(channelUrl('aurora', goods));
  await expect(panel(visitor)).toHaveAttribute('data-state', 'open');
  await button(visitor).click();
  await expect(panel(visitor)).toHaveAttribute('data-state', 'registered');
  const visitorAccount = /account (\d{10})/.exec((await visitor.getByTestId('lottery-standing').textContent()) ?? '')![1]!;

  // The verify page before the draw: the commitment, two registrants (the double tap made one), nothing drawn yet.
  const checker = await (await browser.newContext({ locale: 'en', acceptDownloads: true })).newPage();
  await checker.goto(channelUrl('aurora', goods));
  await checker.getByTestId('lottery-verify-link').click();
  await expect(checker).toHaveURL(channelUrl('aurora', `/lottery/${saleId}`));
  await expect(checker.getByTestId('verify-registrants')).toHaveText('2');
  await expect(checker.getByTestId('verify-commitment')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(checker.getByTestId('verify-not-drawn')).toBeVisible();
  const commitment = (await checker.getByTestId('verify-commitment').textContent())!;

  // The draw, once its time came (the server refuses it earlier: 409).
  await expect
    .poll(
      async () => {
        if (Date.now() < drawAt) return 'waiting';
        const drawn = await ops('/ops/api/sale/lottery/draw', { channel: 'AURORA', sale: code, publicValue: '3712.58' });
        return drawn.code === 200 ? 'drawn' : `${drawn.code} ${drawn.message}`;
      },
      { timeout: 80_000, intervals: [1_000] },
    )
    .toBe('drawn');

  // Both pages learn the result without a reload: one copy, so one winner and one on the waitlist.
  await expect(panel(tapper)).toHaveAttribute('data-state', /^(winner|waitlist)$/, { timeout: 15_000 });
  await expect(panel(visitor)).toHaveAttribute('data-state', /^(winner|waitlist)$/, { timeout: 15_000 });
  const tapperWon = (await panel(tapper).getAttribute('data-state')) === 'winner';
  const [winner, loser] = tapperWon ? [tapper, visitor] : [visitor, tapper];
  const winnerAccount = tapperWon ? tapperAccount : visitorAccount;
  await expect(panel(loser)).toHaveAttribute('data-state', 'waitlist');
  await expect(loser.getByTestId('lottery-standing')).toHaveText(/you are number 1 on the waitlist/);
  await expect(button(loser)).toHaveText('On the waitlist');
  await loser.screenshot({ path: `${SHOTS}/lottery-aurora-en-waitlist.png` });
  await expect(winner.getByTestId('lottery-standing')).toHaveText(/^You were drawn! Buy within 00:0\d:\d\d$/);
  await winner.screenshot({ path: `${SHOTS}/lottery-aurora-en-winner.png` });
  expect(await violations(winner)).toEqual([]);

  // The winner buys as a first-come buyer does: the pay page, the sandbox's cashier, paid.
  await button(winner).click();
  await expect(winner).toHaveURL(channelUrl('aurora', `/pay/${saleId}`));
  await expect(winner.getByTestId('pay-not-admitted')).toHaveCount(0);
  await winner.getByRole('checkbox').check();
  await winner.getByRole('button', { name: 'Pay now' }).click();
  await expect(winner).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);
  await winner.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(winner).toHaveURL(/\/pay\/success\?orderNo=\d{22}$/);

  // Anyone verifies the draw: the winner listed, the waitlist, and the downloaded file passes the offline check.
  await checker.reload();
  await expect(checker.getByTestId('verify-winners')).toHaveText(new RegExp(`1\\s*${winnerAccount}`));
  await expect(checker.getByTestId('verify-waitlist')).toContainText(tapperWon ? visitorAccount : tapperAccount);
  await expect(checker.getByTestId('verify-public-value')).toHaveText('3712.58');
  await expect(checker.getByTestId('verify-seed')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(checker.getByTestId('verify-commitment')).toHaveText(commitment);
  const fileName = `draw-AURORA-${saleId}.json`;
  await expect(checker.getByTestId('verify-command')).toHaveText(`npm run draw:verify -- ${fileName}`);
  await checker.screenshot({ path: `${SHOTS}/lottery-aurora-en-verify.png`, fullPage: true });
  expect(await violations(checker)).toEqual([]);
  const [download] = await Promise.all([checker.waitForEvent('download'), checker.getByTestId('lottery-download').click()]);
  expect(download.suggestedFilename()).toBe(fileName);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lottery-')), fileName);
  await download.saveAs(file);
  const published = JSON.parse(readFileSync(file, 'utf8')) as { winners: string[]; registrants: string[]; commitment: string };
  expect(published.winners).toEqual([winnerAccount]);
  expect(published.registrants).toHaveLength(2);
  expect(published.commitment).toBe(commitment);
  expect(verifyDraw(published)).toEqual({ ok: true });
  // And the command itself, as a buyer would run it.
  const out = execFileSync('npm', ['run', '--silent', 'draw:verify', '--', file], { encoding: 'utf8' });
  expect(out.trim()).toBe('verified: 2 registrants, 1 winners, winners match');
});

test.describe('in Chinese, on a channel that asks a real name', () => {
  test.use({ locale: 'zh-CN' });

  test('a buyer who has not verified is refused registering (1010) and shown the way to verify', async ({ browser, page }) => {
    test.setTimeout(90_000);
    const ops = await consoleCaller(browser);
    await logInThroughApi(page, 'lumen');
    const { saleId } = await lotterySale(ops, 'LUMEN', 'lumen-sunrise', { opensInMs: 3_000, openForMs: 600_000 });
    await page.goto(channelUrl('lumen', `/goods/detail/${saleId}`));
    await expect(page.getByTestId('lottery-facts')).toContainText('抽签发售');
    await expect(button(page)).toHaveText('登记抽签', { timeout: 15_000 });
    // The page's real-name line (as for a first-come sale's Buy) has the way to verify and come back; the refused tap
    // says it in a toast, and registers nothing.
    const rule = page.getByTestId('identity-notice');
    await expect(rule.getByTestId('identity-verify-link')).toHaveAttribute(
      'href',
      `/mine/identity?back=${encodeURIComponent(`/goods/detail/${saleId}`)}`,
    );
    await button(page).click();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: '实名' })).toBeVisible();
    await expect(panel(page)).toHaveAttribute('data-state', 'open');
    await expect(page.getByTestId('identity-notice')).toHaveCount(1);
    await page.screenshot({ path: `${SHOTS}/lottery-lumen-zh-identity.png` });
    expect(await violations(page)).toEqual([]);
    await page.goto(channelUrl('lumen', `/lottery/${saleId}`));
    await expect(page.getByTestId('verify-not-drawn')).toContainText('尚未抽签');
    await page.screenshot({ path: `${SHOTS}/lottery-lumen-zh-verify.png`, fullPage: true });
    expect(await violations(page)).toEqual([]);
  });
});
