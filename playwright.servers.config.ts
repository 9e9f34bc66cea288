import { defineConfig } from '@playwright/test';
import base from './playwright.config';

const PORT = Number(process.env.E2E_PORT ?? 3300);
const SECOND_PORT = PORT + 1;
/** The DNS server on loopback that e2e/two-servers.spec.ts starts; the first server checks custom domains there. */
const DNS_PORT = Number(process.env.E2E_SERVERS_DNS_PORT ?? 5396);
const DOMAINS = { DNS_RESOLVER: `127.0.0.1:${DNS_PORT}`, DOMAIN_TARGET: 'stores.e2e.test' };
process.env.E2E_PORT = String(PORT);
process.env.E2E_SECOND_PORT = String(SECOND_PORT);

/**
 * The two-server journey (issue 31, "A change shows on the next page view of that channel on every server process"):
 * two server processes on one PostgreSQL, as docs/deploy.md runs them; the console on the first, the store looked at
 * on the second. `npm run test:e2e:servers` runs it inside scripts/with-postgres.sh. Chromium reaches the custom
 * domains of the journey on loopback by a host resolver rule (no DNS leaves the machine).
 */
export default defineConfig({
  ...base,
  // The two-server journey and issue 32's drop journey (e2e/drop-journey.spec.ts: buyer steps on the second server).
  testMatch: [/two-servers\.spec\.ts$/, /drop-journey\.spec\.ts$/],
  outputDir: './e2e/.artifacts-servers',
  use: {
    ...base.use,
    viewport: { width: 1280, height: 800 },
    isMobile: false,
    hasTouch: false,
    deviceScaleFactor: 1,
    userAgent: undefined,
    launchOptions: {
      ...base.use?.launchOptions,
      args: [...(base.use?.launchOptions?.args ?? []), '--host-resolver-rules=MAP *.example.test 127.0.0.1'],
    },
  },
  projects: [{ name: 'two-servers' }],
  webServer: [
    {
      command: 'bash scripts/e2e-server.sh',
      url: `http://127.0.0.1:${PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 600_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { E2E_PORT: String(PORT), ...DOMAINS },
    },
    {
      command: 'bash scripts/e2e-second-server.sh',
      url: `http://127.0.0.1:${SECOND_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 600_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { E2E_PORT: String(PORT), E2E_SECOND_PORT: String(SECOND_PORT), ...DOMAINS },
    },
  ],
});
