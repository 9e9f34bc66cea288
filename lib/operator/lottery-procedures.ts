import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { wireDates } from '../procedure/wire-dates';
import type { CatalogueAudit } from '../sale/catalogue';
import { PUBLIC_VALUE_MAX, PUBLIC_VALUE_SOURCE_MAX } from '../sale/draw';
import { drawLottery, findLottery, setUpLottery, type LotteryView } from '../sale/lottery';
import { auditCall } from './audit';
import { saleId } from './catalogue-procedures';

/**
 * The lottery of a sale in the console (issue 35, "Lottery (抽签)"): read it, set it up (or change it before registration
 * opens), and run the draw with the public value. Owners, and managers on the channels granted, write; support reads.
 * Every write is in the audit trail with the lottery before and after as the console shows it (never the seed before the
 * draw), in the write's transaction. The rules live in lib/sale/lottery.ts.
 */

const WRITERS = ['owner', 'manager'] as const;

const channelKey = channelKeySchema;
const code = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1 to 64 lower-case letters, digits or hyphens, starting with a letter or digit');
const moment = z.iso.datetime({ offset: true, error: 'must be a time in ISO 8601 with its offset, e.g. 2026-12-01T20:00:00+08:00' });

const lotteryView = z.object({
  sale: z.string(),
  mode: z.literal('lottery'),
  copies: z.number().int().describe("N: the winners drawn, the sale's copies"),
  registrationOpensAt: z.string(),
  registrationClosesAt: z.string(),
  drawAt: z.string(),
  purchaseWindowMinutes: z.number().int(),
  publicValueSource: z.string(),
  commitment: z.string().describe('SHA-256 of the secret seed, public from the setup'),
  frozen: z.boolean().describe('registration opened: the settings can no longer change'),
  registrants: z.number().int(),
  drawnAt: z.string().nullable(),
  publicValue: z.string().nullable(),
  listHash: z.string().nullable(),
  rounds: z
    .array(
      z.object({ round: z.number().int(), from: z.number().int(), through: z.number().int(), opensAt: z.string(), endsAt: z.string() }),
    )
    .describe('the purchase rounds opened so far: round 1 the winners (ranks 1 to N), each later one the next ranks on the waitlist'),
});

const wire = (view: LotteryView): z.infer<typeof lotteryView> => wireDates(view);

/** The audit hook of one call: the lottery before and after as the console shows it. */
function auditOf(ctx: ProcedureContext, path: string, input: unknown): CatalogueAudit {
  const record = auditCall(ctx, path, input);
  // A lottery is wired as the console shows it; a first-come sale's side (`{sale, mode}`) is kept as it is.
  const wired = (side: unknown) =>
    side === null || side === undefined ? null : (side as { mode?: string }).mode === 'lottery' ? wire(side as LotteryView) : side;
  return (tx, change) => record(tx, { channelId: change.channelId, before: wired(change.before), after: wired(change.after) });
}

export const lotteryConsoleProcedures = {
  '/ops/api/sale/lottery': procedure({
    summary:
      "A sale's lottery as set up (its times, the public value's source, the commitment, the registrants so far, the draw's value and list hash once drawn), or null for a first-come sale.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey, sale: code }),
    output: z.object({ lottery: lotteryView.nullable() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const view = await findLottery(ctx.db, channel.id, id, ctx.now);
      return { lottery: view ? wire(view) : null };
    },
  }),
  '/ops/api/sale/lottery/set': procedure({
    summary:
      "Makes a sale a lottery, or changes its lottery before registration opens: registration's opening and close, the draw's time, the winners' purchase window in minutes, and where the public value comes from. The winners are the sale's copies. The seed's commitment is made now and published at once. Refused (400) naming the field: an opening not in the future, a close not after the opening, a draw before the close, a sale with orders; once registration opened, a change of any of these or of the copies (409, naming it).",
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({
      channel: channelKey,
      sale: code,
      registrationOpensAt: moment,
      registrationClosesAt: moment,
      drawAt: moment,
      purchaseWindowMinutes: z
        .number({ error: 'must be a number of minutes' })
        .int('must be a whole number of minutes')
        .min(1, 'must be at least 1')
        .max(10_080, 'must be at most 10080 (a week)'),
      publicValueSource: z
        .string({ error: 'is required and must be a string' })
        .trim()
        .min(1, 'must say in words where the public value comes from')
        .max(PUBLIC_VALUE_SOURCE_MAX, `must be ${PUBLIC_VALUE_SOURCE_MAX} characters or less`),
    }),
    output: lotteryView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/lottery/set', input);
      const view = await setUpLottery(
        ctx.db,
        channel.id,
        id,
        {
          registrationOpensAt: new Date(input.registrationOpensAt),
          registrationClosesAt: new Date(input.registrationClosesAt),
          drawAt: new Date(input.drawAt),
          purchaseWindowMinutes: input.purchaseWindowMinutes,
          publicValueSource: input.publicValueSource.normalize('NFC'),
        },
        ctx.now,
        audit,
      );
      return wire(view);
    },
  }),
  '/ops/api/sale/lottery/draw': procedure({
    summary:
      "Runs a lottery's draw with the public value as its source published it: ranks every registrant, publishes the seed, the value, the registrant list and its hash, the winners and the waitlist (`/market/api/lottery/published`). Once only, and not before the draw's time (409). Refused (400, `publicValue`): an empty value or one over 200 characters.",
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({
      channel: channelKey,
      sale: code,
      publicValue: z
        .string({ error: 'is required and must be a string' })
        .max(PUBLIC_VALUE_MAX * 4, `must be ${PUBLIC_VALUE_MAX} characters or less`),
    }),
    output: z.object({ lottery: lotteryView, winners: z.number().int(), waitlist: z.number().int() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/lottery/draw', input);
      const { lottery, draw } = await drawLottery(ctx.db, channel.id, id, input.publicValue, ctx.now, audit);
      return { lottery: wire(lottery), winners: draw.winners.length, waitlist: draw.waitlist.length };
    },
  }),
};
