import 'server-only';
import { z } from 'zod';
import { channelScope, procedure, userScope, viewerScope } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { idSchema, idempotencyKeySchema } from '../procedure/schemas';
import { exchange, getExchangeOffer, listDestroyed, listExchangeActivities, listExchanges } from './service';
import { destroyedViewSchema, exchangeCampaignViewSchema, exchangeDetailSchema, exchangeRecordViewSchema } from './schema';

/**
 * Exchanges (spec §2 active, exchangeDetail, mineExchange, mineDestory; label 2): the channel's exchange activities,
 * one offer with the holdings the user can spend on it, exchanging (the inputs are destroyed, one collectible is
 * minted), my exchange records and my destroyed collectibles. Payloads in docs/api.md.
 */
export const exchangeProcedures = {
  '/market/api/channel/queryActivityList': procedure({
    summary:
      "The channel's exchange activities with their offers: what each gives, stock left, per-user limit, window and recipe; open ones first. No login needed.",
    auth: 'none',
    input: z.object({}),
    output: z.array(exchangeCampaignViewSchema),
    handler: async (ctx) => listExchangeActivities(await channelScope(ctx)),
  }),
  '/market/api/exchange/detail': procedure({
    summary:
      'One exchange offer (id = activity, exchangeId = offer) with its recipe and, for a logged-in user, the collectibles they can spend on it and how many more times they may exchange.',
    auth: 'optional',
    input: z.object({ id: idSchema, exchangeId: idSchema }),
    output: exchangeDetailSchema,
    handler: async (ctx, input) => getExchangeOffer(await viewerScope(ctx), input.id, input.exchangeId),
  }),
  '/market/api/exchange/create': procedure({
    summary:
      'Exchanges: spends the recipe (the oldest collectibles, or exactly holdingIds, and the code when the recipe asks for one) and mints one copy of the offer, all or nothing. The same idempotencyKey returns the same record.',
    auth: 'buyer',
    input: z.object({
      id: idSchema,
      exchangeId: idSchema,
      holdingIds: z
        .array(idSchema, { error: 'must be a list of holding ids' })
        .min(1, 'must name at least one holding')
        .max(100, 'must name 100 holdings or fewer')
        .optional(),
      code: z.string({ error: 'must be a string' }).max(64, 'must be 64 characters or less').optional(),
      idempotencyKey: idempotencyKeySchema,
    }),
    output: exchangeRecordViewSchema,
    handler: async (ctx, input) =>
      exchange(await userScope(ctx), {
        campaignId: input.id,
        offerId: input.exchangeId,
        holdingIds: input.holdingIds,
        code: input.code,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
  '/market/api/exchange/list': procedure({
    summary: 'My exchange records on this channel, newest first, paged: the activity, the collectible minted and the ones spent.',
    auth: 'buyer',
    input: pagingSchema,
    output: pageSchema(exchangeRecordViewSchema),
    handler: async (ctx, input) => listExchanges(await userScope(ctx), input),
  }),
  '/market/api/channel/treasureSkuDestroyPage': procedure({
    summary: 'My destroyed collectibles on this channel (spent in exchanges), newest first, paged.',
    auth: 'buyer',
    input: pagingSchema,
    output: pageSchema(destroyedViewSchema),
    handler: async (ctx, input) => listDestroyed(await userScope(ctx), input),
  }),
};
