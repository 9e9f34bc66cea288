import { SMS_IP_LIMIT_DEFAULTS } from '../env';

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
  /** Per channel: codes per hour (caps what one storefront can cost in SMS); the operator is alerted at 80%. */
  channelPerHour: 2000,
  channelAlertShare: 0.8,
  /** Captcha challenges per client IP per minute, as a multiple of the codes it may ask for per minute (30 by default). */
  challengesPerCode: 6,
  /** Wrong login codes per client IP per hour, across phones (one machine cannot burn everyone's codes). */
  wrongCodesPerIpPerHour: 30,
  /** Session (API token and web cookie) lifetime. */
  sessionTtlMs: 7 * 24 * 60 * 60_000,
  /** Captcha: how long a challenge can be answered, and how long its ticket stays usable. */
  challengeTtlMs: 2 * 60_000,
  ticketTtlMs: 2 * 60_000,
} as const;

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
