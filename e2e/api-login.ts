import { expect, type Page } from '@playwright/test';
import { solvePow, type PowChallenge } from '../lib/client/proof-of-work';
import { channelUrl, seedChannel } from './support';
import { newPhone } from './login-helpers';
import { arriveFromOwnAddress } from './buyers';

// Logging a buyer in through the API, for specs that are about something else than logging in (the login form has its
// own specs: login.spec.ts, security-login.spec.ts). The browser ends up where the login form leaves it:
//   - from an address of the buyer's own (e2e/buyers.ts), as real buyers arrive: the server's per-address limits stay on;
//   - the calls go from the page itself (Chromium resolves *.localhost, Node does not: DESIGN §11), so the cookies the
//     server sets (the device cookie of getAuthCode, next-auth's csrf and session cookies) land in the browser as the
//     form's calls leave them;
//   - captcha by its question with the proof of work solved here (as lib/auth/procedures.test.ts does), the code the
//     demo outbox hands back, authCodeLoginV2 for the token, then next-auth's credentials sign-in (csrf, then
//     callback/token, as next-auth's signIn does) for the HttpOnly session cookie;
//   - then what the form does after: the profile and the brand binding, and the persisted user module (art-front in
//     localStorage: the masked phone and the profile, never the token; lib/client/store.ts).

type Answer = {
  status: number;
  body: { code: number; message: string; data: Record<string, unknown> | null };
  authorization: string | null;
};

/** POSTs to the market API from the page, with the headers the storefront's client sends. */
async function post(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const answer = await page.evaluate(
    async ({ path, body, headers }) => {
      const res = await fetch(`/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      });
      return { status: res.status, body: (await res.json()) as Answer['body'], authorization: res.headers.get('authorization') };
    },
    { path, body, headers },
  );
  if (answer.status !== 200 || answer.body.code !== 200)
    throw new Error(`API login: ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/**
 * Logs a new buyer (or the given phone) in on a channel, through the API, in this page's browser context; leaves the
 * page on the channel's origin. Returns the phone.
 */
export async function logInThroughApi(page: Page, channel: string, phone = newPhone()): Promise<string> {
  await arriveFromOwnAddress(page.context());
  // A page of the channel's own origin without the app: the calls and the storage belong to that host.
  await page.goto(channelUrl(channel, '/api/health'));
  const challenge = (await post(page, '/auth/api/captcha/challenge', { kind: 'text' })).body.data as {
    id: string;
    question: { a: number; b: number };
    pow: PowChallenge;
  };
  const pow = await solvePow(challenge.pow);
  const { ticket } = (
    await post(page, '/auth/api/captcha/verify', { id: challenge.id, pow, answer: challenge.question.a + challenge.question.b })
  ).body.data as { ticket: string };
  const sent = (await post(page, '/auth/api/auth/getAuthCode', { phone }, { behaviorVerify: ticket })).body.data as { demoCode?: string };
  if (!sent.demoCode) throw new Error('API login: the demo outbox gave no code (is SMS_PROVIDER the demo one?)');
  const login = await post(page, '/auth/api/auth/authCodeLoginV2', { phone, code: sent.demoCode });
  const token = login.authorization;
  if (!token) throw new Error('API login: no token in the authorization header');

  const signedIn = await page.evaluate(async (token) => {
    const { csrfToken } = (await (await fetch('/api/auth/csrf')).json()) as { csrfToken: string };
    const res = await fetch('/api/auth/callback/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, csrfToken, callbackUrl: window.location.href, json: 'true' }),
    });
    const data = (await res.json()) as { url?: string };
    return res.ok && !new URL(data.url ?? '', window.location.href).searchParams.get('error');
  }, token);
  expect(signedIn, 'next-auth took the token').toBe(true);

  const profile = await post(page, '/market/api/userAttribute/queryByUserUuid', {}, { authorization: token });
  await post(
    page,
    '/user/api/thirdAccount/brandChannel',
    { brandName: seedChannel(channel.toUpperCase()).brandName },
    { authorization: token },
  );
  const masked = String(login.body.data?.phone);
  await page.evaluate(
    ({ masked, userInfo }) =>
      window.localStorage.setItem('art-front', JSON.stringify({ state: { user: { phone: masked, userInfo } }, version: 0 })),
    { masked, userInfo: profile.body.data },
  );
  return phone;
}
