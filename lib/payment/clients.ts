import { detectEnvironment } from '../user-agent/environment';
import type { PaymentProviderName } from '../env';

/**
 * The buyer's environment as payment sees it, for the server (pay/create's check) and the browser (the pay page's
 * choice) alike: no server-only imports, and only types from lib/env.ts.
 */

/**
 * Where the buyer pays from, as far as payment goes:
 * - `wechat`: WeChat's in-app browser (User-Agent `MicroMessenger`): WeChat Pay JSAPI; Alipay's pages are blocked there;
 * - `mini-program`: a WeChat mini-program's web view: neither JSAPI (the web view has no WeixinJSBridge payment; a
 *   mini-program pays with its own wx.requestPayment) nor Alipay;
 * - `mobile`: any other phone browser: WeChat Pay H5, Alipay mobile web pay;
 * - `desktop`: a computer's browser (WeChat Pay would need its QR-code Native payment, not built).
 */
export type PayClient = 'wechat' | 'mini-program' | 'mobile' | 'desktop';
export const PAY_CLIENTS = ['wechat', 'mini-program', 'mobile', 'desktop'] as const satisfies readonly PayClient[];

/** The buyer's environment from the request's User-Agent. Pure. */
export function payClientOf(userAgent: string): PayClient {
  const environment = detectEnvironment(userAgent);
  if (environment === 'wxapp') return 'mini-program';
  if (environment === 'wxh5') return 'wechat';
  return /Mobi|Android|iPhone|iPad|iPod|HarmonyOS/i.test(userAgent) ? 'mobile' : 'desktop';
}

/** A provider the pay page may offer: its name and the environments it takes payments from. */
export type PayOption = { name: PaymentProviderName; clients: readonly PayClient[] };

/** The options that fit the buyer's environment, in the channel's order. */
export function optionsFor(options: readonly PayOption[], client: PayClient): PayOption[] {
  return options.filter((o) => o.clients.includes(client));
}

/** A site path to come back to: anything else (another site, `//host`) becomes the home page. */
export function safeReturnPath(value: string | null | undefined): string {
  return value && /^\/(?![/\\])[^\s]*$/.test(value) ? value : '/';
}

/** Where a page sends a buyer inside WeChat to learn their openid (JSAPI), coming back to `returnPath`. */
export function wechatOauthStartPath(returnPath: string): string {
  return `/api/pay/wechat/oauth?return=${encodeURIComponent(safeReturnPath(returnPath))}`;
}

/**
 * The cookie that keeps the buyer's WeChat openid, signed (lib/payment/wechat-oauth.ts sets and reads it). `__Host-`
 * on HTTPS, so a sibling channel host cannot set or shadow it (issue 29); on plain HTTP (the demo on *.localhost) the
 * browser refuses the prefix, so the name goes without it there, as next-auth does with its `__Secure-` (wechatCookieName).
 */
export const WECHAT_OPENID_COOKIE = '__Host-wxpay_openid';

/** A WeChat cookie's name over HTTPS (`__Host-…`) or plain HTTP (the same without the prefix). */
export function wechatCookieName(name: `__Host-${string}`, https: boolean): string {
  return https ? name : name.slice('__Host-'.length);
}
