import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { PORT } from './support';

/**
 * The demo owner of the console's end-to-end specs (issue 31). e2e/console.spec.ts enrols the owner from the link the
 * demo printed (the link works once) and keeps what an owner would keep — the account name, the password and the
 * authenticator's secret — in a file of this run; the other console specs (e2e/console-*.spec.ts, a project that
 * depends on console.spec.ts) sign in with them. Each TOTP step works once per operator (a replayed code is refused),
 * so the file also keeps the last step spent, and a spec that needs a code waits for the next unspent step.
 */
export const OPS = `http://ops.localhost:${PORT}`;
const FILE = `.data/e2e-ops-owner-${PORT}.json`;
const PERIOD_MS = 30_000;

type Owner = { name: string; password: string; secret: string; lastStep: number };

/** The last enrolment link the demo printed (scripts/e2e-server.sh keeps its output). */
export function printedLink(): string | null {
  const log = readFileSync(process.env.E2E_SERVER_LOG ?? `.data/e2e-server-${PORT}.log`, 'utf8');
  const links = [...log.matchAll(/http:\/\/ops\.localhost:\d+\/enrol\/[A-Za-z0-9_-]+/g)].map((m) => m[0]);
  return links.at(-1) ?? null;
}

/**
 * Enrols the demo owner from the printed link as briefly as an owner can (e2e/console.spec.ts walks the same steps
 * with every check) and keeps the owner for `signInOwner`.
 */
export async function enrolOwner(page: Page, password: string): Promise<void> {
  await expect.poll(printedLink, { message: 'npm run demo prints the demo owner’s enrolment link' }).not.toBeNull();
  await page.goto(printedLink()!);
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password again').fill(password);
  const spentAt = Date.now();
  await page.getByLabel('Code from the app').fill(codeAt(secret, spentAt));
  await page.getByRole('button', { name: 'Finish setting up' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible();
  saveOwner({ name: 'demo.owner', password, secret }, spentAt);
}

/** The code an authenticator app with `secret` shows at `ms`. */
export function codeAt(secret: string, ms: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: ms });
}

/** Keeps the enrolled owner for the other console specs; `spentAtMs`: the time whose code the enrolment spent. */
export function saveOwner(owner: Omit<Owner, 'lastStep'>, spentAtMs: number): void {
  writeFileSync(FILE, JSON.stringify({ ...owner, lastStep: Math.floor(spentAtMs / PERIOD_MS) }));
}

export function readOwner(): Owner {
  if (!existsSync(FILE)) throw new Error(`${FILE} is missing: e2e/console.spec.ts enrols the owner first (project console-desktop)`);
  return JSON.parse(readFileSync(FILE, 'utf8')) as Owner;
}

/**
 * The code of a step `secret` has not spent, as its authenticator app would show. The server takes the step before
 * the current one, the current and the next: when the next unspent step is further ahead, this waits (up to a step,
 * 30 s; a test that asks for several codes in a row sets a longer timeout).
 */
export async function unspentCode(page: Page, secret: string, lastStep: number): Promise<{ code: string; step: number }> {
  const step = Math.max(Math.floor(Date.now() / PERIOD_MS), lastStep + 1);
  while (step > Math.floor(Date.now() / PERIOD_MS) + 1) await page.waitForTimeout(1000);
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: step * PERIOD_MS,
  });
  return { code, step };
}

/** The owner's next code, its step marked spent in the run's file. */
export async function ownerCode(page: Page): Promise<string> {
  const owner = readOwner();
  const { code, step } = await unspentCode(page, owner.secret, owner.lastStep);
  writeFileSync(FILE, JSON.stringify({ ...owner, lastStep: step }));
  return code;
}

/** Signs the demo owner in on `page` (the console's sign-in form) and waits for the channel list. */
export async function signInOwner(page: Page): Promise<void> {
  const owner = readOwner();
  await page.goto(`${OPS}/sign-in`);
  await page.getByLabel('Account name').fill(owner.name);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByLabel('Code', { exact: true }).fill(await ownerCode(page));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${OPS}/channels`);
}

/** A moment as a `datetime-local` input with seconds reads it in `zone` (`2026-11-28T05:30:15`). */
export function inZone(ms: number, zone = 'Asia/Shanghai'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * A sale of AURORA's demo collectible (price 9.90, 1 per buyer, not listed) made through the console's own call from a
 * signed-in console page, as the sales page makes one; answers the call's envelope.
 */
export async function createConsoleSale(
  page: Page,
  sale: { code: string; copies: number; startsAt: number },
): Promise<{ code: number; message: string }> {
  await page.goto(`${OPS}/channels/AURORA/sales`);
  return page.evaluate(
    async ({ code, copies, start }) => {
      const res = await fetch('/api/ops/api/sale/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          channel: 'AURORA',
          code,
          collectible: 'aurora-dawn',
          price: 990,
          copies,
          limitPerUser: 1,
          saleStartTime: start,
          saleEndTime: null,
          listed: false,
          sort: 0,
        }),
      });
      return (await res.json()) as { code: number; message: string };
    },
    { code: sale.code, copies: sale.copies, start: new Date(sale.startsAt).toISOString() },
  );
}
