import 'server-only';
import { z } from 'zod';
import { channelScope, procedure, userScope } from '../procedure/procedure';
import { idSchema } from '../procedure/schemas';
import { wireDates } from '../procedure/wire-dates';
import { lotteryStatus, publishedLottery, registerForLottery, type LotteryStatus, type PublishedLottery } from './lottery';

/**
 * A buyer's calls of the lottery (issue 35, "Lottery (抽签)"): register, their standing, and what anyone may read of a
 * sale's lottery (the commitment from the setup, the whole draw after it). Payloads in docs/api.md; the rules in
 * lib/sale/lottery.ts and docs/drops.md.
 */

const statusSchema = z.object({
  saleId: z.string().describe('the sale asked about'),
  status: z
    .enum(['notRegistered', 'registered', 'winner', 'waitlist'])
    .describe('registered: waiting for the draw (or drawn with nobody ranked); winner and waitlist: after the draw'),
  drawn: z.boolean().describe('the draw has run'),
  mayBuy: z
    .boolean()
    .describe(
      'the buyer may buy now: a winner within their purchase window (order/create admits them; everyone else is refused 409 notAdmitted)',
    ),
  accountNumber: z
    .string()
    .nullable()
    .describe("the buyer's account number on the channel, as the published list names them; null until registered"),
  registeredAt: z.string().nullable().describe('when the buyer registered (ISO 8601)'),
  round: z
    .number()
    .int()
    .nullable()
    .describe("the purchase round that admitted the buyer: 1 for the draw's winners, 2 on as copies left go down the waitlist"),
  purchaseEndsAt: z.string().nullable().describe("an admitted buyer's purchase window's end (ISO 8601); null otherwise"),
  waitlistPosition: z.number().int().nullable().describe("a waitlisted buyer's place among those still waiting, 1 next; null otherwise"),
  registrationOpensAt: z.string(),
  registrationClosesAt: z.string(),
  drawAt: z.string(),
  commitment: z.string().describe('SHA-256 of the secret seed, published before registration opened'),
});

const wireStatus = (s: LotteryStatus): z.infer<typeof statusSchema> => wireDates(s);

const publishedDrawSchema = z.object({
  version: z.literal(1),
  saleId: z.string(),
  channelKey: z.string(),
  copies: z.number().int(),
  commitment: z.string(),
  seed: z.string(),
  publicValue: z.string(),
  publicValueSource: z.string(),
  registrants: z.array(z.string()),
  listHash: z.string(),
  winners: z.array(z.string()),
  waitlist: z.array(z.string()),
});

const publishedSchema = z.object({
  saleId: z.string(),
  copies: z.number().int().describe('N: the winners drawn'),
  registrationOpensAt: z.string(),
  registrationClosesAt: z.string(),
  drawAt: z.string(),
  purchaseWindowMinutes: z.number().int().describe('how long a winner has to buy after the draw'),
  publicValueSource: z.string().describe('where the public value entered at the draw comes from, in words'),
  commitment: z.string().describe('SHA-256 of the secret seed (hex)'),
  registrants: z.number().int().describe('how many registered so far'),
  drawnAt: z.string().nullable(),
  draw: publishedDrawSchema
    .nullable()
    .describe('the published draw (docs/drops.md, "The published file"), for `npm run draw:verify`; null before the draw'),
});

const wirePublished = (p: PublishedLottery): z.infer<typeof publishedSchema> => wireDates(p);

export const lotteryProcedures = {
  '/market/api/lottery/register': procedure({
    summary:
      "Registers the signed-in buyer for a lottery sale (issue 35), once: a second call answers the same registration. Refused: another channel's or a first-come sale (404, `saleId`), before or after the registration window (409), a channel's real-name rule not met (1010), an identity already registered through another account (409).",
    auth: 'buyer',
    input: z.object({ saleId: idSchema }),
    output: statusSchema,
    handler: async (ctx, input) => wireStatus(await registerForLottery(await userScope(ctx), input.saleId)),
  }),
  '/market/api/lottery/status': procedure({
    summary:
      "The signed-in buyer's standing in a lottery sale: not registered, registered (not drawn yet), winner with the purchase window's end, or waitlisted with their place.",
    auth: 'buyer',
    input: z.object({ saleId: idSchema }),
    output: statusSchema,
    handler: async (ctx, input) => wireStatus(await lotteryStatus(await userScope(ctx), input.saleId)),
  }),
  '/market/api/lottery/published': procedure({
    summary:
      "What anyone may read of a lottery sale: copies, times, the public value's source and the commitment from its setup; after the draw, the published draw (seed, value, registrants, list hash, winners, waitlist) that `npm run draw:verify` checks.",
    auth: 'none',
    input: z.object({ saleId: idSchema }),
    output: publishedSchema,
    handler: async (ctx, input) => wirePublished(await publishedLottery(await channelScope(ctx), input.saleId)),
  }),
};
