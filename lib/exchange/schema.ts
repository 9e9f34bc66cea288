import { z } from 'zod';
import { campaignViewSchema, commodityBriefSchema } from '../campaign/schema';
import { REASON } from '../procedure/reasons';

/** Exchanges as they travel in the API's JSON (docs/api.md "Exchanges"). No server-only imports: the browser reads these too. */

export const exchangeOfferViewSchema = z.object({
  id: z.string(),
  campaignId: z.string(),
  /** What the exchange gives: one numbered copy of it. */
  commodity: commodityBriefSchema,
  total: z.number().int(),
  remaining: z.number().int(),
  limitPerUser: z.number().int(),
  /** The recipe: `quantity` copies of each commodity are spent per exchange. */
  inputs: z.array(z.object({ commodity: commodityBriefSchema, quantity: z.number().int() })),
  /** The recipe also asks for one of the offer's redeem codes (used once). */
  requiresCode: z.boolean(),
});
export type ExchangeOfferView = z.infer<typeof exchangeOfferViewSchema>;

export const exchangeCampaignViewSchema = campaignViewSchema(exchangeOfferViewSchema);
export type ExchangeCampaignView = z.infer<typeof exchangeCampaignViewSchema>;

/** A holding as the exchange pages show it. */
export const spendableHoldingSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  amountNumber: z.number().int(),
  createTime: z.string(),
});
export type SpendableHolding = z.infer<typeof spendableHoldingSchema>;

/** What the logged-in user can do with one offer (the detail page's button and holding pickers). */
export const exchangeMineSchema = z.object({
  /** How many times the user exchanged this offer, and how many more the limit allows (limitPerUser - taken). */
  taken: z.number().int(),
  timesLeft: z.number().int(),
  canExchange: z.boolean(),
  /** Why not, when canExchange is false. */
  reason: z.enum([REASON.notOpen, REASON.ended, REASON.soldOut, REASON.limit, REASON.missingInputs]).nullable(),
  /** Per recipe line: how many of the user's holdings can be spent for it (`have`), and the oldest of them (at most 100). */
  inputs: z.array(
    z.object({ commodityId: z.string(), quantity: z.number().int(), have: z.number().int(), holdings: z.array(spendableHoldingSchema) }),
  ),
});
export type ExchangeMine = z.infer<typeof exchangeMineSchema>;

export const exchangeDetailSchema = z.object({
  campaign: exchangeCampaignViewSchema,
  offer: exchangeOfferViewSchema,
  mine: exchangeMineSchema.nullable(),
});
export type ExchangeDetail = z.infer<typeof exchangeDetailSchema>;

const holdingBriefSchema = z.object({
  holdingId: z.string(),
  commodity: z.object({ id: z.string(), name: z.string(), cover: z.string() }),
  number: z.number().int(),
  amountNumber: z.number().int(),
});

export const exchangeRecordViewSchema = z.object({
  id: z.string(),
  campaign: z.object({ id: z.string(), name: z.string() }),
  offerId: z.string(),
  createTime: z.string(),
  /** The holding the exchange minted. */
  output: holdingBriefSchema,
  /** The holdings it spent. */
  inputs: z.array(holdingBriefSchema),
});
export type ExchangeRecordView = z.infer<typeof exchangeRecordViewSchema>;

export const destroyedViewSchema = z.object({
  /** The holding's id. */
  id: z.string(),
  commodity: z.object({ id: z.string(), name: z.string(), cover: z.string() }),
  number: z.number().int(),
  amountNumber: z.number().int(),
  destroyTime: z.string(),
  /** The exchange that spent it. */
  exchange: z.object({ id: z.string(), campaign: z.object({ id: z.string(), name: z.string() }) }).nullable(),
});
export type DestroyedView = z.infer<typeof destroyedViewSchema>;

/** Where the store gives a collectible an exchange's recipe spends (issue 30): a gift or a sale, and its page. */
export type InputSourceLink = { kind: 'gift' | 'sale'; href: string };
