import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { ANY_ROLE } from '../procedure/roles';
import { wireDates } from '../procedure/wire-dates';
import type { CatalogueAudit } from '../sale/catalogue';
import { QUEUE_DEFAULTS, findQueue, setUpQueue, type QueueView } from '../sale/queue';
import { auditCall } from './audit';
import { saleId } from './catalogue-procedures';

/**
 * The waiting room of a sale in the console (issue 35, "First come, through a waiting room"): read it, set it up (or
 * change it before joining opens). Owners, and managers on the channels granted, write; support reads. Every write is
 * in the audit trail with the waiting room before and after, in the write's transaction. The rules live in
 * lib/sale/queue.ts.
 */

const WRITERS = ['owner', 'manager'] as const;

const code = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1 to 64 lower-case letters, digits or hyphens, starting with a letter or digit');

const whole = (unit: string, min: number, max: number) =>
  z
    .number({ error: `must be a number of ${unit}` })
    .int(`must be a whole number of ${unit}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const queueView = z.object({
  sale: z.string(),
  mode: z.literal('queue'),
  joinMinutes: z.number().int(),
  graceSeconds: z.number().int(),
  holdSeconds: z.number().int(),
  admissionSeconds: z.number().int(),
  admitPerSecond: z.number().int(),
  joinOpensAt: z.string(),
  shuffleAt: z.string().describe('the opening plus the grace: who joined before it is shuffled together'),
  frozen: z.boolean().describe('joining opened: the settings can no longer change'),
  joined: z.number().int(),
  shuffledAt: z.string().nullable(),
});

const wire = (view: QueueView): z.infer<typeof queueView> => wireDates(view);

function auditOf(ctx: ProcedureContext, path: string, input: unknown): CatalogueAudit {
  const record = auditCall(ctx, path, input);
  const wired = (side: unknown) =>
    side === null || side === undefined
      ? null
      : (side as { mode?: string }).mode === 'queue' && 'joinOpensAt' in (side as object)
        ? wire(side as QueueView)
        : side;
  return (tx, change) => record(tx, { channelId: change.channelId, before: wired(change.before), after: wired(change.after) });
}

export const queueConsoleProcedures = {
  '/ops/api/sale/queue': procedure({
    summary: "A sale's waiting room as set up (its settings, when joining opens, the buyers joined so far), or null when it has none.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKeySchema, sale: code }),
    output: z.object({ queue: queueView.nullable() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const view = await findQueue(ctx.db, channel.id, id, ctx.now);
      return { queue: view ? wire(view) : null };
    },
  }),
  '/ops/api/sale/queue/set': procedure({
    summary:
      'Puts a sale through a waiting room, or changes it before joining opens: how many minutes before the opening joining opens, the grace after the opening within which arrivals are shuffled with the early ones (default 3 s), how long a buyer who left keeps their place (default 180 s), an admission’s life (default 60 s), admissions a second (default 50). Refused: joining that would open now or earlier (400, `joinMinutes`), a lottery whose registration opened (409); once joining opened, any change (409, naming it).',
    auth: 'operator',
    operator: { roles: WRITERS, channel: 'input', writes: 'changes' },
    input: z.object({
      channel: channelKeySchema,
      sale: code,
      joinMinutes: whole('minutes', 0, 1440),
      graceSeconds: whole('seconds', 0, 60).default(QUEUE_DEFAULTS.graceSeconds),
      holdSeconds: whole('seconds', 10, 3600).default(QUEUE_DEFAULTS.holdSeconds),
      admissionSeconds: whole('seconds', 10, 900).default(QUEUE_DEFAULTS.admissionSeconds),
      admitPerSecond: whole('admissions a second', 1, 10_000).default(QUEUE_DEFAULTS.admitPerSecond),
    }),
    output: queueView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const id = await saleId(ctx.db, channel.id, input.sale);
      const audit = auditOf(ctx, '/ops/api/sale/queue/set', input);
      const { joinMinutes, graceSeconds, holdSeconds, admissionSeconds, admitPerSecond } = input;
      return wire(
        await setUpQueue(
          ctx.db,
          channel.id,
          id,
          { joinMinutes, graceSeconds, holdSeconds, admissionSeconds, admitPerSecond },
          ctx.now,
          audit,
        ),
      );
    },
  }),
};
