import { z } from 'zod';

/** What `wx.config` needs from the server (issue 36): the account's app id and the signature of this page's URL. */
export const jsConfigSchema = z.object({
  appId: z.string(),
  /** Unix seconds, as WeChat takes it. */
  timestamp: z.number().int(),
  nonceStr: z.string(),
  /** SHA-1 hex of `jsapi_ticket=…&noncestr=…&timestamp=…&url=…` (lib/wechat/signature.ts). */
  signature: z.string(),
});
export type JsConfigView = z.output<typeof jsConfigSchema>;
