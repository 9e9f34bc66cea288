import { z } from 'zod';

/**
 * A buyer's own profile (issue 36; docs/profile.md) as it travels in the API's JSON: the profile, the logins, what
 * closing the account would leave behind. No server-only imports: the browser reads these types too.
 */

/** profile/update: what the buyer shows of themselves. */
export const profileViewSchema = z.object({
  nickname: z.string().nullable(),
  /** A path of a picture (one of the shipped avatars), or null for the store's default. */
  avatar: z.string().nullable(),
});
export type ProfileView = z.infer<typeof profileViewSchema>;

/** One login of the buyer on this channel (profile/logins). */
export const loginViewSchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The device in words, from the user agent (`iPhone, iOS 17.4`); empty when it tells nothing. */
  device: z.string(),
  /** The address, masked (`203.0.*.*`, `2408:8207:*`); empty when unknown. */
  address: z.string(),
  /** The session this call was made with. */
  current: z.boolean(),
  /** Still signed in (not signed out, not expired). */
  live: z.boolean(),
});
export type LoginView = z.infer<typeof loginViewSchema>;

/** profile/signOutOthers: how many other sessions were ended. */
export const signedOutSchema = z.object({ ended: z.number().int() });

/** profile/closing: what closing would leave behind, and what keeps it from closing now. */
export const closingViewSchema = z.object({
  /** Collectibles still held, on every channel of the account: forfeited at closing unless given away first. */
  held: z.array(z.object({ channel: z.string(), name: z.string(), number: z.number().int(), here: z.boolean() })),
  /** Orders waiting for payment, refunds owed, gifts sent and waiting for an answer (these are honoured when accepted). */
  blockers: z.object({ toPay: z.number().int(), refundsOwed: z.number().int() }),
  pendingGiftsSent: z.number().int(),
  canClose: z.boolean(),
});
export type ClosingView = z.infer<typeof closingViewSchema>;

/** profile/close: the account is closed. */
export const closedSchema = z.object({ closed: z.literal(true) });
