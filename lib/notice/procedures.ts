import 'server-only';
import { z } from 'zod';
import { channelScope, procedure, userScope } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { idSchema } from '../procedure/schemas';
import { getNotice, listNotices, markNoticesRead, unreadNoticeCount } from './service';
import { noticeViewSchema } from './schema';

/**
 * The store's notices (issue 32, "Notices and a drop calendar"): the channel's published notices and one of them for
 * anyone; a logged-in buyer's unread count (the footer's dot) and marking them read (opening the list). Payloads in
 * docs/api.md.
 */
export const noticeStoreProcedures = {
  '/market/api/notice/list': procedure({
    summary: "The channel's published notices (publish time reached, not withdrawn), newest first, paged. No login needed.",
    auth: 'none',
    input: pagingSchema,
    output: pageSchema(noticeViewSchema),
    handler: async (ctx, input) => listNotices(await channelScope(ctx), input),
  }),
  '/market/api/notice/detail': procedure({
    summary: 'One published notice of the channel; 404 when it is withdrawn, not yet published or another channel’s.',
    auth: 'none',
    input: z.object({ id: idSchema }),
    output: noticeViewSchema,
    handler: async (ctx, input) => getNotice(await channelScope(ctx), Number(input.id)),
  }),
  '/market/api/notice/unread': procedure({
    summary: 'How many of the channel’s published notices the buyer has not seen since they last opened the list.',
    auth: 'buyer',
    input: z.object({}),
    output: z.object({ count: z.number().int() }),
    handler: async (ctx) => ({ count: await unreadNoticeCount(await userScope(ctx)) }),
  }),
  '/market/api/notice/read': procedure({
    summary: 'Marks every notice published so far as read for the buyer (the notice list was opened). Repeating it changes nothing.',
    auth: 'buyer',
    input: z.object({}),
    output: z.object({ count: z.number().int() }),
    handler: async (ctx) => {
      const scope = await userScope(ctx);
      await markNoticesRead(scope);
      return { count: await unreadNoticeCount(scope) };
    },
  }),
};
