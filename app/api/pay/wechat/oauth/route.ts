import { env, publicOrigin } from '@/lib/env';
import { handleWechatOauth } from '@/lib/payment/wechat-oauth';

export const dynamic = 'force-dynamic';

/** WeChat's web OAuth round for the buyer's openid (JSAPI payment inside WeChat): lib/payment/wechat-oauth.ts. */
export async function GET(request: Request): Promise<Response> {
  const e = env();
  if (!e.PAYMENT_PROVIDERS.includes('wechatpay') || !e.WECHATPAY_APPID)
    return Response.json({ ok: false, message: 'WeChat Pay is not configured' }, { status: 404 });
  const host = (request.headers.get('host') ?? 'localhost').replace(/:\d+$/, '');
  const origin = publicOrigin(host, e);
  return handleWechatOauth(request, {
    appid: e.WECHATPAY_APPID,
    secret: e.WECHATPAY_APPSECRET,
    origin,
    secure: origin.startsWith('https:'),
  });
}
