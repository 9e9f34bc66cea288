import 'server-only';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { idSchema } from '../procedure/schemas';
import { wireDates } from '../procedure/wire-dates';
import { priorityStatus } from './priority';

/**
 * The buyer's call of priority purchase (优先购, issue 35): their standing in a sale's. The rules in lib/sale/priority.ts
 * and docs/drops.md, "Priority purchase".
 */

const statusSchema = z.object({
  opensAt: z.string().describe("the early opening for eligible buyers (ISO 8601): the sale's opening less its minutes early"),
  saleStartsAt: z.string().describe("the sale's opening to everyone"),
  decideAt: z.string().describe('when eligibility is decided'),
  decided: z.boolean().describe('eligibility was decided: before that nobody is eligible'),
  eligible: z.boolean().describe('the buyer may buy from opensAt'),
  reasons: z.array(z.enum(['holder', 'orders', 'whitelist'])).describe('why the buyer is eligible; empty when not'),
});

export const priorityProcedures = {
  '/market/api/priority/status': procedure({
    summary:
      "The signed-in buyer's standing in a sale's priority purchase: its early opening, the decision's time, whether it was decided and whether the buyer is eligible and why; null when the sale has no priority purchase. Another channel's sale: 404 (`saleId`).",
    auth: 'buyer',
    input: z.object({ saleId: idSchema }),
    output: z.object({ priority: statusSchema.nullable() }),
    handler: async (ctx, input) => {
      const status = await priorityStatus(await userScope(ctx), input.saleId);
      return { priority: status ? wireDates(status) : null };
    },
  }),
};
