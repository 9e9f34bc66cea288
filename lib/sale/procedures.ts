import 'server-only';
import { channelScope, procedure } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { AppError } from '../procedure/errors';
import { idSchema } from '../procedure/schemas';
import { z } from 'zod';
import { findSale, listSales } from './service';
import { saleRecordSchema } from './schema';
import { msg } from '../procedure/messages';

/** Sales of the host's channel, open to visitors (spec §2 home, goods detail). Payloads in docs/api.md. */
export const saleProcedures = {
  '/market/api/channel/querySaleRecord': procedure({
    summary: "The host channel's sales for the home list, paged.",
    auth: 'none',
    input: pagingSchema,
    output: pageSchema(saleRecordSchema),
    handler: async (ctx, input) => listSales(await channelScope(ctx), input),
  }),
  '/market/api/saleRecord/detail/v2': procedure({
    summary: 'One sale of the host channel: commodity, edition size, price, stock left, status, author, publisher, chain.',
    auth: 'none',
    input: z.object({ id: idSchema }),
    output: saleRecordSchema,
    handler: async (ctx, input) => {
      const sale = await findSale(await channelScope(ctx), String(input.id));
      if (!sale) throw new AppError(404, msg('saleNotFound'), { field: 'id' });
      return sale;
    },
  }),
};
