import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The DNS server on loopback that e2e/console-domains.spec.ts starts; the e2e server checks custom domains there. */
const DNS_PORT = Number(process.env.E2E_DNS_PORT ?? 5395);
/** The fake of WeChat's official-account API that e2e/wechat-share.spec.ts starts (issue 36); the server fetches tickets there. */
const WECHAT_PORT = Number(process.env.E2E_WECHAT_PORT ?? PORT + 1);
const { defaultBrowserType: _webkit, ...iPhone } = devices['iPhone 13'];
void _webkit;
/** The operator console (issue 31) is desktop-first: a 1280 px screen with a mouse (and a tablet check in the specs). */
const CONSOLE_SCREEN = {
  viewport: { width: 1280, height: 800 },
  isMobile: false,
  hasTouch: false,
  deviceScaleFactor: 1,
  userAgent: undefined,
};

/**
 * End-to-end suite (DESIGN §9): Debian's Chromium on a phone viewport with touch, each channel on its own
 * *.localhost host (Chromium resolves those to loopback), against the demo on a fresh embedded database.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './e2e/.artifacts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    ...iPhone,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // A buyer per channel logged in through the API once, its state saved for the specs (e2e/buyers.setup.ts).
    { name: 'buyers', testMatch: /buyers\.setup\.ts$/ },
    // The console's journeys and the two-server ones (two-servers, drop-journey: playwright.servers.config.ts) run elsewhere.
    {
      name: 'phone-chromium',
      dependencies: ['buyers'],
      testIgnore: [/console(-[a-z-]+)?\.spec\.ts$/, /two-servers\.spec\.ts$/, /drop-journey\.spec\.ts$/],
    },
    { name: 'console-desktop', testMatch: /console\.spec\.ts$/, use: CONSOLE_SCREEN },
    // The console's other journeys sign in as the owner console.spec.ts enrolled (e2e/console-owner.ts).
    { name: 'console-areas', dependencies: ['console-desktop'], testMatch: /console-[a-z-]+\.spec\.ts$/, use: CONSOLE_SCREEN },
  ],
  webServer: {
    // The demo with the default SMS and captcha limits, trusting this machine as its proxy: each test buyer arrives from
    // an address of its own (e2e/buyers.ts, issue 29).
    command: 'bash scripts/e2e-server.sh',
    // Node cannot resolve *.localhost (DESIGN §11): wait on the loopback address.
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: !process.env.CI,
    // The demo builds Next first: minutes when other work shares the cores.
    timeout: 600_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      E2E_PORT: String(PORT),
      // Custom domains (issue 31): checked at the spec's DNS server, pointing at a name of this deployment's.
      DNS_RESOLVER: `127.0.0.1:${DNS_PORT}`,
      DOMAIN_TARGET: 'stores.e2e.test',
      E2E_DNS_PORT: String(DNS_PORT),
      // issue 36: the official account a spec gives a channel, and WeChat's API at the spec's fake (test/wechat-mp.ts).
      WECHAT_MP_SECRETS: 'wx1234567890abcdef:fake-official-account-secret-0001',
      WECHAT_API_BASE: `http://127.0.0.1:${WECHAT_PORT}`,
    },
  },
});
