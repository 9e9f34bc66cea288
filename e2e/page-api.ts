import type { Page } from '@playwright/test';
import { solvePow, type PowChallenge } from '../lib/client/proof-of-work';

// The market API called from a page of a channel, as the storefront's client calls it, and a buyer's log-in through
// it: one shape for the e2e suite (e2e/api-login.ts) and the screenshot script (scripts/screens.ts).
//   - the calls go from the page itself (Chromium resolves *.localhost, Node does not: DESIGN §11), so the cookies the
//     server sets (the device cookie of getAuthCode, next-auth's csrf and session cookies) land in the browser as the
//     form's calls leave them;
//   - captcha by its question with the proof of work solved here (as lib/auth/procedures.test.ts does), the code the
//     demo outbox hands back, authCodeLoginV2 for the token, then next-auth's credentials sign-in (csrf, then
//     callback/token, as next-auth's signIn does) for the HttpOnly session cookie;
//   - then what the form does after: the profile and the brand binding, and the persisted user module (art-front in
//     localStorage: the masked phone and the profile, never the token; lib/client/store.ts).

export type ApiAnswer = {
  status: number;
  body: { code: number; message: string; data: Record<string, unknown> | null };
  authorization: string | null;
};

/** POSTs to the market API from the page, with the headers the storefront's client sends; throws unless it is a 200. */
export async function postFromPage(page: Page, path: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const answer = await page.evaluate(
    async ({ path, body, headers }) => {
      const res = await fetch(`/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      });
      return { status: res.status, body: (await res.json()) as ApiAnswer['body'], authorization: res.headers.get('authorization') };
    },
    { path, body, headers },
  );
  if (answer.status !== 200 || answer.body.code !== 200)
    throw new Error(`API login: ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/**
 * Logs `phone` in on the channel whose page `page` is on (any page of the channel's own origin), binding it to the
 * channel's `brandName`, as the login form would.
 */
export async function signInFromPage(page: Page, phone: string, brandName: string): Promise<void> {
  const challenge = (await postFromPage(page, '/auth/api/captcha/challenge', { kind: 'text' })).body.data as {
    id: string;
    question: { a: number; b: number };
    pow: PowChallenge;
  };
  const pow = await solvePow(challenge.pow);
  const { ticket } = (
    await postFromPage(page, '/auth/api/captcha/verify', { id: challenge.id, pow, answer: challenge.question.a + challenge.question.b })
  ).body.data as { ticket: string };
  const sent = (await postFromPage(page, '/auth/api/auth/getAuthCode', { phone }, { behaviorVerify: ticket })).body.data as {
    demoCode?: string;
  };
  if (!sent.demoCode) throw new Error('API login: the demo outbox gave no code (is SMS_PROVIDER the demo one?)');
  const login = await postFromPage(page, '/auth/api/auth/authCodeLoginV2', { phone, code: sent.demoCode });
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
  if (!signedIn) throw new Error('API login: next-auth did not take the token');

  const profile = await postFromPage(page, '/market/api/userAttribute/queryByUserUuid', {}, { authorization: token });
  await postFromPage(page, '/user/api/thirdAccount/brandChannel', { brandName }, { authorization: token });
  const masked = String(login.body.data?.phone);
  await page.evaluate(
    ({ masked, userInfo }) =>
      window.localStorage.setItem('art-front', JSON.stringify({ state: { user: { phone: masked, userInfo } }, version: 0 })),
    { masked, userInfo: profile.body.data },
  );
}
