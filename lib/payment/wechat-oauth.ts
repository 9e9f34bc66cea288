import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hmac, sameDigest } from '../security/crypto';
import { securityHeaders } from '../security/headers';
import { cookieValues, decodeCookieValue } from '../security/cookies';
import { safeReturnPath, WECHAT_OPENID_COOKIE, wechatCookieName } from './clients';

export { WECHAT_OPENID_COOKIE, wechatOauthStartPath } from './clients';

/**
 * The buyer's WeChat openid for JSAPI payment, learnt through WeChat's web OAuth with the silent `snsapi_base` scope
 * (no consent screen): /api/pay/wechat/oauth sends the buyer to WeChat's authorize page, WeChat sends them back with a
 * `code`, the code is exchanged for the openid with the official account's AppSecret, and the openid is kept in an
 * HttpOnly cookie. The openid names the buyer to WeChat Pay only: WeChat's sheet refuses to pay as someone else's, so
 * a cookie edited by hand cannot charge another account.
 *
 * Both cookies are `__Host-` on HTTPS (issue 29): a page on a sibling channel host (one site, so it may set cookies for
 * the parent domain) cannot set or shadow them, where it could otherwise make the OAuth round fail or choose the
 * identity sent to WeChat. The openid cookie is also signed (HMAC with PAYMENT_SECRET) and bound to the app id and the
 * channel, so a value made elsewhere, edited, or past its 30 days reads as no identity: the pay page then asks WeChat
 * again. A cookie that cannot be read (bad %-escapes, a wrong signature) is treated as absent, never a fault.
 */

/** Where the buyer returns to and the state that ties WeChat's answer to this browser, while the OAuth round runs. */
export const WECHAT_OAUTH_STATE_COOKIE = '__Host-wxpay_oauth';

/** How long the openid is kept (a month: WeChat's silent round is quick, but not worth making on every payment). */
export const WECHAT_OPENID_MAX_AGE_S = 30 * 86_400;

const OAUTH_PATH = '/api/pay/wechat/oauth';

/** What WeChat's openids look like (28 URL-safe characters in practice); anything else is not kept. */
const OPENID = /^[A-Za-z0-9_-]{1,128}$/;

/** WeChat's authorize page (official account web OAuth), silent scope. */
export function wechatAuthorizeUrl(appid: string, redirectUri: string, state: string): string {
  const query = new URLSearchParams({ appid, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_base', state });
  return `https://open.weixin.qq.com/connect/oauth2/authorize?${query.toString()}#wechat_redirect`;
}

const tokenAnswer = z.union([
  z.object({ openid: z.string().regex(OPENID) }),
  z.object({ errcode: z.number(), errmsg: z.string().optional() }),
]);

/** Exchanges the code WeChat sent back for the buyer's openid (`/sns/oauth2/access_token`). */
export async function exchangeOauthCode(input: { appid: string; secret: string; code: string; endpoint?: string }): Promise<string> {
  const query = new URLSearchParams({ appid: input.appid, secret: input.secret, code: input.code, grant_type: 'authorization_code' });
  const response = await fetch(`${input.endpoint ?? 'https://api.weixin.qq.com'}/sns/oauth2/access_token?${query.toString()}`, {
    signal: AbortSignal.timeout(10_000),
  });
  const parsed = tokenAnswer.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error(`WeChat OAuth: unexpected answer (HTTP ${response.status})`);
  if ('errcode' in parsed.data) throw new Error(`WeChat OAuth: ${parsed.data.errcode} ${parsed.data.errmsg ?? ''}`.trim());
  return parsed.data.openid;
}

/** What the openid cookie is bound to: the official account (an openid means something only for its app id) and the channel. */
export type OpenidBinding = { secret: string; appid: string; channelKey: string };

function openidMac(binding: OpenidBinding, openid: string, expires: string): string {
  return hmac(binding.secret, `wxpay-openid\n${binding.appid}\n${binding.channelKey}\n${openid}\n${expires}`);
}

/** The openid cookie's value: `openid.expires.mac` (expires in Unix seconds; every part URL-safe, so nothing to escape). */
export function signedOpenid(binding: OpenidBinding, openid: string, now: Date): string {
  const expires = String(Math.floor(now.getTime() / 1000) + WECHAT_OPENID_MAX_AGE_S);
  return `${openid}.${expires}.${openidMac(binding, openid, expires)}`;
}

/**
 * The buyer's openid from the request's Cookie header, or null: only the cookie of this scheme's name (`__Host-` on
 * HTTPS), only with a signature made by this server for this app id and channel, and not past its expiry.
 */
export function readWechatOpenid(header: string | null, binding: OpenidBinding & { https: boolean; now: Date }): string | null {
  for (const value of cookieValues(header, wechatCookieName(WECHAT_OPENID_COOKIE, binding.https))) {
    const match = /^([A-Za-z0-9_-]{1,128})\.(\d{1,12})\.([0-9a-f]{64})$/.exec(value);
    if (!match) continue;
    const [, openid, expires, mac] = match as unknown as [string, string, string, string];
    if (Number(expires) * 1000 <= binding.now.getTime()) continue;
    if (sameDigest(mac, openidMac(binding, openid, expires))) return openid;
  }
  return null;
}

/** An answer of the OAuth route: never cached, with the security headers every response carries (lib/security/headers.ts). */
function answer(status: number, headers: Headers, https: boolean, body: { ok: false; message: string } | null = null): Response {
  for (const [name, value] of Object.entries(securityHeaders({ https }))) headers.set(name, value);
  headers.set('cache-control', 'no-store');
  if (body) headers.set('content-type', 'application/json');
  return new Response(body ? JSON.stringify(body) : null, { status, headers });
}

/**
 * GET /api/pay/wechat/oauth: without `code`, starts the round (state cookie, redirect to WeChat); with `code` and the
 * matching `state`, learns the openid, keeps it (signed) and goes back to the page the buyer came from. `secure`: the
 * request came over HTTPS (the `__Host-` names and the Secure attribute); `cookieSecret` signs the openid cookie.
 */
export async function handleWechatOauth(
  request: Request,
  config: {
    appid: string;
    secret: string | undefined;
    origin: string;
    secure: boolean;
    cookieSecret: string;
    channelKey: string;
    endpoint?: string;
    now?: Date;
  },
): Promise<Response> {
  const url = new URL(request.url);
  const https = config.secure;
  if (!config.secret)
    return answer(404, new Headers(), https, { ok: false, message: 'WeChat OAuth is off: WECHATPAY_APPSECRET is not set' });
  const stateName = wechatCookieName(WECHAT_OAUTH_STATE_COOKIE, https);
  const attributes = `Path=/; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}`;
  const code = url.searchParams.get('code');
  if (!code) {
    const state = randomBytes(16).toString('hex');
    const back = safeReturnPath(url.searchParams.get('return'));
    const headers = new Headers({ location: wechatAuthorizeUrl(config.appid, `${config.origin}${OAUTH_PATH}`, state) });
    headers.append('set-cookie', `${stateName}=${state}.${encodeURIComponent(back)}; Max-Age=600; ${attributes}`);
    return answer(302, headers, https);
  }
  // The state cookie this browser got at the start, among any others of the name; a malformed one reads as none.
  const asked = url.searchParams.get('state');
  let back: string | null = null;
  for (const value of cookieValues(request.headers.get('cookie'), stateName)) {
    const match = /^([0-9a-f]{32})\.(.*)$/s.exec(value);
    if (match && match[1] === asked) {
      back = decodeCookieValue(match[2]!);
      if (back !== null) break;
    }
  }
  if (back === null)
    return answer(400, new Headers(), https, { ok: false, message: 'state: does not match this browser; start again from the pay page' });
  let openid: string;
  try {
    openid = await exchangeOauthCode({ appid: config.appid, secret: config.secret, code, endpoint: config.endpoint });
  } catch (error) {
    console.error('[pay] WeChat OAuth failed', (error as Error).message);
    return answer(502, new Headers(), https, { ok: false, message: 'code: WeChat did not confirm who you are; try again' });
  }
  const binding = { secret: config.cookieSecret, appid: config.appid, channelKey: config.channelKey };
  const headers = new Headers({ location: safeReturnPath(back) });
  headers.append(
    'set-cookie',
    `${wechatCookieName(WECHAT_OPENID_COOKIE, https)}=${signedOpenid(binding, openid, config.now ?? new Date())}; Max-Age=${WECHAT_OPENID_MAX_AGE_S}; ${attributes}`,
  );
  headers.append('set-cookie', `${stateName}=; Max-Age=0; ${attributes}`);
  return answer(302, headers, https);
}
