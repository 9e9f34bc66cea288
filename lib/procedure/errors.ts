import type { Locale } from '../i18n/locale';
import { fieldOf, renderMessage, DEFAULT_TIME_ZONE, type ApiMessage } from './messages';
import type { RefusalData } from './reasons';

/**
 * The one error model (DESIGN §3, §5): services throw AppError; the dispatcher turns it into the envelope.
 * Every code the API can return is listed here and in docs/api.md.
 */
export const API_CODES = {
  OK: 200,
  /** Invalid input; the message names the field and why. */
  BAD_REQUEST: 400,
  /** Not logged in, or the token is invalid/revoked. */
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** Sold out, already received, limit reached... */
  CONFLICT: 409,
  TOO_MANY: 429,
  SERVER_ERROR: 500,
  /**
   * A service the store relies on (its SMS carrier) refused the call or did not answer; the message says what the buyer
   * can do, the server log what the operator must fix. HTTP 200, so the client shows the message (not the busy toast).
   */
  UNAVAILABLE: 503,
  /** Busy: the client shows the spec §8 busy toast. */
  BUSY: 1001,
  /** The channel asks a verified real name before this action (issue 33); `data.action` names it. */
  IDENTITY_REQUIRED: 1010,
  /** The buyer is under the channel's minimum age for this action (issue 33); `data.minAge` is the rule, never their age. */
  AGE_RESTRICTED: 1011,
  /** A higher-risk buy must pass the captcha first (issue 33): `data.reason` 'captchaRequired'; sent again with `captchaTicket`. */
  CAPTCHA_REQUIRED: 1013,
} as const;

export type ApiCode = (typeof API_CODES)[keyof typeof API_CODES];

export class AppError extends Error {
  /** The refusal in the catalogue's words (./messages.ts), rendered in the caller's locale; null for a plain text. */
  readonly text: ApiMessage | null;
  /**
   * Machine-readable detail for the client, sent as the envelope's `data`: the reason a client branches on
   * (`{reason: REASON.soldOut}`, ./reasons.ts) and the field the refusal is about (`field`, from the message's key).
   */
  readonly data: RefusalData | null;

  constructor(
    readonly code: Exclude<ApiCode, 200>,
    /** A catalogue message (`msg(...)`), or a plain English text for what only a misbehaving client can cause. */
    message: ApiMessage | string,
    data: RefusalData | null = null,
  ) {
    super(typeof message === 'string' ? message : renderMessage(message, 'en'));
    this.name = 'AppError';
    this.text = typeof message === 'string' ? null : message;
    const field = typeof message === 'string' ? null : fieldOf(message);
    this.data = field ? { field, ...data } : data;
  }

  /** The message as the caller reads it (docs/api.md, "Languages"), its moments in the channel's time zone. */
  messageIn(locale: Locale, timeZone: string = DEFAULT_TIME_ZONE): string {
    return this.text ? renderMessage(this.text, locale, timeZone) : this.message;
  }
}

export type Envelope<T> = { code: ApiCode; message: string; data: T | null };
