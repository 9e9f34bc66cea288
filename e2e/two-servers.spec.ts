import { expect, test } from '@playwright/test';
import { enrolOwner, signInOwner } from './console-owner';
import { PORT } from './support';

// issue 31, "A change shows on the next page view of that channel on every server process, not only the one that
// took it": the owner works in the console on the first server; the store is looked at on the second
// (playwright.servers.config.ts: two server processes on one PostgreSQL).
const SECOND_PORT = Number(process.env.E2E_SECOND_PORT ?? PORT + 1);
const onSecond = (host: string, path = '/') => `http://${host}:${SECOND_PORT}${path}`;

test.describe.serial('two server processes', () => {
  test('the owner enrols and signs in on the first server; the second serves the same store', async ({ page }) => {
    await enrolOwner(page, 'the owner of two servers');
    await signInOwner(page);
    await expect(page.locator('tr[data-channel="AURORA"]')).toBeVisible();
    await page.goto(onSecond('aurora.localhost'));
    await expect(page.locator('html')).toHaveAttribute('style', /--skin-color1/);
  });
});
