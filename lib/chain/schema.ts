import { z } from 'zod';
import { campaignStatusSchema } from '../campaign/schema';

/** Self chain-up as it travels in the API's JSON (docs/api.md "Self chain-up"). No server-only imports: the browser reads these too. */

/** 1 product code, 2 certificate code (the chain-up route's `:type`). */
export const CODE_TYPES = [1, 2] as const;
export const codeTypeSchema = z.literal(CODE_TYPES);
export type CodeType = z.infer<typeof codeTypeSchema>;

/** One of the channel's allowed store codes (spec §9). */
export const storeViewSchema = z.object({ code: z.string(), name: z.string() });
export type StoreView = z.infer<typeof storeViewSchema>;

export const chainCampaignViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  cover: z.string(),
  authorStageName: z.string(),
  startTime: z.string(),
  endTime: z.string().nullable(),
  status: campaignStatusSchema,
  /** What a chained-up code gives: one numbered copy of it. */
  commodity: z.object({ id: z.string(), name: z.string(), cover: z.string(), amountSku: z.number().int() }),
});
export type ChainCampaignView = z.infer<typeof chainCampaignViewSchema>;

/** channel/queryChainList: the channel's campaigns (open ones first) and its allowed stores. */
export const chainCampaignListSchema = z.object({ campaigns: z.array(chainCampaignViewSchema), stores: z.array(storeViewSchema) });

/** What a code unlocks (channel/queryCodeRecord), before the user confirms. */
export const codeLookupViewSchema = z.object({ campaign: chainCampaignViewSchema, type: codeTypeSchema, store: storeViewSchema });
export type CodeLookupView = z.infer<typeof codeLookupViewSchema>;

export const chainRecordViewSchema = z.object({
  id: z.string(),
  campaign: z.object({ id: z.string(), name: z.string(), authorStageName: z.string() }),
  commodity: z.object({ id: z.string(), name: z.string(), cover: z.string() }),
  holdingId: z.string(),
  number: z.number().int(),
  amountNumber: z.number().int(),
  type: codeTypeSchema,
  store: storeViewSchema,
  /** The holding's chain status: 0 pending, 1 on the chain (with its token id and tx hash). */
  chainStatus: z.number().int(),
  tokenId: z.string().nullable(),
  tradeHash: z.string().nullable(),
  createTime: z.string(),
});
export type ChainRecordView = z.infer<typeof chainRecordViewSchema>;
