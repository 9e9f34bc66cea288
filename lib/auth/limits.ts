import { SMS_IP_LIMIT_DEFAULTS, type Env } from '../env';

/**
 * Constants of login and its abuse limits (DESIGN §10; the issue on accounts). One place, documented in docs/api.md.
 */
export const AUTH_LIMITS = {
  /** SMS code: digits, lifetime, wrong tries before it burns. */
  codeDigits: 6,
  codeTtlMs: 5 * 60_000,
  codeMaxWrongTries: 5,
  /**
   * Per phone: one code per 60 s; from the fourth code in 24 h on, the wait doubles (2, 4, 8, 16 min), up to 30 min.
   * A phone is never locked for the day: someone flooding a victim's number only slows its codes down, and every code
   * they trigger reaches the victim's own phone (security review, finding 4).
   */
  phoneCooldownMs: 60_000,
  phoneBackoffAfter: 3,
  phoneMaxWaitMs: 30 * 60_000,
  /** Per client IP, checked first: codes per minute (a burst) and per hour (one office, or one phone farm). */
  ipPerMinute: SMS_IP_LIMIT_DEFAULTS.perMinute,
  ipPerHour: SMS_IP_LIMIT_DEFAULTS.perHour,
  /** Per device (the storefront_device cookie), checked with the IP: codes per hour. */
  devicePerHour: 5,
  /**
   * Per channel: codes per hour to numbers and devices new to the channel (caps what one storefront can cost in SMS);
   * the operator is alerted at 80% and when it is spent. Issue 29: spending it no longer shuts the store's login: a
   * buyer whose device or phone has logged in on the channel before still gets codes, out of an allowance of its own of
   * the same size, so the SMS bill is never more than twice the budget.
   */
  channelPerHour: 2000,
  channelAlertShare: 0.8,
  knownBuyersPerHour: 2000,
  /** Captcha challenges per client IP per minute, as a multiple of the codes it may ask for per minute (30 by default). */
  challengesPerCode: 6,
  /**
   * Wrong login codes per client IP per hour, across phones (one machine cannot burn everyone's codes). A network (see
   * AddressLimits) may make as many wrong tries as it may ask for codes per hour, and never fewer than this.
   */
  wrongCodesPerIpPerHour: 30,
  /** Session (API token and web cookie) lifetime. */
  sessionTtlMs: 7 * 24 * 60 * 60_000,
  /** Captcha: how long a challenge can be answered, and how long its ticket stays usable. */
  challengeTtlMs: 2 * 60_000,
  ticketTtlMs: 2 * 60_000,
} as const;

/**
 * What one client may ask for (security review, finding 4; issue 29): codes per minute and per hour per address and per
 * network (an IPv6 /64; IPv4 addresses grouped by `ipv4NetworkPrefix`, 32 = each on its own). lib/rate-limit/address.ts
 * says why a network is one client; docs/security.md has the figures.
 */
export type AddressLimits = {
  perMinute: number;
  perHour: number;
  networkPerMinute: number;
  networkPerHour: number;
  ipv4NetworkPrefix: number;
};

/** The deployment's figures: SMS_CODES_PER_IP_*, SMS_CODES_PER_NETWORK_* (the per-IP ones when unset), SMS_IPV4_NETWORK_PREFIX. */
export function addressLimitsOf(
  e: Pick<
    Env,
    | 'SMS_CODES_PER_IP_MINUTE'
    | 'SMS_CODES_PER_IP_HOUR'
    | 'SMS_CODES_PER_NETWORK_MINUTE'
    | 'SMS_CODES_PER_NETWORK_HOUR'
    | 'SMS_IPV4_NETWORK_PREFIX'
  >,
): AddressLimits {
  return {
    perMinute: e.SMS_CODES_PER_IP_MINUTE,
    perHour: e.SMS_CODES_PER_IP_HOUR,
    networkPerMinute: e.SMS_CODES_PER_NETWORK_MINUTE ?? e.SMS_CODES_PER_IP_MINUTE,
    networkPerHour: e.SMS_CODES_PER_NETWORK_HOUR ?? e.SMS_CODES_PER_IP_HOUR,
    ipv4NetworkPrefix: e.SMS_IPV4_NETWORK_PREFIX,
  };
}

/** The defaults, for callers that do not read the environment (tests, scripts). */
export const DEFAULT_ADDRESS_LIMITS: AddressLimits = {
  perMinute: SMS_IP_LIMIT_DEFAULTS.perMinute,
  perHour: SMS_IP_LIMIT_DEFAULTS.perHour,
  networkPerMinute: SMS_IP_LIMIT_DEFAULTS.perMinute,
  networkPerHour: SMS_IP_LIMIT_DEFAULTS.perHour,
  ipv4NetworkPrefix: 32,
};

/** Slider geometry, in the challenge image's own pixels (the client scales). */
export const SLIDER = {
  width: 300,
  height: 160,
  pieceSize: 48,
  /**
   * Holes on the piece's row: the gap and decoys in other shapes (security finding 3), so a program that finds holes but
   * not their shapes is right 1 time in 3. Three 48 px holes leave room to place them at random; four would stand in a
   * nearly fixed line and crowd the row on a phone.
   */
  holes: 3,
  /** No hole starts left of this x, so dropping the piece where it starts (or barely dragging it) never succeeds. */
  minHoleX: 60,
  /** How far (px) the dropped piece may be from the gap. */
  tolerance: 5,
  /** A drag shorter than this is not a human's (ms). */
  minDragMs: 250,
  /** Nor one that hangs on longer than this. */
  maxDragMs: 60_000,
  /** At least this many recorded points along the drag. */
  minTrackPoints: 5,
} as const;
