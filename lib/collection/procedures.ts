import 'server-only';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { idSchema } from '../procedure/schemas';
import { listBlindBoxSales } from '../sale/service';
import { listCollection, listUnopenedBoxes, openBox } from './service';
import { boxesSchema, holdingViewSchema, openedBoxSchema } from './schema';

/** The buyer's collection and blind boxes (spec §2 mine/collection, mine/box). Payloads in docs/api.md. */
export const collectionProcedures = {
  '/market/api/channel/queryTreasureSku': procedure({
    summary: "My collection: the buyer's collectibles on this channel with edition numbers and chain status, paged.",
    auth: 'buyer',
    input: pagingSchema,
    output: pageSchema(holdingViewSchema),
    handler: async (ctx, input) => listCollection(await userScope(ctx), input),
  }),
  '/market/api/channel/queryBox': procedure({
    summary: "The channel's blind-box sales with their odds, and the buyer's unopened boxes.",
    auth: 'buyer',
    input: z.object({}),
    output: boxesSchema,
    handler: async (ctx) => {
      const scope = await userScope(ctx);
      const [sales, boxes] = await Promise.all([listBlindBoxSales(scope), listUnopenedBoxes(scope)]);
      return { sales, boxes };
    },
  }),
  '/market/api/box/open': procedure({
    summary: "Opens one of the buyer's blind boxes: draws a prize by the published weights and mints it.",
    auth: 'buyer',
    input: z.object({ id: idSchema }),
    output: openedBoxSchema,
    handler: async (ctx, input) => openBox(await userScope(ctx), input.id),
  }),
};
