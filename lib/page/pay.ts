import 'server-only';
import { cookies } from 'next/headers';
import { getDb } from '../db/client';
import { channelPayOptions } from '../payment/providers';
import { WECHAT_OPENID_COOKIE, wechatCookieName, type PayOption } from '../payment/clients';
import { pageChannel, type PageChannel } from './channel';
import { pageLoader } from './loader';

const payOptions = pageLoader(async (channelKey: string, locale: string) => {
  const options = channelPayOptions(getDb(), await pageChannel(channelKey, locale));
  // Its name has the __Host- prefix over HTTPS only (wechatCookieName); pay/create checks its signature either way.
  const jar = await cookies();
  const hasWechatIdentity = jar.has(WECHAT_OPENID_COOKIE) || jar.has(wechatCookieName(WECHAT_OPENID_COOKIE, false));
  return { options, hasWechatIdentity };
});

/**
 * What the pay page offers: the channel's payment providers that the deployment runs, each with the browsers it takes
 * payments from (the form keeps those that fit the buyer's), and whether the buyer's WeChat openid is known already
 * (JSAPI inside WeChat needs it; the form sends the buyer through WeChat's OAuth first otherwise). Reads cookies.
 */
export function pagePayOptions(channel: PageChannel): Promise<{ options: PayOption[]; hasWechatIdentity: boolean }> {
  return payOptions(channel.key, channel.locale);
}
