/**
 * Why the API refused a call, as the answer's `data.reason` (docs/api.md, "Refusal reasons"; issue 30): the stable
 * values a client branches on, never the words. Services throw with `{ reason: REASON.soldOut }`, the answer schemas
 * that carry a reason take theirs from here, the generated docs say what each means (lib/server/api-docs.ts), and the
 * store's components compare against the same values, so a value changed or misspelt anywhere fails the type check.
 * No imports and no words: components load this in the browser.
 */
export const REASONS = [
  'notOpen',
  'ended',
  'soldOut',
  'notEnough',
  'limit',
  'keyReused',
  'received',
  'notEligible',
  'missingInputs',
  'badCode',
  'alreadyChainedUp',
  'wrongType',
  'paid',
  'cancelled',
  'provider',
  'openid',
  'starting',
  'attempts',
  'flood',
  'changed',
  'identityRequired',
  'ageRestricted',
  'captchaRequired',
  'identityInUse',
  'identityMismatch',
  'alreadyVerified',
  'orderingPaused',
  'notAdmitted',
] as const;

export type Reason = (typeof REASONS)[number];

/** Each reason by name: `REASON.soldOut` is `'soldOut'`. */
export const REASON = Object.fromEntries(REASONS.map((reason) => [reason, reason])) as { readonly [R in Reason]: R };

/** The envelope's `data` on a refusal: its reason when a client may branch on it, the field it is about, and detail. */
export type RefusalData = { reason?: Reason; field?: string; [detail: string]: unknown };
