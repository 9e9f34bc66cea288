/**
 * Names of the web session cookie (next-auth JWT strategy, DESIGN §5): plain on HTTP, __Secure- on HTTPS.
 * lib/auth/session-claims.ts reads it (proxy, pages, API); the database has the last word (revocation).
 */
export const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'] as const;
