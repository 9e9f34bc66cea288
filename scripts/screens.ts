/**
 * `npm run screens -- --base http://127.0.0.1:PORT --out DIR`: full-page phone screenshots (Playwright's iPhone 13, on
 * Debian's Chromium) of every buyer page of every demo channel, as a visitor and as a logged-in buyer who owns things,
 * one PNG per page named channel-page-state.png, plus manifest.json (what was asked, where the browser ended up). Issue
 * 30: a refactor of the UI must leave these pages as they were apart from live data; scripts/screens-compare.ts
 * compares two runs. Run it against a freshly seeded demo server (`npm run demo`), started with
 * TRUSTED_PROXIES=127.0.0.1,::1 so that each buyer arrives from an address of their own, as in the e2e suite
 * (e2e/buyers.ts); the buyers buy, receive, exchange and chain up, so a run spends demo codes and stock.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, devices, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { signInFromPage } from '../e2e/page-api';
import { demoCode, SEED_CHANNELS } from '../lib/demo/seed-data';

type Args = { base: string; out: string; only: string[] };

function parseArgs(argv: string[]): Args {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const base = value('--base');
  const out = value('--out');
  if (!base || !out) {
    console.error('usage: npx tsx scripts/screens.ts --base http://127.0.0.1:PORT --out DIR [--only aurora,swap]');
    process.exit(2);
  }
  return { base, out, only: (value('--only') ?? '').split(',').filter(Boolean) };
}

const args = parseArgs(process.argv.slice(2));
const port = new URL(args.base).port || '80';
/** A page of a demo channel on its own host; Chromium resolves *.localhost to loopback (DESIGN §11). */
const channelUrl = (channel: string, p: string) => `http://${channel}.localhost:${port}${p}`;

/** What moves on a page is frozen so two runs compare: no transitions, animations or blinking carets. */
const FREEZE_CSS = `*, *::before, *::after {
  animation-duration: 0s !important; animation-delay: 0s !important; animation-iteration-count: 1 !important;
  transition-duration: 0s !important; transition-delay: 0s !important; caret-color: transparent !important;
  scroll-behavior: auto !important;
}`;

/** The moment every page of a run believes it is (client side: countdowns tick from it, not from the wall clock). */
const FROZEN_NOW = Date.now();

type Shot = { file: string; asked: string; landed: string; error?: string };
const manifest: Shot[] = [];

async function newPhone(browser: Browser, forwardedFor: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...devices['iPhone 13'],
    reducedMotion: 'reduce',
    // Each buyer writes from an address of their own, as the e2e suite's do (e2e/buyers.ts).
    extraHTTPHeaders: { 'x-forwarded-for': forwardedFor },
  });
  await context.addInitScript((css) => {
    const add = () => {
      const style = document.createElement('style');
      style.setAttribute('data-screens', '');
      style.textContent = css;
      document.head.appendChild(style);
    };
    if (document.head) add();
    else document.addEventListener('DOMContentLoaded', add);
  }, FREEZE_CSS);
  return context;
}

async function freezeClock(page: Page): Promise<void> {
  // A fixed clock keeps the timers running (the pages' own refreshes still happen) with Date frozen.
  await page.clock.setFixedTime(FROZEN_NOW);
}

/** Waits until the page's images have loaded (or failed) and its fonts are ready. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page
    .evaluate(async () => {
      // Lazy images below the fold load only when near the viewport: ask for them all now.
      for (const img of Array.from(document.images)) img.loading = 'eager';
      await Promise.all(
        Array.from(document.images)
          .filter((img) => !img.complete)
          .map(
            (img) =>
              new Promise((resolve) => {
                img.addEventListener('load', resolve, { once: true });
                img.addEventListener('error', resolve, { once: true });
              }),
          ),
      );
      await document.fonts.ready;
    })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  // Two frames, so the last layout is painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))).catch(() => undefined);
}

/** Opens `p` on the channel and saves a full-page screenshot; a page that lands where an earlier one did is noted. */
async function shoot(page: Page, channel: string, name: string, state: string, p: string): Promise<void> {
  const file = `${channel}-${name}-${state}.png`;
  const shot: Shot = { file, asked: p, landed: '' };
  manifest.push(shot);
  try {
    await page.goto(channelUrl(channel, p), { waitUntil: 'load', timeout: 30_000 });
    await settle(page);
    shot.landed = new URL(page.url()).pathname + new URL(page.url()).search;
    // Full page, by making the phone as tall as the page: Chromium's own full-page capture leaves fixed bars (the
    // footer tabs, the pay bar) where the first screen ended, over the content.
    const viewport = page.viewportSize()!;
    const height = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body.scrollHeight));
    await page.setViewportSize({ width: viewport.width, height: Math.min(Math.max(height, viewport.height), 5000) });
    await settle(page);
    await page.screenshot({ path: path.join(args.out, file), animations: 'disabled', caret: 'hide' });
    await page.setViewportSize(viewport);
    console.log(`${file}  ${p}${shot.landed !== p ? ` -> ${shot.landed}` : ''}`);
  } catch (error) {
    shot.error = String(error).split('\n')[0];
    console.log(`${file}  ${p}  FAILED ${shot.error}`);
  }
}

/**
 * Logs a new buyer in on the channel through the API, as e2e/api-login.ts does (captcha, SMS code, next-auth). The
 * phone is the same in every run (one per channel), so the masked phone on /mine compares.
 */
async function logIn(page: Page, channel: string): Promise<void> {
  const index = SEED_CHANNELS.findIndex((c) => c.key === channel.toUpperCase());
  const phone = `1390000${String(index + 1).padStart(4, '0')}`;
  await page.goto(channelUrl(channel, '/api/health'));
  await signInFromPage(page, phone, SEED_CHANNELS[index]!.brandName);
}

/** The addresses the page links to that match `pattern`, in page order, without repeats. */
async function hrefs(page: Page, channel: string, p: string, pattern: RegExp): Promise<string[]> {
  await page.goto(channelUrl(channel, p));
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  const all = await page.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return [...new Set(all.filter((h) => pattern.test(h)))];
}

/** What the buyer's journeys left behind, for the pages that take an id. */
type Owned = { orderPaid?: string; orderOpen?: string; paymentNo?: string; chainConfirm?: string; chainResult?: string };

const PAY_NOW = /^(Pay now|立即支付)$/;
const PAY = /^(Pay|支付)$/;

/** Buys one copy of the sale at `/pay/:saleId`; pays at the sandbox cashier unless `pay` is false. */
async function buy(page: Page, channel: string, saleId: string, pay: boolean, owned: Owned): Promise<void> {
  await page.goto(channelUrl(channel, `/pay/${saleId}`));
  await page.getByRole('checkbox').first().check();
  await page.getByRole('button', { name: PAY_NOW }).click();
  await page.waitForURL(/\/sandbox\/cashier\/P\d{21}$/);
  const paymentNo = /P\d{21}$/.exec(page.url())![0];
  if (!pay) {
    owned.paymentNo = paymentNo;
    const back = await page.locator('a[href*="/pay/fail?orderNo="]').first().getAttribute('href');
    owned.orderOpen = /orderNo=(\d+)/.exec(back ?? '')?.[1];
    return;
  }
  await page.getByRole('button', { name: PAY, exact: true }).click();
  await page.waitForURL(/\/pay\/success\?orderNo=\d{22}$/);
  owned.orderPaid ??= /orderNo=(\d+)/.exec(page.url())![1];
}

/** Receives the gift offer whose card names `offerName` (from the channel's /receive2), `times` times. */
async function receiveGift(page: Page, channel: string, offerName: string, times = 1): Promise<void> {
  await page.goto(channelUrl(channel, '/receive2'));
  await page.getByTestId('gift-offer').filter({ hasText: offerName }).first().click();
  await page.waitForURL(/\/receive_detail_new\/\d+\/\d+$/);
  for (let i = 0; i < times; i++) {
    if (i > 0) await page.getByRole('button', { name: 'Receive another' }).click();
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByTestId('gift-edition').waitFor();
  }
}

async function exchange(page: Page, channel: string, offerName: string): Promise<void> {
  await page.goto(channelUrl(channel, '/active'));
  await page.getByTestId('exchange-offer').filter({ hasText: offerName }).first().click();
  await page.waitForURL(/\/exchange_detail\/\d+\/\d+$/);
  await page.getByRole('button', { name: 'Exchange', exact: true }).click();
  await page.getByRole('dialog', { name: 'Confirm exchange' }).getByRole('button', { name: 'Exchange', exact: true }).click();
  await page.getByTestId('exchange-result').waitFor();
}

async function chainUp(page: Page, channel: string, code: string, owned: Owned): Promise<void> {
  await page.goto(channelUrl(channel, '/chain'));
  await page.getByLabel('Product or certificate code').fill(code);
  const store = page.getByLabel('Store');
  const values = await store.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  await store.selectOption(values[0]!);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/\/chain\/\d+\/[^/]+\/[12]\/[^/]+$/);
  owned.chainConfirm = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Chain up' }).click();
  await page.waitForURL(/\/chain\/result\?id=\d+$/);
  owned.chainResult = new URL(page.url()).pathname + new URL(page.url()).search;
  // The ledger confirms within seconds (the chain-up job); the screenshot shows the confirmed record.
  await page
    .getByTestId('chain-tx')
    .waitFor({ timeout: 30_000 })
    .catch(() => undefined);
}

/** The journeys that give each demo channel's buyer an order, a collectible and a record, where the data allows. */
async function ownThings(page: Page, channel: string, saleIds: string[], owned: Owned): Promise<void> {
  const step = async (what: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      console.log(`  ${channel}: ${what} failed: ${String(error).split('\n')[0]}`);
    }
  };
  const saleNamed = async (name: string) => {
    await page.goto(channelUrl(channel, '/'));
    const href = await page.getByTestId('sale-card').filter({ hasText: name }).first().getAttribute('href', { timeout: 5_000 });
    return /\/goods\/detail\/(\d+)/.exec(href ?? '')![1]!;
  };
  switch (channel) {
    case 'aurora':
      await step('buy Star Fox', async () => buy(page, channel, await saleNamed('Star Fox'), true, owned));
      await step('buy Aurora Mystery Box', async () => buy(page, channel, await saleNamed('Aurora Mystery Box'), true, owned));
      await step('receive Star Fox Cub', () => receiveGift(page, channel, 'Star Fox Cub'));
      await step('chain up Aurora Dawn print', () => chainUp(page, channel, demoCode('aurora-print', 1), owned));
      await step('leave an order open', async () => buy(page, channel, await saleNamed('Tide Whale'), false, owned));
      break;
    case 'lumen':
    case 'bazaar':
      await step('buy', () => buy(page, channel, saleIds[0]!, true, owned));
      await step('leave an order open', () => buy(page, channel, saleIds[0]!, false, owned));
      break;
    case 'gift':
      await step('receive Welcome Lantern', () => receiveGift(page, channel, 'Welcome Lantern'));
      break;
    case 'perks':
      await step('receive Perks Pin', () => receiveGift(page, channel, 'Perks Pin'));
      break;
    case 'swap':
      await step('receive two Starter Cards', () => receiveGift(page, channel, 'Starter Card', 2));
      await step('exchange them for a badge', () => exchange(page, channel, 'Swap Club Badge'));
      break;
    case 'chain':
      await step('chain up Iron Owl', () => chainUp(page, channel, demoCode('iron-owl', 1), owned));
      break;
  }
}

/** Every buyer page of spec §2 (app/[channel]/[locale]), with the ids this channel's data gives. */
function pages(ids: { sale?: string; gift?: string; offer?: string }, owned: Owned): [name: string, path: string][] {
  const list: [string, string | undefined][] = [
    ['home', '/'],
    ['goods-detail', ids.sale && `/goods/detail/${ids.sale}`],
    ['detail', ids.sale && `/detail/${ids.sale}`],
    ['pay', ids.sale && `/pay/${ids.sale}`],
    ['cashier', owned.paymentNo && `/sandbox/cashier/${owned.paymentNo}`],
    ['pay-success', owned.orderPaid && `/pay/success?orderNo=${owned.orderPaid}`],
    ['pay-fail', owned.orderOpen && `/pay/fail?orderNo=${owned.orderOpen}`],
    ['sellout', '/sellout'],
    ['login', '/login'],
    ['agreement-privacy', '/agreement/privacy'],
    ['agreement-salesStrategy', '/agreement/salesStrategy'],
    ['mine', '/mine'],
    ['mine-records', '/mine/records'],
    ['mine-collection', '/mine/collection'],
    ['mine-box', '/mine/box'],
    ['mine-receive', '/mine/receive'],
    ['mine-destory', '/mine/destory'],
    ['mine-exchange', '/mine/exchange'],
    ['mine-chain', '/mine/chain'],
    // issue 33: the real-name verification.
    ['mine-identity', '/mine/identity'],
    ['active', '/active'],
    ['exchange_detail', ids.offer && `/exchange_detail/${ids.offer}`],
    ['receive', '/receive'],
    ['receive2', '/receive2'],
    ['receive_detail', ids.gift && `/receive_detail/${ids.gift}`],
    ['receive_detail_new', ids.gift && `/receive_detail_new/${ids.gift}`],
    ['chain', '/chain'],
    ['chain-confirm', owned.chainConfirm],
    ['chain-result', owned.chainResult],
    ['404', '/404'],
    ['unknown', '/no-such-page'],
  ];
  return list.filter((entry): entry is [string, string] => Boolean(entry[1]));
}

async function main() {
  mkdirSync(args.out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--host-resolver-rules=MAP *.localhost 127.0.0.1',
    ],
  });
  const channels = SEED_CHANNELS.map((c) => c.key.toLowerCase()).filter((c) => !args.only.length || args.only.includes(c));
  let address = 0;
  for (const channel of channels) {
    // The ids the channel's visitor can reach: its sales, its gifts' and its activities' offers.
    const visitor = await newPhone(browser, `127.77.0.${++address}`);
    const look = await visitor.newPage();
    const saleIds = (await hrefs(look, channel, '/', /^\/goods\/detail\/\d+$/)).map((h) => h.split('/').pop()!);
    const gift = (await hrefs(look, channel, '/receive2', /^\/receive_detail_new\/\d+\/\d+$/))[0]?.replace('/receive_detail_new/', '');
    const offer = (await hrefs(look, channel, '/active', /^\/exchange_detail\/\d+\/\d+$/))[0]?.replace('/exchange_detail/', '');
    const ids = { sale: saleIds[0], gift, offer };
    await look.close();

    const page = await visitor.newPage();
    await freezeClock(page);
    for (const [name, p] of pages(ids, {})) await shoot(page, channel, name, 'visitor', p);
    await visitor.close();

    const buyerContext = await newPhone(browser, `127.77.0.${++address}`);
    const buyer = await buyerContext.newPage();
    const owned: Owned = {};
    try {
      await logIn(buyer, channel);
      await ownThings(buyer, channel, saleIds, owned);
    } catch (error) {
      console.log(`  ${channel}: buyer log-in failed: ${String(error).split('\n')[0]}`);
    }
    await buyer.close();
    const shots = await buyerContext.newPage();
    await freezeClock(shots);
    for (const [name, p] of pages(ids, owned)) await shoot(shots, channel, name, 'buyer', p);
    await buyerContext.close();
  }
  await browser.close();
  writeFileSync(path.join(args.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const failed = manifest.filter((s) => s.error).length;
  console.log(`${manifest.length - failed} screenshots in ${args.out}${failed ? `, ${failed} failed` : ''}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
