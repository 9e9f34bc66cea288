import 'server-only';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { idSchema } from '../procedure/schemas';
import { wireDates } from '../procedure/wire-dates';
import { joinQueue, queuePosition, type QueuePosition } from './queue';
import { offerWatch } from './queue-watch';

/**
 * A buyer's calls of a sale's waiting room (issue 35, "First come, through a waiting room"): join, and read one's place.
 * Payloads in docs/api.md; the rules in lib/sale/queue.ts and docs/drops.md ("Waiting room").
 */

const positionSchema = z.object({
  saleId: z.string().describe('the sale asked about'),
  status: z
    .enum(['notJoined', 'waiting', 'queued', 'admitted', 'bought', 'expired', 'left', 'soldOut', 'ended'])
    .describe(
      'waiting: joined, before the shuffle at `shuffleAt` (no place yet); queued: a place; admitted: buy now with `admission`; expired: an admission not used in its life; left: not seen for the hold time (join again, at the back)',
    ),
  position: z.number().int().nullable().describe('1: the next admitted; null unless queued'),
  ahead: z.number().int().nullable().describe('buyers ahead, not yet admitted; null unless queued'),
  estimatedWaitSeconds: z
    .number()
    .int()
    .nullable()
    .describe('seconds until a likely admission at the queue’s pace (before the shuffle: until it); null unless waiting or queued'),
  copiesLeft: z.number().int(),
  waiting: z.number().int().describe('buyers in the queue not yet admitted'),
  admission: z.string().nullable().describe('when admitted: the token order/create takes as `admission`'),
  admissionExpiresAt: z.string().nullable().describe('when admitted: the admission’s end (ISO 8601)'),
  joinOpensAt: z.string(),
  shuffleAt: z.string().describe('the opening plus the grace: who joined before it is shuffled together'),
  pollSeconds: z.number().int().describe('how often to ask again'),
});

/** A place as the wire carries it (the watch's lines too: lib/server/queue-door-read.ts). */
export const wirePosition = (p: QueuePosition): z.infer<typeof positionSchema> => wireDates(p);
const wire = wirePosition;

export const queueProcedures = {
  '/market/api/queue/join': procedure({
    summary:
      "Joins the signed-in buyer to a sale's waiting room (issue 35), once: a second call answers the same place. Refused: another channel's sale or one without a waiting room (404, `saleId`), before joining opens, after the sale ended or sold out (409), a channel's real-name rule not met (1010).",
    auth: 'buyer',
    input: z.object({ saleId: idSchema }),
    output: positionSchema,
    handler: async (ctx, input) => wire(await joinQueue(await userScope(ctx), input.saleId)),
  }),
  '/market/api/queue/position': procedure({
    summary:
      "The signed-in buyer's place in a sale's waiting room: position, how many ahead, an estimated wait, copies left; when admitted, the admission token and its end; sold out said as such. Answered from the process's memory; ask again every `pollSeconds` (a buyer not seen for the hold time loses their place).",
    auth: 'buyer',
    input: z.object({ saleId: idSchema }),
    output: positionSchema,
    handler: async (ctx, input) => wire(await queuePosition(await userScope(ctx), input.saleId)),
  }),
  '/market/api/queue/watch': procedure({
    summary:
      "The signed-in buyer's place in a sale's waiting room, then kept: answered at the entry server as a stream of lines (`application/x-ndjson`), each an envelope as this call's answer, the first at once, then one at each change: their turn (with the admission), sold out, ended, a lost place, and their place every second near the head (every 5 s further back); an empty line every 15 s keeps it open. Where it is answered once (`application/json`, e.g. the server full of watches), read `queue/position` every `pollSeconds` instead. An open watch keeps the buyer's place as polling does. With `join`, the buyer joins first (as `queue/join`, refused as it is), so the page's tap to join is one call that stays open.",
    auth: 'buyer',
    input: z.object({
      saleId: idSchema,
      join: z.boolean().optional().describe('join first, as `queue/join` (with its refusals), then watch: one call for the tap'),
    }),
    output: positionSchema,
    handler: async (ctx, input) => {
      const scope = await userScope(ctx);
      const place = input.join ? await joinQueue(scope, input.saleId) : await queuePosition(scope, input.saleId);
      offerWatch(scope.db, input.saleId, scope.userId, place);
      return wire(place);
    },
  }),
};
