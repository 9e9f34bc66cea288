import 'server-only';
import type { Db } from '../db/client';
import type { ChannelRow } from '../db/schema';
import { env, type Env } from '../env';
import { domainSettings, routeHost } from '../channel/domains';
import { hostnameOf } from '../security/domain-name';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { wechatAccountOf } from './account';
import { jsSdkSignature, newNonceStr } from './signature';
import { jsapiTicket } from './ticket';
import type { JsConfigView } from './schema';

/**
 * `wx.config` for a page of this channel (issue 36; docs/wechat.md): the channel's account, a fresh nonce and
 * timestamp, and the signature of the page's URL with the account's jsapi_ticket. Only a page of the channel's own
 * hosts is signed (its key host or one of its served domains): the signature would let any page that has it use the
 * account's JS-SDK, so another site gets a refusal naming the field. A channel without an account: a 404.
 */
export async function jsConfig(
  scope: { db: Db; now: Date },
  channel: Pick<ChannelRow, 'key' | 'host' | 'wechatAppId'>,
  pageUrl: string,
  e: Env = env(),
): Promise<JsConfigView> {
  const account = wechatAccountOf(channel, e);
  if (!account) throw new AppError(404, msg('wechatNotConfigured'));
  // WeChat signs the URL up to its #: a buyer's browser may send it whole.
  const url = pageUrl.split('#')[0]!;
  if (!(await onChannelHost(scope.db, channel, url, e))) throw new AppError(400, msg('wechatUrlForeign'));
  const ticket = await jsapiTicket(scope.db, account, { apiBase: e.WECHAT_API_BASE });
  const timestamp = Math.floor(scope.now.getTime() / 1000);
  const nonceStr = newNonceStr();
  return { appId: account.appId, timestamp, nonceStr, signature: jsSdkSignature({ ticket, nonceStr, timestamp, url }) };
}

/** Whether `url` is an http(s) page on the channel's key host or on a domain served for it. */
async function onChannelHost(db: Db, channel: Pick<ChannelRow, 'key' | 'host'>, url: string, e: Env): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username || parsed.password) return false;
  const host = hostnameOf(parsed.host);
  if (host === hostnameOf(channel.host)) return true;
  // A custom domain: only one served for this channel (the key rule alone would read other names as keys).
  const route = await routeHost(db, parsed.host, domainSettings(e));
  return route.domain !== null && route.key === channel.key;
}
