import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { OPS, signInOwner } from './console-owner';

// issue 32, "Reports": alerts go "to a webhook the owner sets". The owner opens AURORA's Reports tab, is refused a URL
// that is not one (the refusal under the field), sets a DingTalk robot (a receiver on loopback that checks DingTalk's
// signature itself), sends a test alert and reads what the robot said, then removes the webhook. The demo runs with
// DEMO_MODE=1, so a receiver on 127.0.0.1 over http is allowed (production refuses both: docs/security.md).

const SHOTS = process.env.CONSOLE_SHOTS;
async function shot(p: Page, name: string) {
  if (SHOTS) await p.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const SECRET = 'SECe2e-dingtalk-robot-secret';

test('the owner sets the store’s DingTalk robot, sends a test alert the robot takes, and removes it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const posts: string[] = [];
  const robot = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push(Buffer.concat(chunks).toString('utf8'));
      const url = new URL(req.url ?? '/', 'http://robot');
      const timestamp = url.searchParams.get('timestamp') ?? '';
      const sign = createHmac('sha256', SECRET).update(`${timestamp}\n${SECRET}`).digest('base64');
      const ok = url.searchParams.get('sign') === sign && url.searchParams.get('access_token') === 'e2e0123456789abc';
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(ok ? '{"errcode":0,"errmsg":"ok"}' : '{"errcode":310000,"errmsg":"sign not match"}');
    });
  });
  await new Promise<void>((resolve) => robot.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(robot.address() as AddressInfo).port}`;
  try {
    await signInOwner(page);
    await page.goto(`${OPS}/channels/AURORA/reports`);
    const section = page.getByTestId('alert-webhook');
    await expect(section.getByTestId('alert-webhook-current')).toHaveText('No webhook is set: alerts are only listed here.');

    // Not a web address: refused under the URL field, nothing set.
    await section.getByLabel('Webhook URL').fill('oapi.dingtalk.com/robot/send');
    await section.getByLabel('Format').selectOption('dingtalk');
    await section.getByRole('button', { name: 'Save webhook' }).click();
    await expect(section.getByText('The webhook URL must be a full web address starting with https://.')).toBeVisible();

    await section.getByLabel('Webhook URL').fill(`${origin}/robot/send?access_token=e2e0123456789abc`);
    await section.getByLabel('Signing secret').fill(SECRET);
    await section.getByRole('button', { name: 'Save webhook' }).click();
    await expect(section.getByTestId('alert-webhook-current')).toHaveText(
      `Alerts go to ${origin}/robot/send?access_token=…9abc as DingTalk group robot. Posts are signed.`,
    );
    // The secret is never shown again: the field is empty after saving.
    await expect(section.getByLabel('Signing secret')).toHaveValue('');

    await section.getByRole('button', { name: 'Send a test alert' }).click();
    await expect(section.getByTestId('alert-webhook-test')).toContainText('The receiver took it (HTTP 200).');
    await expect(section.getByTestId('alert-webhook-test')).toContainText('It said: {"errcode":0,"errmsg":"ok"}');
    expect(JSON.parse(posts.at(-1)!)).toMatchObject({ msgtype: 'text', text: { content: expect.stringContaining('[alert] test AURORA') } });
    await shot(page, 'alerts-1280');
    await page.setViewportSize({ width: 820, height: 1180 });
    await shot(page, 'alerts-820');

    const zh = await browser.newContext({
      locale: 'zh-CN',
      viewport: { width: 1280, height: 800 },
      storageState: await page.context().storageState(),
    });
    const zhPage = await zh.newPage();
    await zhPage.goto(`${OPS}/channels/AURORA/reports`);
    await expect(zhPage.getByTestId('alert-webhook-current')).toContainText('告警以 钉钉群机器人 格式发送到');
    await shot(zhPage, 'alerts-zh-1280');
    await zh.close();

    await section.getByRole('button', { name: 'Remove webhook' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(section.getByTestId('alert-webhook-current')).toHaveText('No webhook is set: alerts are only listed here.');
  } finally {
    await new Promise((resolve) => robot.close(resolve));
  }
});
