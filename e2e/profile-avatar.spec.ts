import fs from 'node:fs';
import sharp from 'sharp';
import { expect, test } from '@playwright/test';
import { logInThroughApi } from './api-login';
import { channelUrl } from './support';

// issue 36, the buyer's own photo as their avatar (docs/profile.md, "Avatar"). On AURORA in English: a text file is
// refused under the avatars, a PNG made here is uploaded, shows selected at once and on Mine's header. On BAZAAR in
// Chinese: the refusal and the uploaded photo in the buyer's words.

const SHOTS = 'e2e/.artifacts';

/** A photo as a phone sends it: 900 × 600, a teal field with an orange disc in the middle. */
async function photo(): Promise<Buffer> {
  const disc = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600"><rect width="900" height="600" fill="#0f766e"/><circle cx="450" cy="300" r="200" fill="#f97316"/></svg>',
  );
  return sharp(disc).png().toBuffer();
}

test('a buyer uploads a photo as their avatar and sees it on Mine', async ({ browser }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const context = await browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  await logInThroughApi(page, 'aurora');
  await page.goto(channelUrl('aurora', '/mine/profile'));
  await expect(page.getByTestId('profile-avatar-upload')).toHaveText('Upload a photo');

  // Not a picture: refused under the avatars, nothing changed.
  await page
    .getByTestId('profile-avatar-file')
    .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some notes') });
  await expect(page.getByTestId('profile-avatar-error')).toHaveText('A photo must be a PNG, JPEG or WebP picture: this file is not one.');
  await page.screenshot({ path: `${SHOTS}/profile-avatar-en-refused.png`, fullPage: true });

  // A real photo: it is the avatar at once, selected among the choices.
  await page.getByTestId('profile-avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await photo() });
  await expect(page.getByText('Your photo is your avatar now')).toBeVisible();
  await expect(page.getByTestId('profile-avatar-error')).toHaveCount(0);
  const mine = page.getByRole('radio', { name: 'Your photo' });
  await expect(mine).toHaveAttribute('aria-checked', 'true');
  const src = await mine.locator('img').getAttribute('src');
  const key = /[0-9a-f]{64}\.webp/.exec(decodeURIComponent(src ?? ''))?.[0];
  expect(key).toBeTruthy();
  await page.screenshot({ path: `${SHOTS}/profile-avatar-en.png`, fullPage: true });

  // Mine's header shows it, and the picture loads.
  await page.goto(channelUrl('aurora', '/mine'));
  const face = page.getByTestId('mine-profile').getByRole('img', { name: 'Avatar' });
  await expect(face).toHaveAttribute('src', new RegExp(key!));
  await expect.poll(() => face.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: `${SHOTS}/profile-avatar-en-mine.png` });

  // The photo's own URL answers the stored WebP.
  // (Fetched by the page: Node cannot resolve *.localhost.)
  const stored = await page.evaluate(async (file) => {
    const response = await fetch(`/media/${file}`);
    return { status: response.status, type: response.headers.get('content-type') };
  }, key!);
  expect(stored).toEqual({ status: 200, type: 'image/webp' });
  await context.close();
});

test('在中文页面上传头像：拒绝与成功都用买家的语言', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await logInThroughApi(page, 'bazaar');
  await page.goto(channelUrl('bazaar', '/mine/profile'));
  await expect(page.getByTestId('profile-avatar-upload')).toHaveText('上传照片');
  await page.getByTestId('profile-avatar-file').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByTestId('profile-avatar-error')).toHaveText('照片须为 PNG、JPEG 或 WebP 格式，此文件格式不符');
  await page.screenshot({ path: `${SHOTS}/profile-avatar-zh-refused.png`, fullPage: true });
  await page.getByTestId('profile-avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await photo() });
  await expect(page.getByText('已设为你的头像')).toBeVisible();
  await expect(page.getByRole('radio', { name: '我的照片' })).toHaveAttribute('aria-checked', 'true');
  await page.screenshot({ path: `${SHOTS}/profile-avatar-zh.png`, fullPage: true });
  await page.goto(channelUrl('bazaar', '/mine'));
  await expect(page.getByTestId('mine-profile').getByRole('img').first()).toHaveAttribute('src', /[0-9a-f]{64}\.webp/);
  await page.screenshot({ path: `${SHOTS}/profile-avatar-zh-mine.png` });
  await context.close();
});
