import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { consoleCaller, type Envelope } from './operator-key';
import { logInThroughApi } from './api-login';
import { arriveFromOwnAddress } from './buyers';
import { channelUrl } from './support';

// issue 35, "notices tell winners": a lottery's winner is told in their own messages, beside the text. On a phone, a
// buyer on AURORA (English) and one on BAZAAR (Chinese) each register for a lottery of one copy on the goods page; once
// the owner has drawn (through the console's API), each sees the unread badge beside "Messages" on Mine, opens their
// messages, reads that they won, taps through to the goods page, and back on Mine the badge is gone. A visitor asking
// for the messages is sent to log in and back.

const SHOTS = 'e2e/.artifacts';

/** A sale of one copy on `channel`, open already, with a lottery whose registration opens in a few seconds. */
async function lotterySale(
  ops: (path: string, body: unknown) => Promise<Envelope>,
  channel: string,
  collectible: string,
): Promise<{ code: string; saleId: string; drawAt: number }> {
  const code = `inbox-${channel.toLowerCase()}-${Date.now().toString(36)}`;
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
  const opens = Date.now() + 3_000;
  const closes = opens + 20_000;
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

/** Registers the page's buyer on the goods page, once its registration opened. */
async function register(page: Page, channel: string, saleId: string) {
  await page.goto(channelUrl(channel, `/goods/detail/${saleId}`));
  await expect(page.getByTestId('lottery-panel')).toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  await page.getByTestId('lottery-button').click();
  await expect(page.getByTestId('lottery-panel')).toHaveAttribute('data-state', 'registered');
}

test('a winner sees the badge on Mine, reads that they won, taps through to the goods, and the badge goes', async ({ browser }) => {
  test.setTimeout(180_000);
  const ops = await consoleCaller(browser);
  const buyers = [
    { channel: 'aurora', key: 'AURORA', collectible: 'aurora-dawn', locale: 'en', won: /^You won the lottery for .+!$/, lang: 'en' },
    { channel: 'bazaar', key: 'BAZAAR', collectible: 'bazaar-fox', locale: 'zh-CN', won: /^恭喜您抽中.+！$/, lang: 'zh' },
  ];
  const pages = await Promise.all(
    buyers.map(async (b) => {
      const page = await (await browser.newContext({ locale: b.locale })).newPage();
      await logInThroughApi(page, b.channel);
      return page;
    }),
  );
  const sales = await Promise.all(buyers.map((b) => lotterySale(ops, b.key, b.collectible)));
  for (const [i, b] of buyers.entries()) await register(pages[i]!, b.channel, sales[i]!.saleId);

  // Before the draw: nothing unread, and the list says there is nothing yet.
  const [aurora] = pages as [Page, Page];
  await aurora.goto(channelUrl('aurora', '/mine'));
  await expect(aurora.getByTestId('mine-profile')).toBeVisible();
  await expect(aurora.getByTestId('mine-messages')).toHaveText('Messages');
  await aurora.goto(channelUrl('aurora', '/mine/messages'));
  await expect(aurora.getByTestId('messages-empty')).toBeVisible();
  await aurora.screenshot({ path: `${SHOTS}/inbox-aurora-en-empty.png` });

  // The draws, once their time came (the server refuses them earlier: 409). One registrant each: each wins.
  for (const [i, b] of buyers.entries()) {
    const { code, drawAt } = sales[i]!;
    await expect
      .poll(
        async () => {
          if (Date.now() < drawAt) return 'waiting';
          const drawn = await ops('/ops/api/sale/lottery/draw', { channel: b.key, sale: code, publicValue: '3712.58' });
          return drawn.code === 200 ? 'drawn' : `${drawn.code} ${drawn.message}`;
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBe('drawn');
  }

  for (const [i, b] of buyers.entries()) {
    const page = pages[i]!;
    const { saleId } = sales[i]!;
    const shot = (what: string) => `${SHOTS}/inbox-${b.channel}-${b.lang}-${what}.png`;

    // Mine: the badge beside "Messages" says one unread.
    await page.goto(channelUrl(b.channel, '/mine'));
    const badge = page.getByTestId('mine-messages-badge');
    await expect(badge).toHaveText('1');
    await page.screenshot({ path: shot('mine'), fullPage: true });

    // Messages: "You won …", marked new, linking to the goods page.
    await page.getByTestId('mine-messages').click();
    await expect(page).toHaveURL(channelUrl(b.channel, '/mine/messages'));
    const message = page.getByTestId('message');
    await expect(message).toHaveCount(1);
    await expect(message.getByRole('heading')).toHaveText(b.won);
    await expect(message.getByTestId('message-new')).toBeVisible();
    await expect(message).toHaveAttribute('href', `/goods/detail/${saleId}`);
    await page.screenshot({ path: shot('messages'), fullPage: true });
    expect(await violations(page)).toEqual([]);

    // Through to the goods page: the winner's standing there.
    await message.click();
    await expect(page).toHaveURL(channelUrl(b.channel, `/goods/detail/${saleId}`));
    await expect(page.getByTestId('lottery-panel')).toHaveAttribute('data-state', 'winner');

    // Back on Mine: the badge is gone; the message reads as read.
    await page.goto(channelUrl(b.channel, '/mine'));
    await expect(page.getByTestId('mine-profile')).toBeVisible();
    await expect(page.getByTestId('mine-messages')).toBeVisible();
    await expect(badge).toHaveCount(0);
    await page.screenshot({ path: shot('mine-read'), fullPage: true });
    await page.goto(channelUrl(b.channel, '/mine/messages'));
    await expect(page.getByTestId('message')).toHaveAttribute('data-read', 'true');
    await expect(page.getByTestId('message-new')).toHaveCount(0);
  }
});

test('a visitor asking for the messages is sent to log in and back', async ({ page }) => {
  await arriveFromOwnAddress(page.context());
  await page.goto(channelUrl('aurora', '/mine/messages'));
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmine%2Fmessages$/);
});
