import 'server-only';
import { getDb } from '../db/client';
import { publicOrigin } from '../env';
import { readChannel } from '../channel/service';
import { wechatAccountOf } from '../wechat/account';
import type { PageChannel } from './channel';

/**
 * What the WeChat share card of a channel's page shows when the page itself names nothing better (issue 36;
 * components/shell/wechat-share.tsx): the channel's name, its description and its picture (the skin's share picture,
 * else the brand icon as a PNG: WeChat shows no SVG), as absolute URLs. Null for a channel without a WeChat official
 * account whose AppSecret the deployment holds: its pages then carry nothing of WeChat.
 */
export async function pageWechatShare(channel: PageChannel): Promise<{ title: string; desc: string; imgUrl: string } | null> {
  const row = await readChannel(getDb(), channel.key);
  if (!row || !wechatAccountOf(row)) return null;
  const origin = publicOrigin(channel.publicHost);
  const picture = channel.skin.shareImg ?? '/api/icon/apple-touch-icon.png';
  return {
    title: channel.theme.name,
    desc: channel.theme.marketText || channel.theme.brandName,
    imgUrl: new URL(picture, origin).href,
  };
}
