import { z } from 'zod';
import { campaignViewSchema } from '../campaign/schema';
import { REASON } from '../procedure/reasons';

/** Gifts as they travel in the API's JSON (docs/api.md "Gifts"). No server-only imports: the browser reads these too. */

export const giftOfferViewSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  commodity: z.object({ id: z.string(), name: z.string(), cover: z.string(), amountSku: z.number().int() }),
  total: z.number().int(),
  remaining: z.number().int(),
  limitPerUser: z.number().int(),
  /** The collectible a user must hold to receive it, if any. */
  requires: z.object({ id: z.string(), name: z.string() }).nullable(),
  requiresCode: z.boolean(),
});
export type GiftOfferView = z.infer<typeof giftOfferViewSchema>;

export const giftCampaignViewSchema = campaignViewSchema(giftOfferViewSchema);
export type GiftCampaignView = z.infer<typeof giftCampaignViewSchema>;

/** What stands between the logged-in user and the gift (the detail page's button). */
export const giftEligibilitySchema = z.discriminatedUnion('canReceive', [
  z.object({ canReceive: z.literal(true), needsCode: z.boolean(), taken: z.number().int() }),
  z.object({
    canReceive: z.literal(false),
    reason: z.enum([REASON.notOpen, REASON.ended, REASON.soldOut, REASON.received, REASON.notEligible]),
    taken: z.number().int(),
  }),
]);
export type GiftEligibility = z.infer<typeof giftEligibilitySchema>;

/** channel/getGiftConfit, giftReceiveDetail: one gift and, for a logged-in user, their eligibility (null for a visitor). */
export const giftDetailSchema = z.object({
  campaign: giftCampaignViewSchema,
  offer: giftOfferViewSchema,
  eligibility: giftEligibilitySchema.nullable(),
});

/** A receive record. */
export const giftClaimViewSchema = z.object({
  id: z.string(),
  campaign: z.object({ id: z.string(), name: z.string() }),
  offerId: z.string(),
  commodity: z.object({ id: z.string(), name: z.string(), cover: z.string() }),
  holdingId: z.string(),
  number: z.number().int(),
  amountNumber: z.number().int(),
  byCode: z.boolean(),
  createTime: z.string(),
});
export type GiftClaimView = z.infer<typeof giftClaimViewSchema>;
