import { expect, test } from '@playwright/test';
import { PORT, channelUrl } from './support';
import { newPhone } from './login-helpers';
import { arriveFromOwnAddress } from './buyers';

// Security review, finding 1: the demo showed a phone's login code to anyone who asked by phone number. Now it shows
// the code only in the browser that asked for it.

/** Asks for a code from the login page through the captcha's question (with its proof of work). */
async function askForCode(page: import('@playwright/test').Page, phone: string) {
  // Each browser from an address of its own, as two phones would be (e2e/buyers.ts).
  await arriveFromOwnAddress(page.context());
  await page.goto(channelUrl('aurora', '/login'));
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await page.getByRole('button', { name: 'Cannot drag? Answer a question instead' }).click();
  const question = await page.getByText(/^What is \d+ plus \d+\?$/).textContent();
  const [, a, b] = /What is (\d+) plus (\d+)/.exec(question!)!;
  const sent = page.waitForResponse((response) => response.url().endsWith('/auth/getAuthCode'));
  await page.getByLabel('Your answer').fill(String(Number(a) + Number(b)));
  await page.keyboard.press('Enter');
  return (await (await sent).json()) as { code: number; data: { demoCode?: string } | null };
}

test('a second browser cannot read the first one’s login code (finding 1)', async ({ browser }) => {
  const phone = newPhone();
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const pageA = await first.newPage();
    const answerA = await askForCode(pageA, phone);
    expect(answerA.code).toBe(200);
    await expect(pageA.getByTestId('demo-code')).toHaveText(new RegExp(answerA.data!.demoCode!));

    // The second browser asks for the same phone: refused (the phone's wait), and no code anywhere on its page.
    const pageB = await second.newPage();
    const answerB = await askForCode(pageB, phone);
    expect(answerB.code).toBe(429);
    expect(JSON.stringify(answerB)).not.toContain(answerA.data!.demoCode!);
    await expect(pageB.getByTestId('demo-code')).toHaveCount(0);
    await expect(pageB.locator('body')).not.toContainText(answerA.data!.demoCode!);

    // Nor is there any endpoint that shows a code by phone number.
    const peek = await pageB.request.post(`http://127.0.0.1:${PORT}/api/auth/api/auth/outbox`, {
      headers: { host: `aurora.localhost:${PORT}` },
      data: { phone },
    });
    expect(await peek.json()).toMatchObject({ code: 404 });

    // The first browser logs in with its code.
    await pageA.getByLabel('Verification code').fill(answerA.data!.demoCode!);
    await pageA.getByRole('checkbox').check();
    await pageA.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(pageA).toHaveURL(channelUrl('aurora', '/mine'));
  } finally {
    await first.close();
    await second.close();
  }
});
