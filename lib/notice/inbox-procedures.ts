import 'server-only';
import { z } from 'zod';
import { BUYER_MESSAGE_KINDS } from '../db/schema';
import { apiLocale } from '../i18n/locale';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { MAX_PAGE } from '../procedure/paging';
import { procedure, userScope } from '../procedure/procedure';
import { idSchema } from '../procedure/schemas';
import { listMessages, markMessagesRead, READ_IDS_MAX, renderMessage, unreadMessageCount } from './inbox';

/**
 * The buyer's own messages (issue 35, "notices tell winners"; lib/notice/inbox.ts): their list, newest first, in pages
 * of 20, each rendered in the caller's language (Accept-Language, else the channel's) with its times in the channel's
 * time zone; and marking them read. Payloads in docs/api.md ("Messages").
 */

const messageViewSchema = z.object({
  id: z.string(),
  kind: z.enum(BUYER_MESSAGE_KINDS),
  title: z.string(),
  body: z.string(),
  saleId: z.string().nullable(),
  href: z.string().nullable().describe('the goods page of the sale, a path of the store'),
  createdAt: z.string(),
  read: z.boolean(),
});

const readOutput = z.object({
  marked: z.number().int().describe('how many were unread and are read now'),
  unread: z.number().int(),
});

export const inboxProcedures = {
  '/market/api/message/list': procedure({
    summary:
      "The buyer's own messages on this channel (a lottery won, a waitlist turn), newest first, 20 a page, in the caller's language; with the total and how many are unread. Reading the list marks nothing read.",
    auth: 'buyer',
    input: z.object({
      page: z
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(1, 'must be 1 or more')
        .max(MAX_PAGE, `must be ${MAX_PAGE} or less`)
        .default(1),
    }),
    output: z.object({ list: z.array(messageViewSchema), total: z.number().int(), unread: z.number().int() }),
    handler: async (ctx, input) => {
      const scope = await userScope(ctx);
      const channel = scope.channel ?? (await ctx.channel());
      const locale = apiLocale(ctx.headers.get('accept-language'), channel.locale);
      const { rows, total, unread } = await listMessages(scope, input.page);
      return { list: rows.map((row) => renderMessage(row, locale, channel.timeZone)), total, unread };
    },
  }),
  '/market/api/message/read': procedure({
    summary:
      "Marks the buyer's messages read: those of `ids` (ids of another buyer's messages are ignored), or all of them with `all: true`. One of the two is required (400 naming `ids`). Repeating it changes nothing.",
    auth: 'buyer',
    input: z.object({
      ids: z.array(idSchema).max(READ_IDS_MAX, `must list at most ${READ_IDS_MAX} ids`).optional(),
      all: z.boolean({ error: 'must be true or false' }).optional(),
    }),
    output: readOutput,
    handler: async (ctx, input) => {
      if (!input.all && (input.ids === undefined || input.ids.length === 0))
        throw new AppError(400, msg('messageReadWhich'), { field: 'ids' });
      const scope = await userScope(ctx);
      const marked = await markMessagesRead(scope, input.all ? { all: true } : { ids: input.ids });
      return { marked, unread: await unreadMessageCount(scope) };
    },
  }),
};
