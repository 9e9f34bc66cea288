import { z } from 'zod';

/**
 * A channel as it travels in the API's JSON (channel/detail, spec §3; docs/api.md). No server-only imports.
 * The TypeScript shape the pages and the proxy use is ChannelThemeInfo (./theme.ts); the procedure's type check
 * holds it to this schema.
 */

/** The channel class attributes (DESIGN §6): never hard-coded lists of keys. */
export const channelAttributesSchema = z.object({
  hideAmount: z.boolean().optional(),
  buyGoodsTitle: z.boolean().optional(),
  giftOnly: z.boolean().optional(),
  destroyTitledReceive: z.boolean().optional(),
  noActive: z.boolean().optional(),
});

export const channelThemeInfoSchema = z.object({
  key: z.string(),
  name: z.string(),
  brandName: z.string(),
  host: z.string(),
  isHaveTheme: z.boolean(),
  marketText: z.string(),
  buyText: z.string(),
  exchangeText: z.string(),
  privacyText: z.string(),
  salesStrategyText: z.string(),
  status: z.number().int(),
  labelList: z.string(),
  skinJson: z.string(),
  locale: z.string().nullable(),
  timeZone: z.string(),
  appScheme: z.string().nullable(),
  appDownloadUrl: z.string().nullable(),
  attributes: channelAttributesSchema,
  /** spec §3 goodsInfo.showAmount: false on hidden-amount channels. */
  showAmount: z.boolean(),
});
