import en from '@/lib/i18n/messages/en';
import type { Translator } from '@/lib/i18n/translator';
import type { WechatWords } from './channel-wechat';

/** The WeChat share card section's words (issue 36, `ops.wechatAccount.*`), rendered on the server for the form. */
export function wechatWords(t: Translator): WechatWords {
  const keys = Object.keys(en.ops.wechatAccount) as (keyof typeof en.ops.wechatAccount)[];
  return Object.fromEntries(keys.map((k) => [k, t(`ops.wechatAccount.${k}`)])) as WechatWords;
}
