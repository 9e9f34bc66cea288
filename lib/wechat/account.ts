import 'server-only';
import type { ChannelRow } from '../db/schema';
import { env, type Env } from '../env';
import type { WechatAccount } from './ticket';

/**
 * A channel's WeChat official account (issue 36; docs/wechat.md): its app id is the channel's (`wechat_app_id`, set in
 * the console's Settings tab), its AppSecret the deployment's, as every vendor secret is (lib/env.ts): WECHAT_MP_SECRETS
 * (`appid:secret,…`), or WECHATPAY_APPSECRET for the account of WECHATPAY_APPID. The secret never reaches the
 * database, the console or a page. Null: the channel has no share card (no app id, or no secret for it).
 */
export function wechatAccountOf(channel: Pick<ChannelRow, 'wechatAppId'>, e: Env = env()): WechatAccount | null {
  const appId = channel.wechatAppId;
  if (!appId) return null;
  const secret = secretOf(appId, e);
  return secret ? { appId, secret } : null;
}

/** Whether the deployment holds the AppSecret of this app id (the console says so beside the field). */
export function hasWechatSecret(appId: string, e: Env = env()): boolean {
  return secretOf(appId, e) !== null;
}

function secretOf(appId: string, e: Env): string | null {
  return e.WECHAT_MP_SECRETS.get(appId) ?? (e.WECHATPAY_APPID === appId ? (e.WECHATPAY_APPSECRET ?? null) : null);
}

/** What an app id looks like (WeChat's: `wx` and 16 letters or digits). */
export const WECHAT_APP_ID = /^wx[0-9a-zA-Z]{16}$/;

/** Where WeChat's JS-SDK is loaded from (components/shell/wechat-share.tsx loads it; the page's CSP names it). */
export const JWEIXIN_ORIGIN = 'https://res.wx.qq.com';

/** The script hosts a page of this channel may load from besides its own (proxy.ts's CSP): WeChat's, with an account. */
export function wechatScriptSources(channel: Pick<ChannelRow, 'wechatAppId'>, e: Env = env()): string[] {
  return wechatAccountOf(channel, e) ? [JWEIXIN_ORIGIN] : [];
}
