import { env, publicOrigin } from '@/lib/env';
import { domainSettings, routeHostOrKeyRule } from '@/lib/channel/domains';
import { getDb } from '@/lib/db/client';
import { forwardedHttps, securityHeaders } from '@/lib/security/headers';
import { handleWechatOauth } from '@/lib/payment/wechat-oauth';

export const dynamic = 'force-dynamic';

/** WeChat's web OAuth round for the buyer's openid (JSAPI payment inside WeChat): lib/payment/wechat-oauth.ts. */
export async function GET(request: Request): Promise<Response> {
  const e = env();
  // The scheme the browser used, as the entry server resolved it: it decides the cookies' `__Host-` names (issue 29).
  const https = forwardedHttps(request.headers) || new URL(request.url).protocol === 'https:';
  if (!e.PAYMENT_PROVIDERS.includes('wechatpay') || !e.WECHATPAY_APPID)
    return Response.json({ ok: false, message: 'WeChat Pay is not configured' }, { status: 404, headers: securityHeaders({ https }) });
  const host = (request.headers.get('host') ?? 'localhost').replace(/:\d+$/, '');
  return handleWechatOauth(request, {
    appid: e.WECHATPAY_APPID,
    secret: e.WECHATPAY_APPSECRET,
    origin: publicOrigin(host, e),
    secure: https,
    cookieSecret: e.PAYMENT_SECRET,
    channelKey: (await routeHostOrKeyRule(getDb, host, domainSettings(e))).key,
  });
}
