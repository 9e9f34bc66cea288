import 'server-only';
import { z } from 'zod';
import { channelAgreements } from './agreement-facts';
import { apiLocale } from '../i18n/locale';
import { procedure } from '../procedure/procedure';
import { requireChannel, toThemeInfo } from './service';
import { channelThemeInfoSchema } from './schema';

/** The channel's theme (spec §3), for app clients; pages read it on the server. Payloads in docs/api.md. */
export const channelProcedures = {
  '/market/api/channel/detail': procedure({
    summary: 'Channel theme info (spec §3) for a channel key.',
    auth: 'none',
    input: z.object({
      key: z
        .string({ error: 'is required and must be a string' })
        .trim()
        .min(1, 'must not be empty')
        .max(64, 'must be 64 characters or less'),
    }),
    output: channelThemeInfoSchema,
    handler: async (ctx, input) => {
      const info = toThemeInfo(await requireChannel(input.key.toUpperCase(), ctx.db));
      // The agreements as the caller's page shows them: the operator's text or the template in the caller's language.
      return { ...info, ...channelAgreements(info, apiLocale(ctx.headers.get('accept-language'), info.locale)) };
    },
  }),
};
