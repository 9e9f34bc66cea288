import { expect, test, devices, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ownerApiKey } from './operator-key';
import { logInThroughApi } from './api-login';
import { channelUrl, PORT } from './support';

// issue 35, "First come, through a waiting room", as buyers see it on the goods page: an operator puts a new sale of 2
// copies (2 a buyer) through a waiting room admitting one buyer a second, joining open a minute before the opening;
// two buyers arrive early, join, see that places are drawn at the opening, then their places; the shuffled order
// admits one, then the other; the first buys both copies through the pay page (the admission carried there), and the
// second, admitted too, is told "Sold out" at once. A visitor is asked to log in and never joins. The server's clock
// is real (the opening is set seconds ahead); the browsers' clocks are Playwright's, to run the turn's countdown on.
// The pay page (issue 35, admission at pay): the admitted buyer sees their turn's countdown there and buys; a buyer who
// opens /pay/<id> directly (a new tab: no admission kept in it) is told the sale goes through a waiting room, with the
// link to join, and Pay is off.

const SHOTS = process.env.QUEUE_SHOTS; // a folder: the screens are saved there to be looked at
const { defaultBrowserType: _webkit, ...PHONE } = devices['iPhone 13'];
void _webkit;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The pay page's screens at 375×812, the narrowest phone the store is drawn for. */
async function narrowShot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, name);
}

/** The seconds of a countdown's "M:SS" in a text. */
const secondsIn = (text: string | null) => {
  const [, m, s] = /(\d+):(\d\d)/.exec(text ?? '')!;
  return Number(m) * 60 + Number(s);
};

/**
 * A buyer of the same browser (logged in) opens the pay page directly in a new tab, which keeps no admission: the
 * waiting room is said, with the link back to the goods page to join, and Pay is off.
 */
async function payWithoutAdmission(
  context: BrowserContext,
  channel: string,
  saleId: string,
  words: { text: RegExp; join: string; pay: string },
) {
  const page = await context.newPage();
  await page.goto(channelUrl(channel, `/pay/${saleId}`));
  const note = page.getByTestId('pay-admission-none');
  await expect(note).toHaveText(words.text);
  await expect(note.getByRole('link', { name: words.join })).toHaveAttribute('href', `/goods/detail/${saleId}`);
  await page.getByRole('checkbox').check();
  await expect(page.getByRole('button', { name: words.pay })).toBeDisabled();
  await expect(page.getByRole('timer')).toHaveCount(0);
  return page;
}

/** The console's call with the owner's API key (e2e/operator-key.ts), from the console's origin. */
async function ops(
  page: Page,
  key: string,
  path: string,
  body: unknown,
): Promise<{ status: number; code: number; message: string; data: unknown }> {
  return page.evaluate(
    async ({ key, path, body }) => {
      const res = await fetch(`/api/ops/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; message: string; data: unknown };
      return { status: res.status, ...json };
    },
    { key, path, body },
  );
}

/** A new sale through a waiting room whose joining opens `joinInMs` from now (a minute before the opening). */
async function queueSale(
  browser: Browser,
  channel: string,
  collectible: string,
  settings: { copies: number; limitPerUser: number; admitPerSecond: number; joinInMs: number },
): Promise<{ saleId: string; opensAt: number }> {
  const key = await ownerApiKey(browser);
  const page = await browser.newPage();
  try {
    await page.goto(`http://ops.localhost:${PORT}/api/health`);
    const code = `queue-${Date.now().toString(36)}`;
    const opensAt = Date.now() + 60_000 + settings.joinInMs;
    const made = await ops(page, key, 'sale/create', {
      channel,
      code,
      collectible,
      price: 990,
      copies: settings.copies,
      limitPerUser: settings.limitPerUser,
      saleStartTime: new Date(opensAt).toISOString(),
      saleEndTime: null,
      listed: false,
      sort: 0,
    });
    expect(made, made.message).toMatchObject({ code: 200 });
    const set = await ops(page, key, 'sale/queue/set', { channel, sale: code, joinMinutes: 1, admitPerSecond: settings.admitPerSecond });
    expect(set, set.message).toMatchObject({ code: 200 });
    const storePath = (made.data as { storePath: string }).storePath;
    return { saleId: /\/goods\/detail\/(\d+)/.exec(storePath)![1]!, opensAt };
  } finally {
    await page.close();
  }
}

/** A buyer's phone, logged in, its clock Playwright's (running, from the real time). */
async function buyer(browser: Browser, channel: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.clock.install();
  await logInThroughApi(page, channel);
  return { context, page };
}

/** Waits until the machine's clock (the server's: same machine) has passed `ms`. */
async function until(page: Page, ms: number) {
  const wait = ms - Date.now();
  if (wait > 0) await page.waitForTimeout(wait + 300);
}

test('two early buyers: both see places, the shuffle admits one then the other, the second is told sold out', async ({ browser }) => {
  test.setTimeout(180_000);
  const { saleId, opensAt } = await queueSale(browser, 'AURORA', 'aurora-dawn', {
    copies: 2,
    limitPerUser: 2,
    admitPerSecond: 1,
    joinInMs: 30_000,
  });
  const a = await buyer(browser, 'aurora');
  const b = await buyer(browser, 'aurora');
  const visitor = await browser.newContext(PHONE);
  try {
    const goods = channelUrl('aurora', `/goods/detail/${saleId}`);
    for (const { page } of [a, b]) {
      await page.goto(goods);
      // Before joining opens: when it will, and no way to join yet.
      await expect(page.getByTestId('queue-opens-at')).toHaveText(/^The waiting room opens at \d\d-\d\d \d\d:\d\d\.$/);
    }
    await shot(a.page, 'queue-aurora-en-before');

    // A visitor is asked to log in, and coming back is where the login form leads.
    const guest = await visitor.newPage();
    await guest.goto(goods);
    const login = guest.getByTestId('queue-login');
    await expect(login).toHaveText('Log in to join the queue');
    await expect(login).toHaveAttribute('href', `/login?redirect=${encodeURIComponent(`/goods/detail/${saleId}`)}`);
    // The buy bar does not offer a buy without an admission: it points to the waiting room's card.
    const bar = guest.getByTestId('buy-button');
    await expect(bar).toHaveText('Buy through the waiting room');
    await expect(bar).toHaveAttribute('href', '#queue');
    await shot(guest, 'queue-aurora-en-visitor');

    // Joining opens: the page offers it when it does, without a reload.
    await until(a.page, opensAt - 60_000);
    // Once in the queue, each page keeps a watch open: the server pushes the place, the turn and the sell-out (a stream
    // of lines), and the page reads nothing while it is open.
    const watches = [a, b].map(({ page }) => page.waitForResponse((r) => r.url().endsWith('/api/market/api/queue/watch')));
    let reads = 0;
    for (const { page } of [a, b]) {
      page.on('request', (r) => {
        if (r.url().endsWith('/api/market/api/queue/position')) reads++;
      });
    }
    for (const { page } of [a, b]) {
      await page.getByRole('button', { name: 'Join the queue' }).click();
      await expect(page.getByTestId('queue-waiting')).toHaveText('You are in the queue.');
      await expect(page.getByText(/^Places are drawn at the opening, in \d:\d\d\.$/)).toBeVisible();
      await expect(page.getByTestId('queue-copies-left')).toHaveText('2');
    }
    await shot(a.page, 'queue-aurora-en-waiting');
    for (const watch of watches) expect((await watch).headers()['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const readsBefore = reads;

    // The opening plus the grace: the shuffle gives places; at one admission a second, the one drawn first is admitted,
    // then the other.
    const admitted = (page: Page) => page.getByTestId('queue-admitted');
    let first: Page | null = null;
    await expect
      .poll(
        async () => {
          for (const { page } of [a, b]) if (await admitted(page).isVisible()) first ??= page;
          return first !== null;
        },
        { timeout: 90_000, intervals: [200] },
      )
      .toBe(true);
    const firstPage = first as unknown as Page;
    const second = firstPage === a.page ? b.page : a.page;
    // The second is behind the first: a place of their own (1: the next one), or admitted already a second later.
    await expect(second.getByTestId('queue-position').or(admitted(second))).toBeVisible();
    await shot(second, 'queue-aurora-en-queued');
    await expect(admitted(firstPage)).toHaveText('It’s your turn');
    await expect(admitted(second)).toHaveText('It’s your turn', { timeout: 10_000 });

    // The turn's countdown runs (Playwright's clock, ten seconds on).
    const ends = firstPage.getByTestId('queue-turn-ends');
    const before = secondsIn(await ends.textContent());
    expect(before).toBeGreaterThan(40);
    await firstPage.clock.fastForward('00:10');
    await expect.poll(async () => secondsIn(await ends.textContent())).toBeLessThanOrEqual(before - 10);
    await shot(firstPage, 'queue-aurora-en-admitted');

    // The second, admitted, opens the pay page directly in another tab: that tab keeps no admission, so the page says
    // the sale goes through a waiting room and links back to join; Pay is off, and following the link leads there.
    const direct = await payWithoutAdmission(second.context(), 'aurora', saleId, {
      text: /^This sale goes through a waiting room: join the queue on the sale’s page, and buy here when your turn comes\. Join the queue$/,
      join: 'Join the queue',
      pay: 'Pay now',
    });
    await narrowShot(direct, 'pay-aurora-en-no-admission');
    await direct.getByRole('link', { name: 'Join the queue' }).click();
    await expect(direct).toHaveURL(goods);
    await direct.close();

    // The first buys both copies through the pay page, the admission carried there: the page says it is their turn,
    // with the turn's countdown running on.
    await firstPage.getByTestId('queue-buy').click();
    await expect(firstPage).toHaveURL(channelUrl('aurora', `/pay/${saleId}`));
    const turn = firstPage.getByTestId('pay-admission-live');
    await expect(turn).toHaveText(/^It’s your turn: buy within 0:\d\d$/);
    const onPay = secondsIn(await turn.textContent());
    await firstPage.clock.fastForward('00:05');
    await expect.poll(async () => secondsIn(await turn.textContent())).toBeLessThanOrEqual(onPay - 5);
    await narrowShot(firstPage, 'pay-aurora-en-admitted');
    await firstPage.getByRole('button', { name: 'One more' }).click();
    await firstPage.getByRole('checkbox').check();
    await firstPage.getByRole('button', { name: 'Pay now' }).click();
    await expect(firstPage).toHaveURL(/\/sandbox\/cashier\/P\d{21}$/);

    // The last copy is gone (held by the first's order): the second, still on the goods page, is told at once.
    await expect(second.getByTestId('queue-soldOut')).toHaveText('Sold out', { timeout: 2_000 });
    await expect(second.getByTestId('queue-buy')).toHaveCount(0);
    // The shuffle, both turns and the sell-out all came through the watches: no page read its place meanwhile.
    expect(reads - readsBefore).toBe(0);
    await shot(second, 'queue-aurora-en-sold-out');
  } finally {
    await Promise.all([a.context.close(), b.context.close(), visitor.close()]);
  }
});

test('a Chinese store says the waiting room in Chinese', async ({ browser }) => {
  test.setTimeout(120_000);
  const { saleId, opensAt } = await queueSale(browser, 'BAZAAR', 'bazaar-fox', {
    copies: 1,
    limitPerUser: 1,
    admitPerSecond: 50,
    joinInMs: 10_000,
  });
  const one = await buyer(browser, 'bazaar');
  const visitor = await browser.newContext(PHONE);
  try {
    const goods = channelUrl('bazaar', `/goods/detail/${saleId}`);
    const guest = await visitor.newPage();
    await guest.goto(goods);
    await expect(guest.getByTestId('queue-login')).toHaveText('登录后加入排队');
    await shot(guest, 'queue-bazaar-zh-visitor');

    await until(one.page, opensAt - 60_000);
    await one.page.goto(goods);
    await one.page.getByRole('button', { name: '加入排队' }).click();
    await expect(one.page.getByTestId('queue-waiting')).toHaveText('你已在排队中。');
    await shot(one.page, 'queue-bazaar-zh-waiting');
    await expect(one.page.getByTestId('queue-admitted')).toHaveText('轮到你了', { timeout: 90_000 });
    await expect(one.page.getByTestId('queue-turn-ends')).toHaveText(/^请在 \d:\d\d 内购买，否则机会将让给下一位。$/);
    await shot(one.page, 'queue-bazaar-zh-admitted');

    // The pay page in Chinese: opened directly in another tab, the waiting room and the way to join; through the goods
    // page's buy, the turn's countdown, and its end said when it runs out on the page.
    const direct = await payWithoutAdmission(one.context, 'bazaar', saleId, {
      text: /^本商品需排队购买：请到商品页排队，轮到您时再来购买。 去排队$/,
      join: '去排队',
      pay: '立即支付',
    });
    await narrowShot(direct, 'pay-bazaar-zh-no-admission');
    await direct.close();
    await one.page.getByTestId('queue-buy').click();
    await expect(one.page).toHaveURL(channelUrl('bazaar', `/pay/${saleId}`));
    await expect(one.page.getByTestId('pay-admission-live')).toHaveText(/^轮到您了：请在 0:\d\d 内购买$/);
    await narrowShot(one.page, 'pay-bazaar-zh-admitted');
    await one.page.clock.fastForward('01:05');
    await expect(one.page.getByTestId('pay-admission-ended')).toHaveText('您的购买时间已结束。 重新排队');
    await expect(one.page.getByRole('button', { name: '立即支付' })).toBeDisabled();
    await narrowShot(one.page, 'pay-bazaar-zh-ended');
  } finally {
    await Promise.all([one.context.close(), visitor.close()]);
  }
});
