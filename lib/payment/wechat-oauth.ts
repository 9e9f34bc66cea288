import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { safeReturnPath, WECHAT_OPENID_COOKIE } from './clients';

export { WECHAT_OPENID_COOKIE, wechatOauthStartPath } from './clients';

/**
 * The buyer's WeChat openid for JSAPI payment, learnt through WeChat's web OAuth with the silent `snsapi_base` scope
 * (no consent screen): /api/pay/wechat/oauth sends the buyer to WeChat's authorize page, WeChat sends them back with a
 * `code`, the code is exchanged for the openid with the official account's AppSecret, and the openid is kept in an
 * HttpOnly cookie. The openid names the buyer to WeChat Pay only: WeChat's sheet refuses to pay as someone else's, so
 * a cookie edited by hand cannot charge another account.
 */

/** Where the buyer returns to and the state that ties WeChat's answer to this browser, while the OAuth round runs. */
export const WECHAT_OAUTH_STATE_COOKIE = 'wxpay_oauth';

const OAUTH_PATH = '/api/pay/wechat/oauth';

/** WeChat's authorize page (official account web OAuth), silent scope. */
export function wechatAuthorizeUrl(appid: string, redirectUri: string, state: string): string {
  const query = new URLSearchParams({ appid, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_base', state });
  return `https://open.weixin.qq.com/connect/oauth2/authorize?${query.toString()}#wechat_redirect`;
}

const tokenAnswer = z.union([
  z.object({ openid: z.string().min(1).max(128) }),
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

/**
 * GET /api/pay/wechat/oauth: without `code`, starts the round (state cookie, redirect to WeChat); with `code` and the
 * matching `state`, learns the openid, keeps it and goes back to the page the buyer came from.
 */
export async function handleWechatOauth(
  request: Request,
  config: { appid: string; secret: string | undefined; origin: string; secure: boolean; endpoint?: string },
): Promise<Response> {
  const url = new URL(request.url);
  if (!config.secret) return Response.json({ ok: false, message: 'WeChat OAuth is off: WECHATPAY_APPSECRET is not set' }, { status: 404 });
  const cookie = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${WECHAT_OAUTH_STATE_COOKIE}=`));
  const attributes = `Path=/; HttpOnly; SameSite=Lax${config.secure ? '; Secure' : ''}`;
  const code = url.searchParams.get('code');
  if (!code) {
    const state = randomBytes(16).toString('hex');
    const back = safeReturnPath(url.searchParams.get('return'));
    const headers = new Headers({ location: wechatAuthorizeUrl(config.appid, `${config.origin}${OAUTH_PATH}`, state) });
    headers.append('set-cookie', `${WECHAT_OAUTH_STATE_COOKIE}=${state}.${encodeURIComponent(back)}; Max-Age=600; ${attributes}`);
    return new Response(null, { status: 302, headers });
  }
  const [state, back] = decodeURIComponent(cookie?.slice(WECHAT_OAUTH_STATE_COOKIE.length + 1) ?? '').split(/\.(.*)/s);
  if (!state || state !== url.searchParams.get('state'))
    return Response.json({ ok: false, message: 'state: does not match this browser; start again from the pay page' }, { status: 400 });
  let openid: string;
  try {
    openid = await exchangeOauthCode({ appid: config.appid, secret: config.secret, code, endpoint: config.endpoint });
  } catch (error) {
    console.error('[pay] WeChat OAuth failed', (error as Error).message);
    return Response.json({ ok: false, message: 'code: WeChat did not confirm who you are; try again' }, { status: 502 });
  }
  const headers = new Headers({ location: safeReturnPath(back) });
  headers.append('set-cookie', `${WECHAT_OPENID_COOKIE}=${encodeURIComponent(openid)}; Max-Age=${30 * 86_400}; ${attributes}`);
  headers.append('set-cookie', `${WECHAT_OAUTH_STATE_COOKIE}=; Max-Age=0; ${attributes}`);
  return new Response(null, { status: 302, headers });
}
