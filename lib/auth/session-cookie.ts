/**
 * Names of the web session cookie (next-auth JWT strategy, DESIGN §5): plain on HTTP, __Secure- on HTTPS.
 * The middleware only checks presence (spec §2: "redirect to /login when there is no token");
 * the services verify the session on every object they touch.
 */
export const SESSION_COOKIES = ['next-auth.session-token', '__Secure-next-auth.session-token'] as const;

export function hasSessionCookie(cookies: { has(name: string): boolean }): boolean {
  return SESSION_COOKIES.some((name) => cookies.has(name));
}
