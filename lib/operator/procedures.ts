import 'server-only';
import { z } from 'zod';
import { procedure } from '../procedure/procedure';
import { ANY_ROLE, OPERATOR_ROLES } from '../procedure/roles';
import { completeEnrolment, createInvitedOperator, endOperatorSession, OPERATOR_LIMITS, OPERATOR_NAME, signIn } from './accounts';
import { env, publicOrigin } from '../env';
import { consoleChannelOf, listConsoleChannels } from './channels';
import { OPERATOR_COOKIE } from './host';

/**
 * The operator console's calls (issue 31), on the operator host only (the dispatcher answers 404 elsewhere). Each
 * declares who may call it, so the authorization matrix (lib/server/authorization-matrix.test.ts) covers it.
 */

/**
 * The session cookie (issue 31): `__Host-` (host-only, path /), HttpOnly, SameSite=Strict, and Secure, which the
 * prefix requires; browsers take Secure cookies over plain http on localhost and *.localhost, so the demo works too.
 */
export function sessionCookie(token: string, maxAgeS: number): string {
  return `${OPERATOR_COOKIE}=${token}; Path=/; Max-Age=${maxAgeS}; HttpOnly; Secure; SameSite=Strict`;
}

const text = (max: number) => z.string({ error: 'is required and must be a string' }).max(max, `must be ${max} characters or less`);
const role = z.enum(OPERATOR_ROLES);
const channelKey = text(64).regex(/^[A-Z0-9]{1,64}$/, 'must be a channel key: upper-case letters and digits');
const consoleChannel = z.object({
  key: z.string(),
  name: z.string(),
  brandName: z.string(),
  status: z.number(),
  labels: z.array(z.number()),
  hosts: z.array(z.string()),
  domains: z.array(
    z.object({
      host: z.string(),
      status: z.enum(['key', 'pending', 'verified', 'misconfigured', 'removed']),
      primary: z.boolean(),
      served: z.boolean(),
    }),
  ),
  /** Today's page views (the list only). */
  viewsToday: z.number().optional(),
});

/** Where an enrolment link opens: the operator host as the deployment serves it. */
export function enrolmentUrl(token: string): string {
  return `${publicOrigin(env().OPERATOR_HOST)}/enrol/${token}`;
}

export const operatorProcedures = {
  '/ops/api/enrol/complete': procedure({
    summary: "Completes an operator's enrolment from the one-time link: password, and a code from the TOTP secret shown.",
    auth: 'operatorGuest',
    input: z.object({
      token: text(100).min(1, 'must not be empty'),
      password: text(256).min(12, 'must be at least 12 characters'),
      code: text(32).regex(/^\s*\d{6}\s*$/, 'must be the 6 digits your authenticator app shows'),
    }),
    output: z.object({ name: z.string(), role, recoveryCodes: z.array(z.string()) }),
    handler: async (ctx, input) =>
      completeEnrolment(ctx.db, { token: input.token, password: input.password, code: input.code.trim(), now: ctx.now, ip: ctx.ip }),
  }),
  '/ops/api/session/signIn': procedure({
    summary: 'Signs an operator in: account name, password, and a TOTP code or a recovery code. Sets the session cookie.',
    auth: 'operatorGuest',
    input: z.object({
      name: text(64).trim().min(1, 'must not be empty'),
      password: text(256).min(1, 'must not be empty'),
      code: text(32).trim().min(1, 'must not be empty'),
    }),
    output: z.object({ name: z.string(), role }),
    handler: async (ctx, input) => {
      const done = await signIn(ctx.db, { ...input, now: ctx.now, ip: ctx.ip });
      ctx.setHeader('set-cookie', sessionCookie(done.token, OPERATOR_LIMITS.sessionMaxMs / 1000));
      return done.operator;
    },
  }),
  '/ops/api/session/signOut': procedure({
    summary: "Ends the operator's session and clears its cookie.",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none' },
    input: z.object({}),
    output: z.null(),
    handler: async (ctx) => {
      await endOperatorSession(ctx.db, (await ctx.operator()).sessionId, ctx.now);
      ctx.setHeader('set-cookie', sessionCookie('', 0));
      return null;
    },
  }),
  '/ops/api/session/me': procedure({
    summary: 'Who is signed in: name and role.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none' },
    input: z.object({}),
    output: z.object({ name: z.string(), role }),
    handler: async (ctx) => {
      const { name, role } = await ctx.operator();
      return { name, role };
    },
  }),
  '/ops/api/channel/list': procedure({
    summary: 'The channels the operator works on (an owner: every channel) with status, labels and hosts.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none' },
    input: z.object({}),
    output: z.object({ channels: z.array(consoleChannel) }),
    handler: async (ctx) => ({ channels: await listConsoleChannels(ctx.db, await ctx.operator(), ctx.now) }),
  }),
  '/ops/api/channel/detail': procedure({
    summary: 'One channel the operator works on.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: consoleChannel,
    handler: async (ctx) => consoleChannelOf(ctx.db, await ctx.operatorChannel()),
  }),
  '/ops/api/operator/invite': procedure({
    summary: 'An owner invites an operator: a new account and its one-time enrolment link (shown once), with the channels granted.',
    auth: 'operator',
    operator: { roles: ['owner'], channel: 'none', reauth: true, writes: 'creates' },
    input: z.object({
      name: text(32)
        .trim()
        .toLowerCase()
        .regex(OPERATOR_NAME, 'must be 3 to 32 lower-case letters, digits, dots, dashes or underscores, starting with a letter'),
      role,
      channels: z.array(channelKey).max(500, 'must name 500 channels or fewer').default([]),
    }),
    output: z.object({ name: z.string(), role, channels: z.array(z.string()), enrolUrl: z.string(), expiresAt: z.string() }),
    handler: async (ctx, input) => {
      const by = await ctx.operator();
      const invited = await createInvitedOperator(ctx.db, {
        name: input.name,
        role: input.role,
        channels: input.channels,
        now: ctx.now,
        by: { operatorId: by.operatorId, name: by.name, ip: ctx.ip },
      });
      return {
        name: input.name,
        role: input.role,
        channels: invited.channels,
        enrolUrl: enrolmentUrl(invited.token),
        expiresAt: invited.expiresAt.toISOString(),
      };
    },
  }),
};
