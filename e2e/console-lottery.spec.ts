import { createHash } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { codeAt, createConsoleSale, inZone, OPS, readOwner, signInOwner } from './console-owner';
import { logInThroughApi } from './api-login';
import { postFromPage } from './page-api';
import { channelUrl } from './support';

// issue 35, "Lottery (抽签)", the console's side: the owner turns a new sale into a lottery on its page (a close before
// the opening is refused at its field first), sees the commitment, sees the settings freeze when registration opens,
// a buyer registers through the buyer API, the owner draws with the public value after a confirmation and sees the
// winner, the waitlist, the value, the list hash and the link to the buyers' verify page; the audit trail shows both
// writes. The server's clock is real, so the times are set seconds apart. Runs after e2e/console.spec.ts (project
// console-areas), as the owner it enrolled.

const SHOTS = process.env.CONSOLE_SHOTS; // a folder: the screens are saved there to be looked at
const ZONE = 'Asia/Shanghai'; // AURORA's time zone

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Waits until the machine's clock (the server's: same machine) has passed `ms`. */
async function until(page: Page, ms: number) {
  const wait = ms - Date.now();
  if (wait > 0) await page.waitForTimeout(wait + 300);
}

// One sign-in for the file: each TOTP step signs in once.
let signedIn: BrowserContext;
let saleCode = '';
test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ browser }) => {
  signedIn = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signInOwner(await signedIn.newPage());
});
test.afterAll(() => signedIn.close());

test('the owner sets up a lottery, sees it freeze when registration opens, draws it and sees the result', async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await signedIn.newPage();
  saleCode = `lottery-${Date.now().toString(36)}`;

  // A sale of a demo collectible with no orders, opening in an hour, through the console's own call.
  const made = await createConsoleSale(page, { code: saleCode, copies: 2, startsAt: Date.now() + 3_600_000 });
  expect(made, made.message).toMatchObject({ code: 200 });

  await page.goto(`${OPS}/channels/AURORA/sales/${saleCode}`);
  const saleId = /\/goods\/detail\/(\d+)$/.exec(
    (await page.getByRole('link', { name: 'Preview the store page' }).getAttribute('href'))!,
  )![1]!;
  const section = page.getByTestId('sale-lottery');
  await expect(section.getByRole('heading', { name: 'Allocation' })).toBeVisible();
  await expect(section.getByRole('radio', { name: /First come/ })).toBeChecked();
  await section.getByRole('radio', { name: /Lottery/ }).check();
  await expect(section.getByText('The first 2 are winners and may buy')).toBeVisible();

  // A close before the opening: refused at the close's field.
  const opensAt = Date.now() + 35_000;
  await section.getByLabel(`Registration opens (${ZONE})`).fill(inZone(opensAt));
  await section.getByLabel(`Registration closes (${ZONE})`).fill(inZone(opensAt - 10_000));
  await section.getByLabel(`Draw (${ZONE})`).fill(inZone(opensAt + 20_000));
  await section.getByLabel('Winners’ time to buy (minutes)').fill('30');
  await section.getByLabel('Where the public value comes from').fill('The e2e lottery’s numbers, drawn on the day');
  await section.getByRole('button', { name: 'Set up the lottery' }).click();
  await expect(section.locator('#lottery-registrationClosesAt-error')).toHaveText('Registration must close after it opens.');
  await expect(section.getByLabel(`Registration closes (${ZONE})`)).toHaveAttribute('aria-invalid', 'true');
  await expect(section.getByTestId('lottery-commitment')).toHaveCount(0);
  await shot(page, 'lottery-refused-1280');

  // Right: the close after the opening, the draw at the close. The commitment is shown, public from now on.
  const closesAt = opensAt + 15_000;
  await section.getByLabel(`Registration closes (${ZONE})`).fill(inZone(closesAt));
  await section.getByLabel(`Draw (${ZONE})`).fill(inZone(closesAt));
  await section.getByRole('button', { name: 'Set up the lottery' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved. The commitment below is public from now on.');
  await expect(section.getByTestId('lottery-commitment')).toHaveText(/^[0-9a-f]{64}$/);
  const commitment = (await section.getByTestId('lottery-commitment').textContent())!;
  await expect(section.getByText('Public from now on: buyers and the verify page show it')).toBeVisible();
  await expect(section.getByTestId('lottery-registrants')).toHaveText('0');
  await expect(section.getByRole('radio', { name: /First come/ })).toBeDisabled();
  await expect(section.locator('#lottery-registrationClosesAt-error')).toHaveCount(0);
  await shot(page, 'lottery-set-1280');

  // A buyer logs in meanwhile; registration is not open yet.
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  await logInThroughApi(buyer, 'aurora');

  // Registration opens: the page reads the lottery again by itself and the settings are frozen, saying why.
  await until(page, opensAt);
  await expect(section.getByTestId('lottery-frozen')).toContainText('Frozen: registration opened at', { timeout: 15_000 });
  await expect(section.getByLabel(`Registration opens (${ZONE})`)).toBeDisabled();
  await expect(section.getByLabel('Where the public value comes from')).toBeDisabled();
  await expect(section.getByRole('button', { name: 'Save the lottery' })).toHaveCount(0);

  const registered = (await postFromPage(buyer, '/market/api/lottery/register', { saleId })).body.data as {
    status: string;
    accountNumber: string;
  };
  expect(registered.status).toBe('registered');
  await page.reload();
  await expect(section.getByTestId('lottery-registrants')).toHaveText('1');
  await expect(section.getByTestId('lottery-draw')).toContainText('The draw can be run from');
  await shot(page, 'lottery-frozen-1280');

  // The draw's time: the form shows with the source's words beside it; the draw asks first, then runs once.
  await until(page, closesAt);
  const draw = section.getByTestId('lottery-draw');
  await expect(draw.getByLabel('Public value')).toBeVisible({ timeout: 15_000 });
  await expect(draw.getByTestId('lottery-draw-source')).toHaveText('The e2e lottery’s numbers, drawn on the day');
  await draw.getByLabel('Public value').fill('07 19 23 31 42 + 05');
  await draw.getByRole('button', { name: 'Draw…' }).click();
  const confirm = section.getByRole('alertdialog', { name: 'Draw now?' });
  await expect(confirm).toContainText(
    'The draw runs once and cannot be undone. 1 registrant will be ranked with the value “07 19 23 31 42 + 05”',
  );
  await shot(page, 'lottery-confirm-1280');
  await confirm.getByRole('button', { name: 'Yes, draw now' }).click();

  const result = section.getByTestId('lottery-result');
  await expect(result.getByTestId('lottery-winners-count')).toHaveText('1 winner');
  await expect(result.getByTestId('lottery-winners')).toHaveText(registered.accountNumber);
  await expect(result.getByTestId('lottery-waitlist')).toHaveText('Nobody waiting');
  await expect(result.getByTestId('lottery-public-value')).toHaveText('07 19 23 31 42 + 05');
  await expect(result.getByTestId('lottery-list-hash')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(result.getByRole('link', { name: 'The buyers’ verify page' })).toHaveAttribute(
    'href',
    channelUrl('aurora', `/lottery/${saleId}`),
  );
  await expect(section.getByTestId('lottery-draw')).toHaveCount(0);
  await shot(page, 'lottery-drawn-1280');

  // What the store published: the seed revealed hashes to the commitment shown at the setup; the buyer was drawn.
  const published = (await postFromPage(buyer, '/market/api/lottery/published', { saleId })).body.data as {
    draw: { seed: string; listHash: string; winners: string[] };
  };
  expect(createHash('sha256').update(Buffer.from(published.draw.seed, 'hex')).digest('hex')).toBe(commitment);
  await expect(result.getByTestId('lottery-list-hash')).toHaveText(published.draw.listHash);
  expect((await postFromPage(buyer, '/market/api/lottery/status', { saleId })).body.data).toMatchObject({ status: 'winner', mayBuy: true });
  await buyerContext.close();

  // The audit trail: the setup and the draw, each with the lottery before and after (never the seed before the draw).
  await page.goto(`${OPS}/audit`);
  await page.getByLabel('Operator', { exact: true }).selectOption(readOwner().name);
  await page.getByLabel('Kind', { exact: true }).selectOption('sale/lottery/set');
  await page.getByRole('button', { name: 'Filter' }).click();
  const rows = page.locator('tr[data-audit-entry]');
  await expect(rows.first()).toContainText('sale/lottery/set');
  await rows.first().getByRole('link', { name: 'Open' }).click();
  const detail = page.getByTestId('audit-detail');
  await expect(detail.getByTestId('audit-before')).toContainText('"first-come"');
  await expect(detail.getByTestId('audit-after')).toContainText(commitment);
  await expect(detail.getByTestId('audit-after')).not.toContainText('seed');
  await shot(page, 'lottery-audit-set-1280');
  await page.getByLabel('Kind', { exact: true }).selectOption('sale/lottery/draw');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows.first()).toContainText('sale/lottery/draw');
  await rows.first().getByRole('link', { name: 'Open' }).click();
  await expect(detail.getByTestId('audit-input')).toContainText('07 19 23 31 42 + 05');
  await expect(detail.getByTestId('audit-after')).toContainText(published.draw.listHash);
  await shot(page, 'lottery-audit-draw-1280');
});

test('a lottery before and after its draw fits a tablet and a desktop, in English and in Chinese', async ({ browser }) => {
  test.setTimeout(120_000);
  expect(saleCode, 'the lottery drawn in the test above').not.toBe('');
  // A second lottery, registration tomorrow: its settings still editable, its commitment shown.
  const page = await signedIn.newPage();
  await page.goto(`${OPS}/channels/AURORA/sales`);
  const waiting = `lottery-${Date.now().toString(36)}`;
  const answers = await page.evaluate(
    async ({ code, opens }) => {
      const call = async (path: string, body: unknown) =>
        (await (
          await fetch(`/api/ops/api/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json()) as { code: number; message: string };
      const day = 86_400_000;
      return [
        await call('sale/create', {
          channel: 'AURORA',
          code,
          collectible: 'aurora-dawn',
          price: 1990,
          copies: 500,
          limitPerUser: 1,
          saleStartTime: new Date(opens + 2 * day).toISOString(),
          saleEndTime: null,
          listed: false,
          sort: 0,
        }),
        await call('sale/lottery/set', {
          channel: 'AURORA',
          sale: code,
          registrationOpensAt: new Date(opens).toISOString(),
          registrationClosesAt: new Date(opens + day).toISOString(),
          drawAt: new Date(opens + day + 3_600_000).toISOString(),
          purchaseWindowMinutes: 120,
          publicValueSource: 'China Welfare Lottery 3D, draw 2026322 / 福彩 3D 第 2026322 期开奖号码',
        }),
      ];
    },
    { code: waiting, opens: Date.now() + 86_400_000 },
  );
  for (const answer of answers) expect(answer, answer.message).toMatchObject({ code: 200 });

  const zh = await browser.newContext({ locale: 'zh-CN', storageState: await signedIn.storageState() });
  for (const view of [page, await zh.newPage()]) {
    const locale = view.context() === zh ? 'zh' : 'en';
    for (const [code, state] of [
      [waiting, 'set'],
      [saleCode, 'drawn'],
    ] as const) {
      await view.setViewportSize({ width: 1280, height: 800 });
      await view.goto(`${OPS}/channels/AURORA/sales/${code}`);
      const section = view.getByTestId('sale-lottery');
      if (state === 'set') {
        await expect(section.getByTestId('lottery-commitment')).toHaveText(/^[0-9a-f]{64}$/);
        await expect(section.getByRole('button', { name: locale === 'zh' ? '保存抽签' : 'Save the lottery' })).toBeEnabled();
        await expect(section.getByTestId('lottery-draw')).toContainText(locale === 'zh' ? '起可以开奖' : 'The draw can be run from');
      } else {
        await expect(section.getByTestId('lottery-winners-count')).toHaveText(locale === 'zh' ? '1 人中签' : '1 winner');
      }
      await section.scrollIntoViewIfNeeded();
      await shot(view, `lottery-${state}-1280-${locale}`);
      await view.setViewportSize({ width: 820, height: 1180 });
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
      await shot(view, `lottery-${state}-820-${locale}`);
    }
  }
  await zh.close();
});

test('support sees the lottery and its result, and can neither change nor draw it', async ({ browser }) => {
  test.setTimeout(120_000);
  expect(saleCode, 'the lottery drawn in the first test').not.toBe('');
  // The owner invites a support operator of AURORA, through the console's own call (answered with the one-time link).
  const page = await signedIn.newPage();
  await page.goto(`${OPS}/channels`);
  const name = `lottery.support.${Date.now().toString(36)}`;
  const invited = await page.evaluate(async (name) => {
    const res = await fetch('/api/ops/api/operator/invite', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, role: 'support', channels: ['AURORA'] }),
    });
    return (await res.json()) as { code: number; message: string; data: { enrolUrl: string } | null };
  }, name);
  expect(invited, invited.message).toMatchObject({ code: 200 });

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const support = await context.newPage();
  await support.goto(invited.data!.enrolUrl);
  const secret = (await support.getByTestId('totp-secret').textContent())!.trim();
  const password = 'support reads the lottery';
  await support.getByLabel('Password', { exact: true }).fill(password);
  await support.getByLabel('Password again').fill(password);
  await support.getByLabel('Code from the app').fill(codeAt(secret, Date.now()));
  await support.getByRole('button', { name: 'Finish setting up' }).click();
  await expect(support.getByRole('heading', { name: 'Your account is ready' })).toBeVisible();
  await support.goto(`${OPS}/sign-in`);
  await support.getByLabel('Account name').fill(name);
  await support.getByLabel('Password').fill(password);
  await support.getByLabel('Code', { exact: true }).fill(codeAt(secret, Date.now() + 30_000));
  await support.getByRole('button', { name: 'Sign in' }).click();
  await expect(support).toHaveURL(`${OPS}/channels`);

  await support.goto(`${OPS}/channels/AURORA/sales/${saleCode}`);
  const section = support.getByTestId('sale-lottery');
  await expect(section.getByText('Your role can look at the lottery but not change it.')).toBeVisible();
  await expect(section.getByTestId('lottery-commitment')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(section.getByTestId('lottery-winners-count')).toHaveText('1 winner');
  await expect(section.getByRole('radio', { name: /Lottery/ })).toBeDisabled();
  await expect(section.getByLabel('Where the public value comes from')).toBeDisabled();
  await expect(section.getByRole('button', { name: /Save the lottery|Set up the lottery|Draw/ })).toHaveCount(0);
  await shot(support, 'lottery-support-1280');

  // The call itself refuses support's write, whatever a page shows.
  const refused = await support.evaluate(async (sale) => {
    const res = await fetch('/api/ops/api/sale/lottery/draw', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'AURORA', sale, publicValue: '1 2 3' }),
    });
    return (await res.json()) as { code: number };
  }, saleCode);
  expect(refused.code).toBe(403);
  await context.close();
});

test('the owner puts a sale through a waiting room: a joining time already past is refused at its field', async () => {
  test.setTimeout(120_000);
  const page = await signedIn.newPage();
  const code = `queue-${Date.now().toString(36)}`;
  // A sale opening in 30 minutes, made through the console's own call.
  const made = await createConsoleSale(page, { code, copies: 5, startsAt: Date.now() + 30 * 60_000 });
  expect(made, made.message).toMatchObject({ code: 200 });

  await page.goto(`${OPS}/channels/AURORA/sales/${code}`);
  const section = page.getByTestId('sale-lottery');
  await section.getByRole('radio', { name: /Waiting room/ }).check();
  // Joining an hour before an opening 30 minutes away would have opened already.
  await section.getByLabel('Joining opens (minutes before the opening)').fill('60');
  await section.getByRole('button', { name: 'Set up the waiting room' }).click();
  await expect(section.locator('#queue-joinMinutes-error')).not.toBeEmpty();
  await expect(section.getByLabel('Joining opens (minutes before the opening)')).toHaveAttribute('aria-invalid', 'true');
  await expect(section.getByTestId('queue-facts')).toHaveCount(0);

  await section.getByLabel('Joining opens (minutes before the opening)').fill('10');
  await section.getByLabel('Buyers let in a second').fill('20');
  await section.getByRole('button', { name: 'Set up the waiting room' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved.');
  await expect(section.getByTestId('queue-facts')).toContainText('Joining opens at');
  await expect(section.getByTestId('queue-joined')).toHaveText('0');
  await shot(page, 'queue-set-1280');

  // Read again, the sale goes through its waiting room with the settings saved; it cannot go back to plain first come.
  await page.reload();
  await expect(section.getByRole('radio', { name: /Waiting room/ })).toBeChecked();
  await expect(section.getByLabel('Buyers let in a second')).toHaveValue('20');
  await expect(section.getByRole('radio', { name: /First come/ })).toBeDisabled();
  await page.setViewportSize({ width: 820, height: 1180 });
  await shot(page, 'queue-set-820');
  await page.close();
});
