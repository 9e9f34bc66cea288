import 'server-only';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { env } from '../env';
import { sha256 } from '../security/crypto';
import { deviceIdFrom } from '../security/device';
import { smsProvider } from '../auth/sms';
import { addressLimitsOf } from '../auth/limits';
import { sendCodeResultSchema } from '../auth/schema';
import { NICKNAME_MAX } from './nickname';
import { listLogins, readProfile, signOutOthers, updateProfile } from './profile';
import { closeAccount, closingState, sendClosingCode } from './close-account';
import { closedSchema, closingViewSchema, loginViewSchema, profileViewSchema, signedOutSchema } from './profile-schema';

/** The hash of the call's own token: the session the caller is on. */
async function currentTokenHash(ctx: { token: () => Promise<string | null> }): Promise<string> {
  const token = await ctx.token();
  if (!token) throw new AppError(401, msg('notLoggedIn'));
  return sha256(token);
}

/**
 * A buyer's own profile (issue 36; docs/profile.md, docs/api.md "Your profile"): nickname and avatar, the last logins on
 * this channel, signing out of the other sessions, and closing the account with an SMS code. The data file is a page
 * route (GET /mine/profile/data), since it downloads.
 */
export const profileProcedures = {
  '/market/api/profile/read': procedure({
    summary: 'My nickname and avatar.',
    auth: 'buyer',
    input: z.object({}),
    output: profileViewSchema,
    handler: async (ctx) => readProfile(await userScope(ctx)),
  }),
  '/market/api/profile/update': procedure({
    summary:
      'Sets my nickname (2–20 letters, digits, CJK, _ or -, single spaces inside; no words that pass for the store) and/or my avatar (one of the shipped ones, or the photo I uploaded while it is my avatar: POST /api/market/api/profile/avatar); null clears either.',
    auth: 'buyer',
    input: z.object({
      // Bounded here (a body of megabytes is refused before the rules run); the rules themselves name their problem.
      nickname: z
        .string({ error: 'must be a text or null' })
        .max(NICKNAME_MAX * 4, 'is too long')
        .nullable()
        .optional(),
      avatar: z.string({ error: 'must be a text or null' }).max(200, 'is not one of the avatars offered').nullable().optional(),
    }),
    output: profileViewSchema,
    handler: async (ctx, input) => updateProfile(await userScope(ctx), input),
  }),
  '/market/api/profile/logins': procedure({
    summary: 'My last 20 logins on this channel, newest first: time, device in words, masked address; the current one marked.',
    auth: 'buyer',
    input: z.object({}),
    output: z.array(loginViewSchema),
    handler: async (ctx) => listLogins(await userScope(ctx), await currentTokenHash(ctx)),
  }),
  '/market/api/profile/signOutOthers': procedure({
    summary: 'Ends every other session of mine on this channel; this one stays.',
    auth: 'buyer',
    input: z.object({}),
    output: signedOutSchema,
    handler: async (ctx) => signOutOthers(await userScope(ctx), await currentTokenHash(ctx)),
  }),
  '/market/api/profile/closing': procedure({
    summary:
      'What closing my account would leave: the collectibles I still hold on every store (forfeited unless given away first), and what keeps it from closing now (orders to pay, refunds owed).',
    auth: 'buyer',
    input: z.object({}),
    output: closingViewSchema,
    handler: async (ctx) => closingState(await userScope(ctx)),
  }),
  '/market/api/profile/closeCode': procedure({
    summary: 'Sends my phone a code for closing my account (it logs no one in). The SMS limits of a login code apply.',
    auth: 'buyer',
    input: z.object({}),
    output: sendCodeResultSchema,
    handler: async (ctx) => {
      const [scope, channel] = await Promise.all([userScope(ctx), ctx.channel()]);
      const e = env();
      return sendClosingCode({
        db: ctx.db,
        now: ctx.now,
        channelId: channel.id,
        userId: scope.userId,
        ip: ctx.ip,
        deviceId: deviceIdFrom(ctx.headers.get('cookie')),
        secret: e.AUTH_SECRET,
        sms: smsProvider(e.SMS_PROVIDER, e),
        smsSender: { signName: channel.smsSignName, templateId: channel.smsTemplateId },
        addressLimits: addressLimitsOf(e),
      });
    },
  }),
  '/market/api/profile/close': procedure({
    summary:
      'Closes my account on every store with the code sent by profile/closeCode: sessions end everywhere, the phone may sign up anew; refused while an order waits for payment or a refund is owed.',
    auth: 'buyer',
    input: z.object({
      code: z
        .string({ error: 'is required and must be a string' })
        .trim()
        .regex(/^\d{6}$/, 'must be the 6-digit code'),
    }),
    output: closedSchema,
    handler: async (ctx, input) => {
      const scope = await userScope(ctx);
      const e = env();
      await closeAccount(
        {
          db: ctx.db,
          now: ctx.now,
          channelId: scope.channelId,
          userId: scope.userId,
          ip: ctx.ip,
          secret: e.AUTH_SECRET,
          addressLimits: addressLimitsOf(e),
        },
        input.code,
      );
      return { closed: true as const };
    },
  }),
} as const;
