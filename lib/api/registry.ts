import { z } from 'zod';
import { procedure } from './procedure';
import { pagingSchema } from './paging';
import { AppError } from './errors';
import { requireChannel, toThemeInfo } from '../channel/service';
import { findSale, listSales } from '../sale/service';
import { trackingBatchSchema } from '../tracking/schema';
import { admitTrackingBatch, ingestTrackingBatch } from '../tracking/service';
import { authProcedures } from '../auth/procedures';
import { buyingProcedures } from '../order/procedures';
import { giftProcedures } from '../gift/procedures';
import { exchangeProcedures } from '../exchange/procedures';
import { chainProcedures } from '../chain/procedures';

const idSchema = z
  .union([z.string(), z.number()], { error: 'must be a string id' })
  .transform((v) => String(v))
  .pipe(z.string().regex(/^[1-9]\d{0,9}$/, 'must be a positive whole-number id'));

/**
 * The market API's procedures by path (spec §7, DESIGN §5). Payloads are documented in docs/api.md.
 * Later features add their procedures here.
 */
export const registry = {
  '/market/api/channel/detail': procedure({
    summary: 'Channel theme info (spec §3) for a channel key.',
    auth: 'none',
    input: z.object({ key: z.string({ error: 'is required and must be a string' }).trim().min(1, 'must not be empty').max(64, 'must be 64 characters or less') }),
    handler: async (ctx, input) => toThemeInfo(await requireChannel(input.key.toUpperCase(), ctx.db)),
  }),
  '/market/api/channel/querySaleRecord': procedure({
    summary: "The host channel's sales for the home list, paged.",
    auth: 'none',
    input: pagingSchema,
    handler: async (ctx, input) => listSales((await ctx.channel()).id, input, { db: ctx.db, now: ctx.now }),
  }),
  '/market/api/saleRecord/detail/v2': procedure({
    summary: 'One sale of the host channel: commodity, edition size, price, stock left, status, author, publisher, chain.',
    auth: 'none',
    input: z.object({ id: idSchema }),
    handler: async (ctx, input) => {
      const sale = await findSale((await ctx.channel()).id, input.id, { db: ctx.db, now: ctx.now });
      if (!sale) throw new AppError(404, `sale ${input.id} not found`);
      return sale;
    },
  }),
  '/log/track': procedure({
    summary: 'Tracking ingest (spec §7 log service): a batch of up to 50 records of the host channel; serv_time is stamped here. Limited per IP and session (429), capped per channel and day.',
    auth: 'none',
    input: trackingBatchSchema,
    handler: async (ctx, input) => {
      const channelId = (await ctx.channel()).id;
      const admitted = await admitTrackingBatch(ctx.db, { channelId, ip: ctx.ip, records: input.records, now: ctx.now });
      const stored = await ingestTrackingBatch(channelId, input.records.slice(0, admitted), { db: ctx.db, now: ctx.now });
      // Dropped over the channel's daily cap: still answered as taken, so browsers do not resend them.
      return { accepted: input.records.length, stored: stored.accepted };
    },
  }),
  ...authProcedures,
  ...buyingProcedures,
  ...giftProcedures,
  ...exchangeProcedures,
  ...chainProcedures,
} as const;

export type ApiPath = keyof typeof registry;
