import 'server-only';
import { z } from 'zod';
import { channelScope, procedure, userScope } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { idSchema } from '../procedure/schemas';
import { AppError } from '../procedure/errors';
import { chainUp, getChainRecord, listChainCampaigns, listChainRecords, lookUpChainCode } from './chain-up';
import { chainCampaignListSchema, chainRecordViewSchema, codeLookupViewSchema } from './schema';
import { msg } from '../procedure/messages';

const codeSchema = z
  .string({ error: 'is required: the code found on the product' })
  .trim()
  .min(1, 'is required: the code found on the product')
  .max(64, 'must be 64 characters or less');
const storeCodeSchema = z
  .string({ error: 'is required: the store you bought it from' })
  .trim()
  .min(1, 'is required: the store you bought it from')
  .max(16, 'must be 16 characters or less');

/**
 * Self chain-up (spec §2 chain pages, §7 queryChainList, queryCodeRecord, channelChainRecord/list; label 4): the
 * channel's campaigns and stores, looking a product's code up, chaining it up, and my chain-up records. Payloads in
 * docs/api.md.
 */
export const chainProcedures = {
  '/market/api/channel/queryChainList': procedure({
    summary: "The channel's self chain-up campaigns (what each gives, window, author) and its allowed stores (spec §9). No login needed.",
    auth: 'none',
    input: z.object({}),
    output: chainCampaignListSchema,
    handler: async (ctx) => listChainCampaigns(await channelScope(ctx)),
  }),
  '/market/api/channel/queryCodeRecord': procedure({
    summary:
      'Looks a chain-up code up with the store it was bought from: the campaign it unlocks and its type (1 product code, 2 certificate code). Wrong codes get one answer and are rate-limited.',
    auth: 'buyer',
    input: z.object({ code: codeSchema, storeCode: storeCodeSchema }),
    output: codeLookupViewSchema,
    handler: async (ctx, input) => lookUpChainCode(await userScope(ctx), input),
  }),
  '/market/api/channelChainRecord/create': procedure({
    summary:
      "Chains a code up: uses it, mints the product's digital twin and records it; the chain ledger confirms it shortly after. The same code again answers with the same record.",
    auth: 'buyer',
    input: z.object({
      id: idSchema,
      code: codeSchema,
      type: z.union([z.literal(1), z.literal(2)], { error: 'must be 1 (product code) or 2 (certificate code)' }),
      storeCode: storeCodeSchema,
    }),
    output: chainRecordViewSchema,
    handler: async (ctx, input) =>
      chainUp(await userScope(ctx), { campaignId: input.id, code: input.code, type: input.type, storeCode: input.storeCode }),
  }),
  '/market/api/channelChainRecord/detail': procedure({
    summary: 'One of my chain-up records, with its chain status (tx hash and token id once the ledger has it).',
    auth: 'buyer',
    input: z.object({ id: idSchema }),
    output: chainRecordViewSchema,
    handler: async (ctx, input) => {
      const record = await getChainRecord(await userScope(ctx), input.id);
      if (!record) throw new AppError(404, msg('chainRecordNotFound'));
      return record;
    },
  }),
  '/market/api/channelChainRecord/list': procedure({
    summary: 'My chain-up records on this channel, newest first, paged.',
    auth: 'buyer',
    input: pagingSchema,
    output: pageSchema(chainRecordViewSchema),
    handler: async (ctx, input) => listChainRecords(await userScope(ctx), input),
  }),
};
