import 'server-only';
import { z } from 'zod';
import { procedure } from '../procedure/procedure';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { ANY_ROLE, OPERATOR_ROLES } from '../procedure/roles';
import { changeOperatorAccess, confirmSession, disableOperator, enableOperator, listTeam, resetSecondFactor } from './accounts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys';
import { enrolmentUrl } from './procedures';

/**
 * The team, re-authentication and API keys (issue 31): owners manage who operates (roles, channels, disable/enable,
 * second-factor reset); every operator renews their proof for sensitive writes and manages their own API keys. Each
 * write is audited in its service's transaction with the row before and after.
 */

const text = (max: number) => z.string({ error: 'is required and must be a string' }).max(max, `must be ${max} characters or less`);
const role = z.enum(OPERATOR_ROLES);
const channelKeys = z
  .array(text(64).regex(/^[A-Z0-9]{1,64}$/, 'must be a channel key: upper-case letters and digits'))
  .max(500, 'must name 500 channels or fewer');
// Ids are PostgreSQL integers: a number past them is no id we issue (a 400 naming the field, not the database's error).
const operatorId = z
  .number({ error: 'is required and must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(2_147_483_647, 'is not an id we issue');

const teamMember = z.object({
  id: z.number(),
  name: z.string(),
  role,
  status: z.enum(['invited', 'active', 'disabled']),
  channels: z.array(z.string()),
  secondFactor: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
const apiKeyView = z.object({
  id: z.number(),
  operator: z.string(),
  label: z.string(),
  prefix: z.string(),
  role,
  channels: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

async function actor(ctx: { operator: () => Promise<{ operatorId: number; name: string }>; ip: string }) {
  const by = await ctx.operator();
  return { operatorId: by.operatorId, name: by.name, ip: ctx.ip };
}

export const teamProcedures = {
  '/ops/api/session/confirm': procedure({
    summary:
      'Proves the password and a fresh code again for the sensitive writes of the next 5 minutes (the same limits and refusal as sign-in).',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none', writes: 'event' },
    input: z.object({
      password: text(256).min(1, 'must not be empty'),
      code: text(32).trim().min(1, 'must not be empty'),
    }),
    output: z.object({ provedUntil: z.string() }),
    handler: async (ctx, input) => {
      const session = await ctx.operator();
      if (session.apiKey) throw new AppError(403, msg('opsReauthApiKey'));
      const done = await confirmSession(ctx.db, { session, password: input.password, code: input.code, now: ctx.now, ip: ctx.ip });
      return { provedUntil: done.provedUntil.toISOString() };
    },
  }),
  '/ops/api/team/list': procedure({
    summary: 'Every operator: role, status, channels granted, whether a second factor is set, last sign-in (owners).',
    auth: 'operator',
    operator: { roles: ['owner'], channel: 'none' },
    input: z.object({}),
    output: z.object({ operators: z.array(teamMember) }),
    handler: async (ctx) => ({ operators: await listTeam(ctx.db) }),
  }),
  '/ops/api/team/update': procedure({
    summary: "An owner changes an operator's role and channels (not their own; never the last active owner's demotion).",
    auth: 'operator',
    operator: { roles: ['owner'], channel: 'none', reauth: true, writes: 'changes' },
    input: z.object({ operatorId, role, channels: channelKeys.default([]) }),
    output: teamMember,
    handler: async (ctx, input) => changeOperatorAccess(ctx.db, { ...input, by: await actor(ctx), now: ctx.now }),
  }),
  '/ops/api/team/disable': procedure({
    summary: 'An owner disables an operator: every session and API key of theirs stops at once.',
    auth: 'operator',
    operator: { roles: ['owner'], channel: 'none', reauth: true, writes: 'changes' },
    input: z.object({ operatorId }),
    output: z.null(),
    handler: async (ctx, input) => {
      await disableOperator(ctx.db, { operatorId: input.operatorId, by: await actor(ctx), now: ctx.now });
      return null;
    },
  }),
  '/ops/api/team/enable': procedure({
    summary: 'An owner enables a disabled operator again (they sign in afresh).',
    auth: 'operator',
    operator: { roles: ['owner'], channel: 'none', reauth: true, writes: 'changes' },
    input: z.object({ operatorId }),
    output: z.null(),
    handler: async (ctx, input) => {
      await enableOperator(ctx.db, { operatorId: input.operatorId, by: await actor(ctx), now: ctx.now });
      return null;
    },
  }),
  '/ops/api/team/resetSecondFactor': procedure({
    summary: "An owner resets an operator's second factor: their sessions end and a new one-time link (shown once) sets it again.",
    auth: 'operator',
    operator: { roles: ['owner'], channel: 'none', reauth: true, writes: 'changes' },
    input: z.object({ operatorId }),
    output: z.object({ name: z.string(), enrolUrl: z.string(), expiresAt: z.string() }),
    handler: async (ctx, input) => {
      const reset = await resetSecondFactor(ctx.db, { operatorId: input.operatorId, by: await actor(ctx), now: ctx.now });
      return { name: reset.name, enrolUrl: enrolmentUrl(reset.token), expiresAt: reset.expiresAt.toISOString() };
    },
  }),
  '/ops/api/apiKey/list': procedure({
    summary: "The API keys the operator manages: their own (an owner: everyone's), never a secret.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none' },
    input: z.object({}),
    output: z.object({ keys: z.array(apiKeyView) }),
    handler: async (ctx) => ({ keys: await listApiKeys(ctx.db, await ctx.operator()) }),
  }),
  '/ops/api/apiKey/create': procedure({
    summary: "A new API key of the operator's, shown once: a role up to theirs, channels among theirs.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none', reauth: true, writes: 'creates' },
    input: z.object({
      label: text(64).trim().min(1, 'must not be empty'),
      role,
      channels: channelKeys.default([]),
    }),
    output: z.object({ key: z.string(), apiKey: apiKeyView }),
    handler: async (ctx, input) => {
      const by = await actor(ctx);
      return createApiKey(ctx.db, { operatorId: by.operatorId, ...input, now: ctx.now, by });
    },
  }),
  '/ops/api/apiKey/revoke': procedure({
    summary: 'Revokes an API key at once: one’s own, or any as an owner.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none', writes: 'changes' },
    input: z.object({ id: operatorId }),
    output: apiKeyView,
    handler: async (ctx, input) => revokeApiKey(ctx.db, { id: input.id, viewer: await ctx.operator(), now: ctx.now, ip: ctx.ip }),
  }),
};
