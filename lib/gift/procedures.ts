import 'server-only';
import { z } from 'zod';
import { channelScope, procedure, userScope, viewerScope } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { idSchema, idempotencyKeySchema } from '../procedure/schemas';
import { claimGift, getGift, listGiftCampaigns, listReceived } from './service';
import { giftCampaignViewSchema, giftClaimViewSchema, giftDetailSchema } from './schema';

const listGifts = (summary: string) =>
  procedure({
    summary,
    auth: 'none',
    input: z.object({}),
    output: z.array(giftCampaignViewSchema),
    handler: async (ctx) => listGiftCampaigns(await channelScope(ctx)),
  });

const oneGift = (summary: string) =>
  procedure({
    summary,
    auth: 'optional',
    input: z.object({ id: idSchema, exchangeId: idSchema }),
    output: giftDetailSchema,
    handler: async (ctx, input) => getGift(await viewerScope(ctx), input.id, input.exchangeId),
  });

/**
 * Gifts (spec §2 receive pages, §7; DESIGN §5): the channel's gift campaigns, one gift with what stands between the
 * user and it, receiving it (by eligibility or with a redeem code), and my receive records. Payloads in docs/api.md.
 * The spec names two calls for the list and two for one gift (the old and new receive pages); they answer alike.
 */
export const giftProcedures = {
  '/market/api/channel/queryGiftConfig': listGifts(
    "The channel's gift campaigns with their gifts, stock left and window; open ones first.",
  ),
  '/market/api/channel/giftReceiveList': listGifts('Same as channel/queryGiftConfig (the receive list page).'),
  '/market/api/channel/getGiftConfit': oneGift(
    'One gift of a campaign (id = campaign, exchangeId = gift) and, for a logged-in user, whether they can receive it.',
  ),
  '/market/api/channel/giftReceiveDetail': oneGift('Same as channel/getGiftConfit (the receive detail page).'),
  '/goods/api/giftReceive/receive': procedure({
    summary:
      'Receives a gift: by eligibility, or with a redeem code when the gift asks for one. The same idempotencyKey returns the same record.',
    auth: 'buyer',
    input: z.object({
      id: idSchema,
      exchangeId: idSchema,
      code: z.string({ error: 'must be a string' }).max(64, 'must be 64 characters or less').optional(),
      idempotencyKey: idempotencyKeySchema,
    }),
    output: giftClaimViewSchema,
    handler: async (ctx, input) =>
      claimGift(await userScope(ctx), {
        campaignId: input.id,
        offerId: input.exchangeId,
        code: input.code,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
  '/market/api/channel/userGiftReceivePage': procedure({
    summary: 'My receive records: the gifts I received on this channel, newest first, paged.',
    auth: 'buyer',
    input: pagingSchema,
    output: pageSchema(giftClaimViewSchema),
    handler: async (ctx, input) => listReceived(await userScope(ctx), input),
  }),
};
