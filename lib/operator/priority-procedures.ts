import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { wireDates } from '../procedure/wire-dates';
import { MINUTES_EARLY_MAX, findPriority, importPriorityWhitelist, setPriority, type PriorityView } from '../sale/priority';
import { auditCall } from './audit';
import { saleId } from './catalogue-procedures';

/**
 * A sale's priority purchase (优先购, issue 35) in the console: read it, set it (or change it before eligibility is
 * decided; null removes it), and import its whitelist. Owners, and managers on the channels granted, write; support
 * reads. Every write is in the audit trail, in the write's transaction. The rules live in lib/sale/priority.ts.
 */

const WRITERS = ['owner', 'manager'] as const;

const code = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1 to 64 lower-case letters, digits or hyphens, starting with a letter or digit');
const moment = z.iso.datetime({ offset: true, error: 'must be a time in ISO 8601 with its offset, e.g. 2026-12-01T20:00:00+08:00' });

const priorityView = z.object({
  minutesEarly: z.number().int().describe('eligible buyers may buy this many minutes before the sale opens'),
  holderCollectibles: z.array(z.string()).describe('codes of the collectibles whose holders are eligible'),
  minPaidOrders: z
    .number()
    .int()
    .nullable()
    .describe('buyers with at least this many paid orders on the channel are eligible; null: no such rule'),
  whitelistCount: z.number().int().describe('account numbers on the imported whitelist'),
  decideAt: z.string().describe('when eligibility is decided (ISO 8601)'),
  decidedAt: z.string().nullable().describe('when it was decided; the settings and the whitelist are frozen from then'),
  eligibleCount: z.number().int().nullable().describe('how many buyers the decision found eligible; null before it'),
  opensAt: z.string().describe("the early opening: the sale's opening less minutesEarly"),
  saleStartsAt: z.string().describe("the sale's opening to everyone"),
});

const wire = (view: PriorityView | null): z.infer<typeof priorityView> | null => (view ? wireDates(view) : null);

const settings = z.object({
  minutesEarly: z
    .number({ error: 'must be a number of minutes' })
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1')
    .max(MINUTES_EARLY_MAX, `must be at most ${MINUTES_EARLY_MAX} (a day)`),
  holderCollectibles: z.array(code, { error: 'must be a list of collectible codes' }).max(50, 'must name at most 50 collectibles'),
  minPaidOrders: z
    .number({ error: 'must be a number of orders or null' })
    .int('must be a whole number of orders')
    .min(1, 'must be at least 1')
    .max(1_000_000, 'must be at most 1000000')
    .nullable(),
  decideAt: moment,
});

export const priorityConsoleProcedures = {
  '/ops/api/sale/priority': procedure({
    summary:
      "A sale's priority purchase (issue 35) as set: minutes early, the rules (collectibles held, paid orders, the whitelist's size), the decision's time and, once decided, how many buyers are eligible; null when the sale has none.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKeySchema, sale: code }),
    output: z.object({ priority: priorityView.nullable() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      return { priority: wire(await findPriority(ctx.db, channel.id, id)) };
    },
  }),
  '/ops/api/sale/priority/set': procedure({
    summary:
      "Sets a first-come sale's priority purchase, changes it before eligibility is decided, or removes it (`priority: null`). Eligible buyers (holders of any of the collectibles, or with at least minPaidOrders paid orders on the channel, or on the whitelist) may buy minutesEarly minutes before the opening. Refused naming the field: minutesEarly outside 1 to 1440, a collectible not of the channel, a decision time not in the future or after the early opening, no rule at all (400); a sale with orders (400, `sale`); a lottery or waiting-room sale (409, `mode`); after the decision, any change or the removal (409).",
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKeySchema, sale: code, priority: settings.nullable() }),
    output: z.object({ priority: priorityView.nullable() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditCall(ctx, '/ops/api/sale/priority/set', input);
      const p = input.priority;
      const view = await setPriority(
        ctx.db,
        channel.id,
        id,
        p
          ? {
              minutesEarly: p.minutesEarly,
              holderCollectibles: p.holderCollectibles,
              minPaidOrders: p.minPaidOrders,
              decideAt: new Date(p.decideAt),
            }
          : null,
        ctx.now,
        audit,
      );
      return { priority: wire(view) };
    },
  }),
  '/ops/api/sale/priority/whitelist': procedure({
    summary:
      "Imports a sale's priority-purchase whitelist from CSV text: one account number (as the buyer's Mine page shows it on this channel) a line, an optional header line `account_number`, blank lines ignored; at most 100,000 rows. The accepted rows replace the list; each refused row is named with its line, its value and why (`notAnAccountNumber`, `noSuchBuyer` on this channel, `duplicate`). Refused: after the decision (409, `csv`), a lottery or waiting-room sale (409, `mode`).",
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({ channel: channelKeySchema, sale: code, csv: z.string({ error: 'must be the CSV file as text' }) }),
    output: z.object({
      imported: z.number().int().describe('rows accepted: the whitelist now'),
      whitelistCount: z.number().int(),
      refused: z.array(
        z.object({
          line: z.number().int().describe('the line of the file, 1 first'),
          value: z.string(),
          reason: z.enum(['notAnAccountNumber', 'noSuchBuyer', 'duplicate']),
        }),
      ),
    }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      // The audit keeps the counts, not the file.
      const audit = auditCall(ctx, '/ops/api/sale/priority/whitelist', {
        channel: input.channel,
        sale: input.sale,
        csvBytes: input.csv.length,
      });
      return importPriorityWhitelist(ctx.db, channel.id, id, input.csv, ctx.now, audit);
    },
  }),
};
