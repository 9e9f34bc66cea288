import 'server-only';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { idSchema, idempotencyKeySchema } from '../procedure/schemas';
import { acceptTransfer, giftability, giveHolding, listIncoming, listRecords, lookupReceiver, refuseTransfer } from './service';
import { giftabilitySchema, receiverViewSchema, transferViewSchema } from './schema';

/** A receiver's account number on this channel, as typed (spaces around it are dropped). */
const accountNumberSchema = z
  .string({ error: 'is required and must be a string' })
  .trim()
  .regex(/^\d{10}$/, 'must be a 10-digit account number');

/**
 * Gifts between buyers (转赠, issue 36; docs/gifting.md, docs/api.md "Gifts between buyers"): whether a held
 * collectible can be given, the receiver behind an account number, giving, the gifts waiting for my answer, accepting
 * or refusing one, and my records of gifts given and received.
 */
export const transferProcedures = {
  '/market/api/transfer/giftability': procedure({
    summary:
      'Whether I can give one of my collectibles now, and if not why (holding period with its end, chain-up pending, a refund in progress, already offered, a blind box); with its provenance.',
    auth: 'buyer',
    input: z.object({ holdingId: idSchema }),
    output: giftabilitySchema,
    handler: async (ctx, input) => giftability(await userScope(ctx), input.holdingId),
  }),
  '/market/api/transfer/lookup': procedure({
    summary:
      "The buyer of this channel behind an account number, by their masked nickname, for the sender to confirm. Rate-limited per sender; an unknown number and another channel's answer alike.",
    auth: 'buyer',
    input: z.object({ accountNumber: accountNumberSchema }),
    output: receiverViewSchema,
    handler: async (ctx, input) => lookupReceiver(await userScope(ctx), input.accountNumber),
  }),
  '/market/api/transfer/give': procedure({
    summary:
      'Gives one of my collectibles to the buyer with this account number; they have 72 hours to accept or refuse. The same idempotencyKey answers the same gift.',
    auth: 'buyer',
    input: z.object({ holdingId: idSchema, accountNumber: accountNumberSchema, idempotencyKey: idempotencyKeySchema }),
    output: transferViewSchema,
    handler: async (ctx, input) => giveHolding(await userScope(ctx), input),
  }),
  '/market/api/transfer/incoming': procedure({
    summary: 'The gifts waiting for my answer on this channel, newest first.',
    auth: 'buyer',
    input: z.object({}),
    output: z.array(transferViewSchema),
    handler: async (ctx) => listIncoming(await userScope(ctx)),
  }),
  '/market/api/transfer/accept': procedure({
    summary: 'Accepts a gift waiting for my answer: final, the collectible is mine (its edition number unchanged).',
    auth: 'buyer',
    input: z.object({ transferId: idSchema }),
    output: transferViewSchema,
    handler: async (ctx, input) => acceptTransfer(await userScope(ctx), input.transferId),
  }),
  '/market/api/transfer/refuse': procedure({
    summary: 'Refuses a gift waiting for my answer: the collectible goes back to its sender.',
    auth: 'buyer',
    input: z.object({ transferId: idSchema }),
    output: transferViewSchema,
    handler: async (ctx, input) => refuseTransfer(await userScope(ctx), input.transferId),
  }),
  '/market/api/transfer/records': procedure({
    summary: 'My gift records on this channel: given and received, whatever became of them, newest first, paged.',
    auth: 'buyer',
    input: pagingSchema,
    output: pageSchema(transferViewSchema),
    handler: async (ctx, input) => listRecords(await userScope(ctx), input),
  }),
};
