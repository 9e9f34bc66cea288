import { z } from 'zod';

/**
 * Accounts as they travel in the API's JSON (docs/api.md): captcha, SMS code, login, profile. No server-only imports:
 * the browser reads these types too.
 */

/** The proof of work bound to a captcha challenge (lib/auth/proof-of-work.ts). */
export const powChallengeSchema = z.object({
  algorithm: z.literal('SHA-256'),
  /** Hashed in front of the number's decimal digits. */
  salt: z.string(),
  /** SHA-256(salt + n), lower-case hex. */
  challenge: z.string(),
  maxNumber: z.number().int(),
});
export type PowChallenge = z.infer<typeof powChallengeSchema>;

export const sliderChallengeSchema = z.object({
  kind: z.literal('slider'),
  id: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  pieceSize: z.number().int(),
  /** The piece's row: the buyer only moves it sideways. */
  y: z.number(),
  /** data: URLs of the PNGs (the gap's position is only in the pixels). */
  background: z.string(),
  piece: z.string(),
  pow: powChallengeSchema,
  expiresAt: z.string(),
});
export type SliderChallenge = z.infer<typeof sliderChallengeSchema>;

export const textChallengeSchema = z.object({
  kind: z.literal('text'),
  id: z.string(),
  /** "What is a plus b?": the client words it in the page's language. */
  question: z.object({ a: z.number().int(), b: z.number().int() }),
  pow: powChallengeSchema,
  expiresAt: z.string(),
});
export type TextChallenge = z.infer<typeof textChallengeSchema>;

/** captcha/challenge: a slider picture or a question in words. */
export const challengeSchema = z.discriminatedUnion('kind', [sliderChallengeSchema, textChallengeSchema]);
export type Challenge = z.infer<typeof challengeSchema>;

/** captcha/verify: a single-use ticket for the `behaviorVerify` header. */
export const captchaTicketSchema = z.object({ ticket: z.string(), expiresAt: z.string() });

/** auth/getAuthCode: the same answer for a phone with an account and one without. */
export const sendCodeResultSchema = z.object({
  cooldownSeconds: z.number().int(),
  expiresInSeconds: z.number().int(),
  /** Demo outbox only (SMS_PROVIDER=outbox): the code, to this caller alone, since no text message is sent. */
  demoCode: z.string().optional(),
});
export type SendCodeResult = z.infer<typeof sendCodeResultSchema>;

/** auth/authCodeLoginV2's `data` (the token travels in the `authorization` response header). */
export const loginResultSchema = z.object({
  phone: z.string().describe('masked, 138****8000'),
  userUuid: z.string(),
  newUser: z.boolean(),
  expiresAt: z.string(),
});

/** auth/logout: whether a token was revoked. */
export const logoutResultSchema = z.object({ revoked: z.boolean() });

/**
 * userAttribute/queryByUserUuid (spec §7): the profile the storefront shows. The full phone never leaves the server;
 * the avatar is null unless the user set one (the page falls back to the channel's userFaceImg, spec §3).
 */
export const userProfileSchema = z.object({
  userUuid: z.string(),
  phone: z.string().describe('masked, 138****8000'),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  createTime: z.string(),
  /** Whether thirdAccount/brandChannel bound this user to the channel's brand. */
  brandBound: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** thirdAccount/brandChannel. */
export const brandBindingSchema = z.object({ brandName: z.string(), bound: z.literal(true) });
