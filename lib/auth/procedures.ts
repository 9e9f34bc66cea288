import 'server-only';
import { z } from 'zod';
import { channelScope, procedure } from '../procedure/procedure';
import { AppError } from '../procedure/errors';
import { env } from '../env';
import { answerChallenge, consumeTicket, createChallenge, trackPointSchema } from './captcha';
import { POW_MAX_NUMBER } from './proof-of-work';
import { sendCode } from './sms-codes';
import { loginWithCode } from './service';
import { revokeToken } from './sessions';
import { refuseBlockedKnocker } from './blocks';
import { bindBrand, userProfile } from './users';
import { smsProvider } from './sms';
import { deviceCookie, deviceIdFrom } from '../security/device';
import { hitAll } from '../rate-limit/rate-limit';
import { addressLimits } from '../rate-limit/address';
import { normalizePhone, phoneProblem, PHONE_PROBLEM_MESSAGES } from './phone';
import { addressLimitsOf, AUTH_LIMITS, SLIDER } from './limits';
import {
  brandBindingSchema,
  captchaTicketSchema,
  challengeSchema,
  loginResultSchema,
  logoutResultSchema,
  sendCodeResultSchema,
  userProfileSchema,
} from './schema';
import { msg } from '../procedure/messages';
import { apiLocale } from '../i18n/locale';
import { channelAgreementVersions } from '../channel/agreement-facts';

/** spec §5: a mainland-China mobile number; the message says why not. */
const phoneSchema = z
  .string({ error: 'is required and must be a string of digits' })
  .max(32, 'must be 11 digits')
  .transform(normalizePhone)
  .superRefine((phone, ctx) => {
    const problem = phoneProblem(phone);
    if (problem) ctx.addIssue({ code: 'custom', message: PHONE_PROBLEM_MESSAGES[problem] });
  });

const codeSchema = z
  .string({ error: 'is required and must be a string of digits' })
  .trim()
  .regex(new RegExp(`^\\d{${AUTH_LIMITS.codeDigits}}$`), `must be the ${AUTH_LIMITS.codeDigits}-digit code from the text message`);

const challengeIdSchema = z.string({ error: 'is required' }).min(1, 'is required').max(64, 'is not a captcha challenge id');

/** The solution of the challenge's proof of work (lib/auth/proof-of-work.ts), required with either kind of answer. */
const powSchema = z
  .number({
    error: (issue) =>
      issue.input === undefined
        ? "is required: the number that solves the challenge's proof of work"
        : "must be a number: the one that solves the challenge's proof of work",
  })
  .int('must be a whole number')
  .min(0, `must be from 0 to ${POW_MAX_NUMBER}`)
  .max(POW_MAX_NUMBER, `must be from 0 to ${POW_MAX_NUMBER}`);

/** The `behaviorVerify` header (spec §7): the ticket of a solved captcha, spent by the call it protects. */
const BEHAVIOR_VERIFY = 'behaviorverify';

/**
 * Accounts (issue on accounts; spec §4, §7): captcha, SMS codes, login, logout and the user's profile and brand.
 * Payloads are documented in docs/api.md.
 */
export const authProcedures = {
  '/auth/api/captcha/challenge': procedure({
    summary:
      'A new captcha: a slider picture with holes on one row (default), or a question in words for those who cannot drag; either with a proof of work to solve.',
    auth: 'none',
    input: z.object({ kind: z.enum(['slider', 'text'], { error: "must be 'slider' or 'text'" }).default('slider') }),
    output: challengeSchema,
    handler: async (ctx, input) => {
      // Each challenge draws a picture and writes a row: a per-address allowance (a few pictures per code the address
      // may ask for), and one per network (issue 29: the addresses of one /64 are one machine), keep that from being a
      // cheap flood.
      const a = addressLimitsOf(env());
      const perCode = AUTH_LIMITS.challengesPerCode;
      const allowed = await hitAll(
        ctx.db,
        addressLimits(
          'captcha:minute',
          ctx.ip,
          60_000,
          { perAddress: perCode * a.perMinute, perNetwork: perCode * a.networkPerMinute },
          a.ipv4NetworkPrefix,
        ),
        ctx.now,
      );
      if (allowed.refused) {
        throw new AppError(429, msg('captchaFlood', { waitMs: allowed.refused.resetAt.getTime() - ctx.now.getTime() }));
      }
      return createChallenge({ ...(await channelScope(ctx)), secret: env().AUTH_SECRET }, input.kind);
    },
  }),
  '/auth/api/captcha/verify': procedure({
    summary:
      "Answers a captcha once: the drop position and the drag track, or the answer to the question, with the solution of the challenge's proof of work. Right → a single-use ticket.",
    auth: 'none',
    // {id, pow} first and on their own, so a missing or malformed pow is named as such whatever the rest looks like.
    input: z.object({ id: challengeIdSchema, pow: powSchema }).and(
      z.union(
        [
          z.object({
            x: z.number({ error: 'must be a number' }).finite().min(0).max(SLIDER.width),
            track: z.array(trackPointSchema, { error: 'must be a list of {x, y, t} points' }).max(2000, 'has too many points'),
          }),
          z.object({ answer: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0).max(1000) }),
        ],
        { error: 'must be {id, pow, x, track} for a slider or {id, pow, answer} for a question' },
      ),
    ),
    output: captchaTicketSchema,
    handler: async (ctx, input) => answerChallenge({ ...(await channelScope(ctx)), secret: env().AUTH_SECRET }, input),
  }),
  '/auth/api/auth/getAuthCode': procedure({
    summary: 'Sends a login code by SMS. Needs a captcha ticket in the behaviorVerify header. Same answer for every valid phone.',
    auth: 'none',
    input: z.object({ phone: phoneSchema }),
    output: sendCodeResultSchema,
    handler: async (ctx, input) => {
      const channel = await ctx.channel();
      const channelId = channel.id;
      const e = env();
      // The ticket is spent before any limit is checked, so a refused call still costs a new captcha.
      if (!(await consumeTicket({ db: ctx.db, now: ctx.now, channelId }, ctx.headers.get(BEHAVIOR_VERIFY)))) {
        throw new AppError(400, msg('captchaTicket'));
      }
      // A blocked phone, or an address in a blocked range, gets no code (issue 33): no SMS is spent on a login refused.
      await refuseBlockedKnocker(ctx.db, channelId, { phone: input.phone, ip: ctx.ip });
      // Per-device limits count on a cookie of ours; a caller without one gets one (and is counted by IP meanwhile).
      let deviceId = deviceIdFrom(ctx.headers.get('cookie'));
      if (!deviceId) {
        const fresh = deviceCookie(ctx.headers.get('x-forwarded-proto') === 'https');
        ctx.setHeader('set-cookie', fresh.header);
        deviceId = fresh.id;
      }
      return sendCode(
        {
          db: ctx.db,
          now: ctx.now,
          channelId,
          ip: ctx.ip,
          deviceId,
          secret: e.AUTH_SECRET,
          sms: smsProvider(e.SMS_PROVIDER, e),
          smsSender: { signName: channel.smsSignName, templateId: channel.smsTemplateId },
          addressLimits: addressLimitsOf(e),
        },
        input.phone,
      );
    },
  }),
  '/auth/api/auth/authCodeLoginV2': procedure({
    summary: 'Logs in (signing up on the first login) with the phone and its code. The token comes back in the authorization header.',
    auth: 'none',
    input: z.object({ phone: phoneSchema, code: codeSchema }),
    output: loginResultSchema,
    handler: async (ctx, input) => {
      const channel = await ctx.channel();
      const channelId = channel.id;
      const e = env();
      const session = await loginWithCode(
        {
          db: ctx.db,
          now: ctx.now,
          channelId,
          ip: ctx.ip,
          secret: e.AUTH_SECRET,
          // The device getAuthCode gave its cookie to: remembered as having logged in here (issue 29).
          deviceId: deviceIdFrom(ctx.headers.get('cookie')),
          userAgent: ctx.headers.get('user-agent'),
          addressLimits: addressLimitsOf(e),
          // Logging in accepts both agreements (spec §2, the login form's checkbox): the versions of the texts as this
          // caller reads them, in the language it reads the store in (issue 33).
          agreementVersions: channelAgreementVersions(channel, apiLocale(ctx.headers.get('accept-language'), channel.locale)),
        },
        input,
      );
      ctx.setHeader('authorization', session.token);
      return { phone: session.phone, userUuid: session.userUuid, newUser: session.newUser, expiresAt: session.expiresAt.toISOString() };
    },
  }),
  '/auth/api/auth/logout': procedure({
    summary: 'Revokes the token of the request (Authorization header or web session). Harmless when already logged out.',
    auth: 'optional',
    input: z.object({}),
    output: logoutResultSchema,
    handler: async (ctx) => {
      const token = await ctx.token();
      return { revoked: token ? await revokeToken(ctx.db, { token, now: ctx.now }) : false };
    },
  }),
  '/market/api/userAttribute/queryByUserUuid': procedure({
    summary: "The logged-in user's profile on this channel: userUuid, masked phone, nickname, avatar, createTime, brandBound.",
    auth: 'buyer',
    input: z.object({}),
    output: userProfileSchema,
    handler: async (ctx) => userProfile(ctx.db, await ctx.user(), (await ctx.channel()).id),
  }),
  '/user/api/thirdAccount/brandChannel': procedure({
    summary: "Binds the logged-in user to the channel's brand (first visit after login); repeating it is harmless.",
    auth: 'buyer',
    input: z.object({
      brandName: z.string({ error: 'is required and must be a string' }).trim().min(1, 'must not be empty').max(128, 'is too long'),
    }),
    output: brandBindingSchema,
    handler: async (ctx, input) => {
      const user = await ctx.user();
      const channel = await ctx.channel();
      if (input.brandName !== channel.brandName) throw new AppError(400, msg('brandMismatch', { brand: channel.brandName }));
      return bindBrand(ctx.db, { userId: user.id, channelId: channel.id, brandName: channel.brandName, now: ctx.now });
    },
  }),
} as const;
