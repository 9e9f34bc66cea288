import { createHash } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { MP_APP_ID, startFakeWechatMp, type FakeWechatMp } from '../test/wechat-mp';
import { USER_AGENTS } from '../test/user-agents';
import { E2E_OWNER, e2eOwner, freshOwnerCode, OPS } from './operator-key';
import { channelUrl, PORT } from './support';

// The WeChat share card (issue 36; docs/wechat.md). AURORA is given the official account the e2e server holds the
// AppSecret of (playwright.config.ts); WeChat's API is the local fake (test/wechat-mp.ts), and WeChat's JS-SDK a fake
// served by page.route that records what the page asks of it: nothing leaves this machine. Inside WeChat the goods
// page's card is the sale's name, price and cover; outside WeChat, or on a channel without an account, nothing of
// WeChat loads and nothing is asked.

const WECHAT_PORT = Number(process.env.E2E_WECHAT_PORT ?? PORT + 1);
const JWEIXIN = 'https://res.wx.qq.com/**';
const CONFIG_CALL = '**/api/market/api/wechat/jsConfig';

/** A stand-in for jweixin-1.6.0.js: wx.config, wx.ready (called once configured) and the two share calls, recorded. */
const FAKE_JWEIXIN = `(function(){var calls=window.__wxCalls=[];var ready=[];var on=false;
window.wx={config:function(c){calls.push(['config',c]);setTimeout(function(){on=true;ready.splice(0).forEach(function(f){f()})},10)},
ready:function(f){on?f():ready.push(f)},error:function(){},
updateAppMessageShareData:function(d){calls.push(['updateAppMessageShareData',d])},
updateTimelineShareData:function(d){calls.push(['updateTimelineShareData',d])}};})();`;

type WxCall = [string, Record<string, unknown>];

let fake: FakeWechatMp;

/** Sets AURORA's account through the console's own call, with the e2e owner's API key (e2e/operator-key.ts). */
async function setAccount(browser: Browser, wechatAppId: string | null): Promise<void> {
  const key = (await e2eOwner(browser)).key;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${OPS}/sign-in`);
    const code = await page.evaluate(
      async ({ key, wechatAppId }) => {
        const res = await fetch('/api/ops/api/channel/saveWechatAccount', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ channel: 'AURORA', wechatAppId }),
        });
        return ((await res.json()) as { code: number }).code;
      },
      { key, wechatAppId },
    );
    expect(code).toBe(200);
  } finally {
    await context.close();
  }
}

async function wechatPhone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    userAgent: USER_AGENTS.wechat,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await context.route(JWEIXIN, (route) => route.fulfill({ contentType: 'application/javascript', body: FAKE_JWEIXIN }));
  return context.newPage();
}

async function saleHref(page: Page, channel: string, name: string): Promise<string> {
  await page.goto(channelUrl(channel));
  const href = await page.getByTestId('sale-card').filter({ hasText: name }).getAttribute('href');
  expect(href).toMatch(/^\/goods\/detail\/\d+$/);
  return href!;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  fake = await startFakeWechatMp({ listen: { port: WECHAT_PORT } });
  await setAccount(browser, MP_APP_ID);
});
test.afterAll(async ({ browser }) => {
  await setAccount(browser, null);
  await fake.close();
});

test('inside WeChat the goods page sets its share card to the sale: name, price and cover, for chats and Moments', async ({ browser }) => {
  const page = await wechatPhone(browser);
  const href = await saleHref(page, 'aurora', 'Aurora Dawn');
  const configCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/market/api/wechat/jsConfig')) configCalls.push(request.postData() ?? '');
  });
  const opened = await page.goto(channelUrl('aurora', `${href}?from=e2e#top`));
  expect(opened!.headers()['content-security-policy']).toContain('https://res.wx.qq.com');
  await expect
    .poll(async () => (await page.evaluate(() => (window as unknown as { __wxCalls?: WxCall[] }).__wxCalls ?? [])).length)
    .toBe(3);
  const calls = await page.evaluate(() => (window as unknown as { __wxCalls: WxCall[] }).__wxCalls);

  // wx.config with the server's answer, its signature WeChat's algorithm over the fake's ticket and the page's URL.
  const url = channelUrl('aurora', `${href}?from=e2e`);
  const [name, config] = calls[0]!;
  expect(name).toBe('config');
  expect(config).toMatchObject({ appId: MP_APP_ID, jsApiList: ['updateAppMessageShareData', 'updateTimelineShareData'] });
  const ticket = fake.tickets.get(MP_APP_ID)!;
  expect(config.signature).toBe(
    sha1(`jsapi_ticket=${ticket}&noncestr=${String(config.nonceStr)}&timestamp=${String(config.timestamp)}&url=${url}`),
  );
  expect(JSON.parse(configCalls[0]!)).toEqual({ url });

  // The card: what the goods page shows of the sale. The demo's covers are SVG, which WeChat does not show: the picture
  // is the sale's link-preview card (a PNG with the cover on it).
  const cover = await page.locator('script[type="application/ld+json"]').evaluate((el) => {
    const product = JSON.parse(el.textContent ?? '{}') as { image: string[] };
    return product.image[0]!;
  });
  expect(cover).toMatch(/\.svg$/);
  const picture = await page.locator('meta[property="og:image"]').getAttribute('content');
  expect(picture).toMatch(/^http:\/\/aurora\.localhost:\d+\/api\/og\/sale\/\d+$/);
  expect(calls[1]).toEqual(['updateAppMessageShareData', { title: 'Aurora Dawn', desc: '¥199.00', link: url, imgUrl: picture }]);
  expect(calls[2]).toEqual(['updateTimelineShareData', { title: 'Aurora Dawn', link: url, imgUrl: picture }]);
  await expect(page.getByRole('heading', { level: 1, name: 'Aurora Dawn' })).toBeVisible();
  await page.screenshot({ path: 'e2e/.artifacts/wechat-share-goods.png' });
  await page.context().close();
});

test('inside WeChat the home page shares the channel: its name and picture', async ({ browser }) => {
  const page = await wechatPhone(browser);
  await page.goto(channelUrl('aurora'));
  await expect
    .poll(async () => (await page.evaluate(() => (window as unknown as { __wxCalls?: WxCall[] }).__wxCalls ?? [])).length)
    .toBe(3);
  const calls = await page.evaluate(() => (window as unknown as { __wxCalls: WxCall[] }).__wxCalls);
  expect(calls[1]![1]).toMatchObject({ title: 'Aurora', link: channelUrl('aurora') });
  expect(String(calls[1]![1].imgUrl)).toMatch(/^http:\/\/aurora\.localhost:\d+\/.+\.(png|jpg|jpeg|webp)(\?.*)?$/);
  await page.context().close();
});

test('outside WeChat, and inside WeChat on a channel without an account, nothing of WeChat loads and nothing is asked', async ({
  browser,
}) => {
  for (const { userAgent, channel } of [
    { userAgent: USER_AGENTS.phone, channel: 'aurora' },
    { userAgent: USER_AGENTS.wechat, channel: 'lumen' },
    { userAgent: USER_AGENTS.miniProgram, channel: 'aurora' },
  ]) {
    const context = await browser.newContext({ userAgent, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const asked: string[] = [];
    await context.route(JWEIXIN, (route) => {
      asked.push(route.request().url());
      return route.abort();
    });
    await context.route(CONFIG_CALL, (route) => {
      asked.push(route.request().url());
      return route.continue();
    });
    const page = await context.newPage();
    const sale = channel === 'aurora' ? 'Aurora Dawn' : 'Sunrise';
    const href = await saleHref(page, channel, sale);
    const opened = await page.goto(channelUrl(channel, href));
    await expect(page.getByRole('heading', { level: 1, name: sale })).toBeVisible();
    await page.waitForTimeout(500);
    expect(asked).toEqual([]);
    // A channel without an account has neither the bootstrap nor WeChat's host in its CSP.
    if (channel === 'lumen') {
      expect(opened!.headers()['content-security-policy']).not.toContain('res.wx.qq.com');
      await expect(page.locator('script[data-wechat-share]')).toHaveCount(0);
    }
    await context.close();
  }
  expect(fake.counts.token).toBeLessThanOrEqual(1);
});

test('the console’s Settings tab sets the account (desktop)', async ({ browser }) => {
  const owner = await e2eOwner(browser);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    isMobile: false,
    hasTouch: false,
    userAgent: USER_AGENTS.desktop,
  });
  const page = await context.newPage();
  await page.goto(`${OPS}/sign-in`);
  await page.getByLabel('Account name').fill(E2E_OWNER);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByLabel('Code', { exact: true }).fill(freshOwnerCode(owner));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${OPS}/channels`);
  await page.goto(`${OPS}/channels/AURORA/settings`);
  const section = page.locator('[data-section="wechat-account"]');
  await expect(section.getByLabel('Official account AppID')).toHaveValue(MP_APP_ID);
  await expect(section.getByTestId('wechat-account-state')).toContainText('holds this account’s AppSecret');
  // A malformed AppID is refused under its field, nothing saved.
  await section.getByLabel('Official account AppID').fill('wx123');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByRole('alert').first()).toContainText('must be an AppID');
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: 'e2e/.artifacts/wechat-console-settings.png' });
  await page.reload();
  await expect(section.getByLabel('Official account AppID')).toHaveValue(MP_APP_ID);
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: 'e2e/.artifacts/wechat-console-settings-saved.png' });
  // The same in Chinese (a browser that asks for it, with the same sign-in), on a desktop and on a tablet.
  const zh = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });
  await zh.addCookies(await context.cookies(OPS));
  const zhPage = await zh.newPage();
  await zhPage.goto(`${OPS}/channels/AURORA/settings`);
  const zhSection = zhPage.locator('[data-section="wechat-account"]');
  await expect(zhSection.getByRole('heading', { name: '微信分享卡片' })).toBeVisible();
  await expect(zhSection.getByLabel('公众号 AppID')).toHaveValue(MP_APP_ID);
  await zhSection.scrollIntoViewIfNeeded();
  await zhSection.screenshot({ path: 'e2e/.artifacts/wechat-console-settings-zh.png' });
  await zhPage.setViewportSize({ width: 820, height: 1180 });
  expect(await zhPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
  await zhSection.scrollIntoViewIfNeeded();
  await zhSection.screenshot({ path: 'e2e/.artifacts/wechat-console-settings-zh-tablet.png' });
  await zh.close();
  await context.close();
});
