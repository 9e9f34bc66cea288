import { expect, type Page } from '@playwright/test';

// Logging in from the login page, shared by the specs: through a real drag of the slider captcha, or through the
// question fallback where a spec is about something else and only needs a buyer.

let phoneSeq = Math.floor(Date.now() / 1000) % 10_000;
/** A number of its own per test (and per run), so the per-phone SMS limits never collide. */
export const newPhone = () => `137${String(Date.now() % 10_000).padStart(4, '0')}${String(++phoneSeq % 10_000).padStart(4, '0')}`;

/**
 * Finds the gap the way an eye does: the piece is a copy of the picture's pixels, and the gap is those same pixels
 * darkened; so slide the piece along its row and keep the position where the picture is the piece times one
 * constant. Works in the page, on the two PNGs it shows. Returns the gap's x in picture pixels.
 */
export async function findGap(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const dialog = document.querySelector('[data-testid="captcha"]')!;
    const [bgImg, pieceImg] = Array.from(dialog.querySelectorAll('img'));
    const load = (src: string) =>
      new Promise<HTMLImageElement>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.src = src;
      });
    const [bg, piece] = await Promise.all([load(bgImg!.src), load(pieceImg!.src)]);
    const pixels = (img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const c = canvas.getContext('2d')!;
      c.drawImage(img, 0, 0);
      return c.getImageData(0, 0, canvas.width, canvas.height).data;
    };
    const b = pixels(bg);
    const p = pixels(piece);
    const W = bg.naturalWidth;
    const S = piece.naturalWidth;
    const scale = bgImg!.getBoundingClientRect().width / W;
    const y0 = Math.round(parseFloat(pieceImg!.style.top) / scale);
    const opaque = (x: number, y: number) => x >= 0 && y >= 0 && x < S && y < S && p[(y * S + x) * 4 + 3] === 255;
    const inner: [number, number][] = [];
    for (let y = 0; y < S; y++) for (let x = 0; x < S; x++) if (opaque(x, y) && opaque(x - 3, y) && opaque(x + 3, y) && opaque(x, y - 3) && opaque(x, y + 3)) inner.push([x, y]);
    let best = { x: 0, error: Infinity };
    for (let gx = 0; gx <= W - S; gx++) {
      let pb = 0;
      let pp = 0;
      const pairs: [number, number][] = [];
      for (const [x, y] of inner) {
        for (let ch = 0; ch < 3; ch++) {
          const pv = p[(y * S + x) * 4 + ch]!;
          const bv = b[((y0 + y) * W + gx + x) * 4 + ch]!;
          pairs.push([pv, bv]);
          pb += pv * bv;
          pp += pv * pv;
        }
      }
      const k = pb / pp;
      let error = 0;
      for (const [pv, bv] of pairs) error += (bv - k * pv) ** 2;
      if (k < 0.95 && error < best.error) best = { x: gx, error };
    }
    return best.x;
  });
}

/** Drags the slider handle like a hand: uneven steps, pauses, a little vertical drift. */
export async function dragSliderTo(page: Page, gapX: number): Promise<void> {
  const handle = page.getByTestId('captcha-handle');
  const frame = await page.getByTestId('captcha').locator('img').first().boundingBox();
  const box = (await handle.boundingBox())!;
  const scale = frame!.width / 300;
  const startX = box.x + box.width / 2;
  const startY = box.y + box.height / 2;
  const distance = gapX * scale;
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  const fractions = [0.05, 0.15, 0.32, 0.5, 0.66, 0.8, 0.9, 0.96, 0.99, 1];
  for (const [i, f] of fractions.entries()) {
    await page.mouse.move(startX + distance * f, startY + (i % 3) - 1, { steps: 2 + (i % 3) });
    await page.waitForTimeout(30 + ((i * 37) % 70));
  }
  await page.mouse.up();
}

/** Opens the captcha from "Get code", drags the piece into the gap, and checks the server took the drag. */
export async function solveCaptcha(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Get code' }).click();
  const captcha = page.getByRole('dialog', { name: 'Security check' });
  await expect(captcha).toBeVisible();
  await expect(captcha.getByTestId('captcha-piece')).toBeVisible();
  await expect(captcha.getByTestId('captcha-handle')).toBeEnabled();
  const verified = page.waitForResponse((response) => response.url().endsWith('/captcha/verify'));
  await dragSliderTo(page, await findGap(page));
  const body = (await (await verified).json()) as { code: number; message: string };
  expect(body, 'the server took the drag').toMatchObject({ code: 200 });
  await expect(captcha).toBeHidden();
}

/** From the login page: phone, captcha by drag, the demo code, agreement, log in. */
export async function logIn(page: Page, phone: string): Promise<void> {
  await page.getByLabel('Phone number').fill(phone);
  await solveCaptcha(page);
  await expect(page.getByText(/^Code sent to 137\*\*\*\*\d{4}$/)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Resend in \d+ s$/ })).toBeDisabled();
  const demo = await page.getByTestId('demo-code').textContent();
  const code = /(\d{6})/.exec(demo ?? '')![1]!;
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** Logs in answering the captcha's question instead of dragging (specs about other things just need a buyer). */
export async function logInWithQuestion(page: Page, phone = newPhone()): Promise<void> {
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await page.getByRole('button', { name: 'Cannot drag? Answer a question instead' }).click();
  const question = await page.getByText(/^What is \d+ plus \d+\?$/).textContent();
  const [, a, b] = /What is (\d+) plus (\d+)/.exec(question!)!;
  await page.getByLabel('Your answer').fill(String(Number(a) + Number(b)));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('demo-code')).toHaveText(/\d{6}/);
  const code = /(\d{6})/.exec((await page.getByTestId('demo-code').textContent()) ?? '')![1]!;
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}
