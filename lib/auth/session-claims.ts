import { decode } from 'next-auth/jwt';
import { LRUCache } from 'lru-cache';
import { SESSION_COOKIES } from './session-cookie';
import { cookieValue, decodeCookieValue } from '../security/cookies';

/**
 * The web session (DESIGN §5): next-auth's JWT strategy keeps these claims in an encrypted, HttpOnly cookie.
 * Decoded without the database (next-auth's jose), so the proxy (login guard), the pages (lib/page/session.ts) and
 * the API read the same thing; pages and the API then check the token in the database (revocation).
 */
export type WebSessionClaims = {
  /** userUuid */
  sub: string;
  /** The API token of the login; checked against the database (expiry, revocation) by the API and pages. */
  apiToken: string;
  /** The channel key the session belongs to: a session is only good on its own channel's host. */
  channel: string;
  /** Masked phone, for display. */
  phone: string;
  exp?: number;
};

type CookieReader = { get(name: string): { value: string } | undefined };

/** The raw session cookie value, from a cookie store or a Cookie header. */
export function sessionCookieValue(cookies: CookieReader | string | null | undefined): string | null {
  if (!cookies) return null;
  if (typeof cookies === 'string') {
    for (const name of SESSION_COOKIES) {
      const value = cookieValue(cookies, name);
      // A value that does not decode goes on as sent: it fails to decrypt, like any forged cookie.
      if (value) return decodeCookieValue(value) ?? value;
    }
    return null;
  }
  for (const name of SESSION_COOKIES) {
    const value = cookies.get(name)?.value;
    if (value) return value;
  }
  return null;
}

/**
 * Cookies decrypted lately, by their value, with the secret they were decrypted under (issue 34): every page load and
 * navigation of a signed-in buyer reads the cookie, and each decryption derives its key again (HKDF) before decrypting,
 * about 0.1 ms (1.6% of the server's time through bench:drop's journey). What a cookie decrypts to never changes; the
 * expiry is checked at every read below. A value that fails to decrypt is kept too (null), so a stream of forged cookies
 * costs one decryption each per minute at most. Bounded; a value is decrypted again after DECODED_FOR_MS.
 */
const DECODED_FOR_MS = 60_000;
const decodedCookies = new LRUCache<string, { secret: string; claims: Record<string, unknown> | null }>({
  max: 20_000,
  ttl: DECODED_FOR_MS,
});

async function decodeCookie(cookieValue: string, secret: string): Promise<Record<string, unknown> | null> {
  const known = decodedCookies.get(cookieValue);
  if (known && known.secret === secret) return known.claims;
  let claims: Record<string, unknown> | null;
  try {
    claims = (await decode({ token: cookieValue, secret })) as Record<string, unknown> | null;
  } catch {
    claims = null;
  }
  decodedCookies.set(cookieValue, { secret, claims });
  return claims;
}

/** Decrypts and checks a session cookie (signature, expiry, shape, channel); null when it is not a live session of `channel`. */
export async function readWebSession(
  cookieValue: string | null,
  secret: string,
  channel: string,
  nowMs = Date.now(),
): Promise<WebSessionClaims | null> {
  if (!cookieValue || cookieValue.length > 8192) return null;
  const claims = await decodeCookie(cookieValue, secret);
  if (!claims) return null;
  const { sub, apiToken, phone, exp } = claims;
  if (typeof sub !== 'string' || typeof apiToken !== 'string' || typeof phone !== 'string' || claims.channel !== channel) return null;
  if (typeof exp === 'number' && exp * 1000 <= nowMs) return null;
  return { sub, apiToken, channel, phone, exp: typeof exp === 'number' ? exp : undefined };
}

/** The token an API client sends: `Authorization: <token>` (spec §7) or `Authorization: Bearer <token>`. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const value = header.trim().replace(/^Bearer\s+/i, '');
  return value.length > 0 && value.length <= 256 ? value : null;
}
