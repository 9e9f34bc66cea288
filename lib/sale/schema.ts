import { z } from 'zod';
import { SALE_STATUS } from './status';

/**
 * Sales as they travel in the API's JSON (DESIGN §5 field names; docs/api.md): ids and times are strings, money is
 * integer fen. No server-only imports: the browser reads these types and constants too.
 */

/** Sales per home page (and per page of the home list the page cache keeps, lib/page/shared-page.ts). */
export const HOME_PAGE_SIZE = 20;

/** A sale record as the API and the pages see it. `statusSell`: SALE_STATUS. */
export const saleRecordSchema = z.object({
  id: z.string(),
  price: z.number().int(),
  amount: z.number().int(),
  amountAvailable: z.number().int(),
  limitPerUser: z.number().int(),
  statusSell: z.enum(SALE_STATUS),
  /** Cancelled by the channel's operator on drop day (issue 32): it reads ended, and its paid orders are refunded. */
  cancelled: z.boolean(),
  /** issue 32, "Drop-day controls": its operator paused buying; the buy button says so and a buy is refused. */
  paused: z.boolean(),
  saleStartTime: z.string(),
  saleEndTime: z.string().nullable(),
  commodity: z.object({
    id: z.string(),
    name: z.string(),
    cover: z.string(),
    actualPicture: z.array(z.string()),
    description: z.string(),
    amountSku: z.number().int(),
    chainName: z.string(),
    chainContract: z.string(),
    contractAddress: z.string(),
    isBlindBox: z.boolean(),
  }),
  author: z.object({ name: z.string(), cover: z.string() }),
  publisher: z.object({ name: z.string() }),
  seriesWorks: z.object({ name: z.string() }).nullable(),
});
export type SaleRecord = z.infer<typeof saleRecordSchema>;

/** Published odds of a blind box: each prize's weight and its share as a percent text. */
export const blindBoxOddsSchema = z.array(
  z.object({
    name: z.string(),
    cover: z.string(),
    weight: z.number(),
    percent: z.string(),
    /** What the prize is worth, integer fen (issue 32: the blind-box guideline asks for values shown); null if unset. */
    value: z.number().int().nullable(),
  }),
);
export type BlindBoxOdds = z.infer<typeof blindBoxOddsSchema>;

/** A blind-box sale with its odds (channel/queryBox). */
export const blindBoxSaleSchema = saleRecordSchema.extend({ odds: blindBoxOddsSchema });
