import { z } from 'zod';

/**
 * Gift campaigns and exchange activities as they travel in the API's JSON (docs/api.md): one shape, a campaign of the
 * channel with a window and its offers. No server-only imports: the browser reads these types too.
 */

/** A campaign's window (lib/campaign/status.ts): 0 not open yet, 1 open, 2 ended. */
export const campaignStatusSchema = z.literal([0, 1, 2]);

/** A campaign with its offers, each feature's own offer shape. */
export function campaignViewSchema<Offer extends z.ZodType>(offer: Offer) {
  return z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    cover: z.string(),
    startTime: z.string(),
    endTime: z.string().nullable(),
    status: campaignStatusSchema,
    offers: z.array(offer),
  });
}

/** A commodity as an offer names it: what it gives or spends. */
export const commodityBriefSchema = z.object({ id: z.string(), name: z.string(), cover: z.string(), amountSku: z.number().int() });
