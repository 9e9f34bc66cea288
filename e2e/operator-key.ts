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

/** What the specs know of the e2e owner: the API key, the password, the TOTP secret, steps used, recovery codes left. */
export type E2eOwner = { link: string; key: string; password: string; secret: string; usedSteps: number[]; recoveryCodes: string[] };

function keep(owner: E2eOwner): void {
  writeFileSync(KEPT, JSON.stringify(owner));
}

/** The e2e owner, enrolled (and their key made) on first use. */
export async function e2eOwner(browser: Browser): Promise<E2eOwner> {
  const link = printedLink();
  if (!link) throw new Error(`the e2e server log has no enrolment link for ${E2E_OWNER} (scripts/e2e-server.sh)`);
  if (existsSync(KEPT)) {
    const kept = JSON.parse(readFileSync(KEPT, 'utf8')) as E2eOwner;
    if (kept.link === link) return kept;
  }
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(link);
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    const token = link.split('/enrol/')[1]!;
    const now = Date.now();
    const made = await page.evaluate(
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
        const enrolled = (await call('enrol/complete', { token, password, code: enrolCode })) as { recoveryCodes: string[] };
        await call('session/signIn', { name, password, code: signInCode });
        const created = (await call('apiKey/create', { label: 'e2e', role: 'owner', channels: [] })) as { key: string };
        return { key: created.key, recoveryCodes: enrolled.recoveryCodes };
      },
      { token, password: PASSWORD, enrolCode: codeAt(secret, now), signInCode: codeAt(secret, now + 30_000), name: E2E_OWNER },
    );
    const step = Math.floor(now / 30_000);
    const owner = { link, key: made.key, password: PASSWORD, secret, usedSteps: [step, step + 1], recoveryCodes: made.recoveryCodes };
    keep(owner);
    return owner;
  } finally {
    await context.close();
  }
}

/** An owner's API key (e2e/caching.spec.ts changes a skin with it). */
export async function ownerApiKey(browser: Browser): Promise<string> {
  return (await e2eOwner(browser)).key;
}

/** One of the e2e owner's recovery codes, spent. */
export function takeRecoveryCode(owner: E2eOwner): string {
  const code = owner.recoveryCodes.shift();
  if (!code) throw new Error('the e2e owner has no recovery code left');
  keep(owner);
  return code;
}

/** A TOTP code of the e2e owner for a step the server still takes (±1 step of now) and nobody used, then marked used. */
export function freshOwnerCode(owner: E2eOwner): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = [now, now + 1, now - 1].find((s) => !owner.usedSteps.includes(s));
  if (step === undefined) throw new Error('no unused TOTP step around now');
  owner.usedSteps.push(step);
  keep(owner);
  return codeAt(owner.secret, step * 30_000);
}

export { codeAt };

export { OPS };

/** A console call's answer: the API's envelope. */
export type Envelope = { code: number; message: string; data: Record<string, unknown> | null };

/** The console's calls as an owner's API key makes them, from a page of the console's host (Node cannot resolve it). */
export async function consoleCaller(browser: Browser): Promise<(path: string, body: unknown) => Promise<Envelope>> {
  const key = await ownerApiKey(browser);
  const ops = await browser.newPage();
  await ops.goto(`${OPS}/api/health`);
  return (path, body) =>
    ops.evaluate(
      async ({ path, body, key }) => {
        const res = await fetch(`/api${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify(body),
        });
        return (await res.json()) as Envelope;
      },
      { path, body, key },
    );
}
