import 'server-only';
import { z } from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { procedure } from '../procedure/procedure';
import { ANY_ROLE, OPERATOR_ROLES } from '../procedure/roles';
import { OPERATOR_LIMITS } from './accounts';
import {
  PASSKEY_LIMITS,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  removePasskey,
  renamePasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
  type PasskeySummary,
} from './passkeys';
import { sessionCookie } from './procedures';

/**
 * The console's passkey calls (issue 31, "a second factor: … and/or a passkey"): an operator's own passkeys on the
 * Account page (any role, their own account only), and the sign-in that answers with a passkey in place of the code.
 * lib/operator/passkeys.ts holds the rules.
 */

const text = (max: number) => z.string({ error: 'is required and must be a string' }).max(max, `must be ${max} characters or less`);
const base64url = (max: number) => text(max).regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');
const ceremony = text(100).min(1, 'must not be empty');
const passkeyName = text(PASSKEY_LIMITS.nameMax).trim().min(1, 'must not be empty');
// Ids are PostgreSQL integers: a number past them is no id we issue (a 400 naming the field, not the database's error).
const passkeyId = z
  .number({ error: 'is required and must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(2_147_483_647, 'is not an id we issue');

/** What the browser's WebAuthn answer may hold (sizes far above any real authenticator's, so nothing huge is parsed). */
const answerCommon = {
  id: base64url(1024).min(1, 'must not be empty'),
  rawId: base64url(1024).min(1, 'must not be empty'),
  type: z.literal('public-key', { error: 'must be public-key' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  // Extension outputs are not read (none is asked for); kept as an empty object.
  clientExtensionResults: z
    .object({
      appid: z.boolean().optional(),
      credProps: z.object({ rk: z.boolean().optional() }).optional(),
      hmacCreateSecret: z.boolean().optional(),
    })
    .default({}),
};
const registrationAnswer = z.object({
  ...answerCommon,
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(65_536),
    transports: z.array(text(32)).max(10, 'must name 10 transports or fewer').optional(),
  }),
});
const authenticationAnswer = z.object({
  ...answerCommon,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(1024),
    userHandle: base64url(1024).optional(),
  }),
});
const options = z.record(z.string(), z.unknown());
const passkey = z.object({ id: z.number(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });

function passkeyOut(p: PasskeySummary): z.input<typeof passkey> {
  return { id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null };
}

export const passkeyProcedures = {
  '/ops/api/passkey/registerOptions': procedure({
    summary: 'Starts adding a passkey to the signed-in operator’s account: the options for the browser and the ceremony’s token.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none' },
    input: z.object({}),
    output: z.object({ ceremony: z.string(), options }),
    handler: async (ctx) => {
      const me = await ctx.operator();
      const started = await startPasskeyRegistration(ctx.db, {
        operator: { operatorId: me.operatorId, name: me.name, ip: ctx.ip },
        now: ctx.now,
      });
      return { ceremony: started.ceremony, options: { ...started.options } };
    },
  }),
  '/ops/api/passkey/add': procedure({
    summary: 'Adds the passkey the browser made for the ceremony (verified against the operator host’s origin), with its name. Audited.',
    auth: 'operator',
    // A new way in to the account: asks for the password and code again once the console enforces re-authentication.
    operator: { roles: ANY_ROLE, channel: 'none', reauth: true, writes: 'creates' },
    input: z.object({ ceremony, name: passkeyName, response: registrationAnswer }),
    output: passkey,
    handler: async (ctx, input) => {
      const me = await ctx.operator();
      const added = await finishPasskeyRegistration(ctx.db, {
        operator: { operatorId: me.operatorId, name: me.name, ip: ctx.ip },
        ceremony: input.ceremony,
        response: input.response as RegistrationResponseJSON,
        name: input.name,
        now: ctx.now,
      });
      return passkeyOut(added);
    },
  }),
  '/ops/api/passkey/rename': procedure({
    summary: 'Renames one of the signed-in operator’s passkeys. Audited.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none', writes: 'changes' },
    input: z.object({ id: passkeyId, name: passkeyName }),
    output: passkey,
    handler: async (ctx, input) => {
      const me = await ctx.operator();
      return passkeyOut(
        await renamePasskey(ctx.db, {
          operator: { operatorId: me.operatorId, name: me.name, ip: ctx.ip },
          id: input.id,
          name: input.name,
          now: ctx.now,
        }),
      );
    },
  }),
  '/ops/api/passkey/remove': procedure({
    summary: 'Removes one of the signed-in operator’s passkeys, never their last second factor. Audited.',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'none', writes: 'removes' },
    input: z.object({ id: passkeyId }),
    output: z.null(),
    handler: async (ctx, input) => {
      const me = await ctx.operator();
      await removePasskey(ctx.db, { operator: { operatorId: me.operatorId, name: me.name, ip: ctx.ip }, id: input.id, now: ctx.now });
      return null;
    },
  }),
  '/ops/api/session/passkeyOptions': procedure({
    summary:
      'Starts signing in with a passkey in place of the code: the account name only; answers the options for the browser (the account’s passkey ids, or a stand-in) and the pending sign-in’s token. The password goes with the answer (passkeySignIn), so this step says nothing about it.',
    auth: 'operatorGuest',
    input: z.object({ name: text(64).trim().min(1, 'must not be empty') }),
    output: z.object({ ceremony: z.string(), options }),
    handler: async (ctx, input) => {
      const started = await startPasskeySignIn(ctx.db, { name: input.name, now: ctx.now, ip: ctx.ip });
      return { ceremony: started.ceremony, options: { ...started.options } };
    },
  }),
  '/ops/api/session/passkeySignIn': procedure({
    summary:
      'Finishes signing in: account name, password and the passkey’s answer to the pending sign-in, checked together (one try against the sign-in limits). Sets the session cookie.',
    auth: 'operatorGuest',
    input: z.object({
      name: text(64).trim().min(1, 'must not be empty'),
      password: text(256).min(1, 'must not be empty'),
      ceremony,
      response: authenticationAnswer,
    }),
    output: z.object({ name: z.string(), role: z.enum(OPERATOR_ROLES) }),
    handler: async (ctx, input) => {
      const done = await finishPasskeySignIn(ctx.db, {
        name: input.name,
        password: input.password,
        ceremony: input.ceremony,
        response: input.response as AuthenticationResponseJSON,
        now: ctx.now,
        ip: ctx.ip,
      });
      ctx.setHeader('set-cookie', sessionCookie(done.token, OPERATOR_LIMITS.sessionMaxMs / 1000));
      return done.operator;
    },
  }),
};
