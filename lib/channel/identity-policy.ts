import type { IdentityPolicyJson } from '../db/schema';

/**
 * A channel's real-name and age rules (issue 33, "Per-channel policy"), read from `channels.identity_policy`. The one
 * reader of that JSON: the buy, receive, exchange and chain-up services, the goods and pay pages and the console's
 * Settings tab all ask `identityRequirement` what an action needs. Pure, so the pages and tests share it.
 */

/** The actions a channel may guard: buying, receiving (a gift or a free claim), an exchange, chain-up. */
export const IDENTITY_ACTIONS = ['buy', 'receive', 'exchange', 'chainUp'] as const;
export type IdentityAction = (typeof IDENTITY_ACTIONS)[number];

/** The minimum ages an operator may set for the channel (issue 33: none, 14, 16, 18). */
export const CHANNEL_MIN_AGES = [14, 16, 18] as const;
export type ChannelMinAge = (typeof CHANNEL_MIN_AGES)[number];
/**
 * Blind boxes' minimum age: 18 or none. The market regulator's blind-box guideline (2023-06) allows 8+ with a guardian's
 * consent; with no consent flow built, an age below 18 is refused (issue 33).
 */
export const BLIND_BOX_MIN_AGES = [18] as const;
export type BlindBoxMinAge = (typeof BLIND_BOX_MIN_AGES)[number];

export type IdentityPolicy = {
  realName: Record<IdentityAction, boolean>;
  minAge: ChannelMinAge | null;
  blindBoxMinAge: BlindBoxMinAge | null;
};

/** What one action asks of the buyer: a verified identity, and an age on the channel's today (null: none). */
export type IdentityRequirement = { realName: boolean; minAge: number | null };

/** The policy a channel made before issue 33 has (`{}`): nothing asked. */
export const NO_IDENTITY_POLICY: IdentityPolicy = {
  realName: { buy: false, receive: false, exchange: false, chainUp: false },
  minAge: null,
  blindBoxMinAge: null,
};

/**
 * The policy a channel made in the console starts with (issue 33: blind boxes default to 18). Channels made before
 * issue 33 keep `{}` until their operator sets it (docs/decisions.md, "Real-name and age rules").
 */
export const NEW_CHANNEL_IDENTITY_POLICY: IdentityPolicyJson = { blindBoxMinAge: 18 };

function isOneOf<T extends number>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'number' && (list as readonly number[]).includes(value);
}

/** Leniently: a value it does not know reads as "not asked", never as a crash on every page of the channel. */
export function parseIdentityPolicy(json: unknown): IdentityPolicy {
  const raw = (typeof json === 'object' && json !== null ? json : {}) as IdentityPolicyJson;
  const realName = (typeof raw.realName === 'object' && raw.realName !== null ? raw.realName : {}) as Record<string, unknown>;
  return {
    realName: {
      buy: realName.buy === true,
      receive: realName.receive === true,
      exchange: realName.exchange === true,
      chainUp: realName.chainUp === true,
    },
    minAge: isOneOf(CHANNEL_MIN_AGES, raw.minAge) ? raw.minAge : null,
    blindBoxMinAge: isOneOf(BLIND_BOX_MIN_AGES, raw.blindBoxMinAge) ? raw.blindBoxMinAge : null,
  };
}

/**
 * What `action` asks on this channel. A minimum age turns real-name on for what it guards (issue 33): the channel's age
 * guards every action, the blind-box age guards taking a blind box (buying one, or receiving one).
 */
export function identityRequirement(
  policy: IdentityPolicy,
  action: IdentityAction,
  what: { blindBox?: boolean } = {},
): IdentityRequirement {
  const ages: number[] = [];
  if (policy.minAge !== null) ages.push(policy.minAge);
  if (what.blindBox && policy.blindBoxMinAge !== null) ages.push(policy.blindBoxMinAge);
  const minAge = ages.length > 0 ? Math.max(...ages) : null;
  return { realName: policy.realName[action] || minAge !== null, minAge };
}

/**
 * Whole years between a birth date and a day (both YYYY-MM-DD): the age on that day, a birthday counting from its
 * own day. Someone born on 29 February comes of age on 1 March in a year without one.
 */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  let age = y - by;
  if (m < bm || (m === bm && d < bd)) age -= 1;
  return age;
}

/** Today in the channel's time zone, YYYY-MM-DD (an age turns over at the channel's midnight). */
export function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
