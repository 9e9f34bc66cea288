import 'server-only';
import { z } from 'zod';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import { identityStatus, verifyIdentity, type IdentityStatus } from './service';
import { envIdentityKeyRing, identityProvider } from './providers';

const requirementSchema = z.object({ realName: z.boolean(), minAge: z.number().int().nullable() });

/** The buyer's verification state as both calls answer it (issue 33; docs/api.md, "identity/status"): masked only. */
const identityStatusSchema = z.object({
  verified: z.boolean(),
  maskedName: z.string().nullable(),
  maskedIdNumber: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  requirement: z.object({ buy: requirementSchema, receive: requirementSchema, exchange: requirementSchema, chainUp: requirementSchema }),
  blindBoxMinAge: z.number().int().nullable(),
  consentVersion: z.string(),
});

function asAnswer(status: IdentityStatus): z.input<typeof identityStatusSchema> {
  return { ...status, verifiedAt: status.verifiedAt?.toISOString() ?? null };
}

async function statusOf(ctx: ProcedureContext) {
  const [channel, user] = await Promise.all([ctx.channel(), ctx.user()]);
  return identityStatus(ctx.db, { userId: user.id, channelId: channel.id });
}

/**
 * The buyer's real-name verification (issue 33): the state with what the channel asks per action, and the verify call
 * (vendor check, sealed keeping). Payloads in docs/api.md; the store's page is /{locale}/mine/identity.
 */
export const identityProcedures = {
  '/market/api/identity/status': procedure({
    summary:
      "My real-name verification (masked name and ID number only), what this channel asks before each action (real name, minimum age), and the consent text's current version.",
    auth: 'buyer',
    input: z.object({}),
    output: identityStatusSchema,
    handler: async (ctx) => asAnswer(await statusOf(ctx)),
  }),
  '/market/api/identity/verify': procedure({
    summary:
      'Verifies my real name (legal name and resident ID number) with the identity vendor, once per account; the identity can belong to one account only. Answers as identity/status. Nothing is kept on a refusal.',
    auth: 'buyer',
    input: z.object({
      name: z.string({ error: 'is required and must be a string' }).max(100, 'must be 100 characters or less'),
      idNumber: z.string({ error: 'is required and must be a string' }).max(40, 'must be 40 characters or less'),
      consentVersion: z.string({ error: 'is required and must be a string' }).max(64, 'must be 64 characters or less'),
    }),
    output: identityStatusSchema,
    handler: async (ctx, input) => {
      const [channel, user] = await Promise.all([ctx.channel(), ctx.user()]);
      await verifyIdentity(
        ctx.db,
        { ...input, userId: user.id, channelId: channel.id, now: ctx.now, ip: ctx.ip, timeZone: channel.timeZone },
        identityProvider(),
        envIdentityKeyRing(),
      );
      return asAnswer(await identityStatus(ctx.db, { userId: user.id, channelId: channel.id }));
    },
  }),
};
