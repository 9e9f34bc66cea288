import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { PORT } from './support';

/**
 * An owner's API key for the specs that change a channel from outside (issue 31: `OPERATOR_TOKEN` is gone). The e2e
 * server makes an owner with the real command (`npm run ops:owner -- e2e.automation`, scripts/e2e-server.sh) before the
 * demo starts, and prints the enrolment link into its log, as the demo does for its own owner (e2e/console.spec.ts
 * reads that one). Here, once per server: enrol from the link in the browser, sign in, and make a key through the
 * console's own call. The key is kept in .data for the run's other specs (the link works once).
 */
export const E2E_OWNER = 'e2e.automation';
const OPS = `http://ops.localhost:${PORT}`;
const PASSWORD = 'the e2e automation owner chose this';
const KEPT = `.data/e2e-api-key-${PORT}.json`;

function printedLink(): string | null {
  const log = readFileSync(process.env.E2E_SERVER_LOG ?? `.data/e2e-server-${PORT}.log`, 'utf8');
  const own = log.split('\n').findIndex((line) => line.includes(`Owner ${E2E_OWNER} is invited`));
  if (own < 0) return null;
  return /http:\/\/ops\.localhost:\d+\/enrol\/[A-Za-z0-9_-]+/.exec(log.split('\n').slice(own).join('\n'))?.[0] ?? null;
}

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ms });

export async function ownerApiKey(browser: Browser): Promise<string> {
  const link = printedLink();
  if (!link) throw new Error(`the e2e server log has no enrolment link for ${E2E_OWNER} (scripts/e2e-server.sh)`);
  if (existsSync(KEPT)) {
    const kept = JSON.parse(readFileSync(KEPT, 'utf8')) as { link: string; key: string };
    if (kept.link === link) return kept.key;
  }
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(link);
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const token = link.split('/enrol/')[1]!;
    const now = Date.now();
    const key = await page.evaluate(
      async ({ token, password, enrolCode, signInCode, name }) => {
        const call = async (path: string, body: unknown) => {
          const res = await fetch(`/api/ops/api/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const envelope = (await res.json()) as { code: number; message: string; data: unknown };
          if (envelope.code !== 200) throw new Error(`${path}: ${envelope.code} ${envelope.message}`);
          return envelope.data;
        };
        await call('enrol/complete', { token, password, code: enrolCode });
        await call('session/signIn', { name, password, code: signInCode });
        const made = (await call('apiKey/create', { label: 'e2e', role: 'owner', channels: [] })) as { key: string };
        return made.key;
      },
      { token, password: PASSWORD, enrolCode: codeAt(secret, now), signInCode: codeAt(secret, now + 30_000), name: E2E_OWNER },
    );
    writeFileSync(KEPT, JSON.stringify({ link, key }));
    return key;
  } finally {
    await context.close();
  }
}

export { OPS };
