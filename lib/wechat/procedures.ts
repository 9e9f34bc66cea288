import 'server-only';
import { z } from 'zod';
import { procedure } from '../procedure/procedure';
import { jsConfig } from './service';
import { jsConfigSchema } from './schema';

/** The page's URL as the browser has it (`location.href`), up to its `#`. */
const pageUrlSchema = z
  .string({ error: 'is required and must be a string' })
  .min(1, 'must be the page’s address')
  .max(2048, 'must be 2048 characters or less')
  .regex(/^https?:\/\/\S+$/, 'must be an http(s) address such as https://shop.example/goods/detail/1');

/** The WeChat share card (issue 36; docs/wechat.md): `wx.config` for a page of this channel inside WeChat. */
export const wechatProcedures = {
  '/market/api/wechat/jsConfig': procedure({
    summary:
      'wx.config for a page of this store inside WeChat: the official account’s appId, timestamp, nonceStr and the signature of the page’s URL (without its #hash). Only this store’s own pages; 404 when the store has no WeChat account.',
    auth: 'none',
    input: z.object({ url: pageUrlSchema }),
    output: jsConfigSchema,
    handler: async (ctx, input) => jsConfig({ db: ctx.db, now: ctx.now }, await ctx.channel(), input.url),
  }),
};
