import { z } from 'zod';
import { blindBoxSaleSchema } from '../sale/schema';

/**
 * The buyer's collection as it travels in the API's JSON (DESIGN §5 "treasure" names; docs/api.md). No server-only
 * imports: the browser reads these types too.
 */

/** `chainStatus` of a holding: 0 pending, 1 on chain (with its token id and tx hash). */
export const CHAIN_STATUS = { pending: 0, onChain: 1 } as const;

/** A holding as the API shows it. */
export const holdingViewSchema = z.object({
  id: z.string(),
  commodity: z.object({
    id: z.string(),
    name: z.string(),
    cover: z.string(),
    actualPicture: z.array(z.string()),
    chainName: z.string(),
    contractAddress: z.string(),
    isBlindBox: z.boolean(),
  }),
  commoditySku: z.object({ number: z.number().int(), amountNumber: z.number().int() }),
  chainStatus: z.enum(CHAIN_STATUS),
  tokenId: z.string().nullable(),
  tradeHash: z.string().nullable(),
  createTime: z.string(),
  openTime: z.string().nullable(),
});
export type HoldingView = z.infer<typeof holdingViewSchema>;

/** channel/queryBox: the channel's blind-box sales with their odds, and the buyer's unopened boxes. */
export const boxesSchema = z.object({ sales: z.array(blindBoxSaleSchema), boxes: z.array(holdingViewSchema) });

/** box/open: the box, now open, and the prize it gave. */
export const openedBoxSchema = z.object({ box: holdingViewSchema, prize: holdingViewSchema });
