/**
 * Cross-site request forgery defence of the cookie-authenticated API (security review, finding 9).
 *
 * Channel hosts are sibling subdomains of one site, so SameSite=Lax does not keep aurora.example from posting to
 * gift.example with the buyer's cookie. A call that authenticates with the web session cookie (no Authorization
 * header) must therefore be JSON (a cross-origin JSON POST needs a CORS preflight, which we never grant) and come from
 * this very origin by the browser's own word: `Sec-Fetch-Site` when the browser sends it, else `Origin`. A call with
 * neither header is not from a browser page (curl, an app), and cannot ride on someone else's cookie.
 * Calls with an `Authorization` header carry their credential explicitly and are not affected.
 */
export function cookieCallProblem(headers: Headers, host: string): { code: 400 | 403; message: string } | null {
  return browserCallProblem(headers, host, {
    type: 'for a call with the session cookie',
    site: (site) => `a ${site} request cannot use this store's session; call from the store's own pages`,
    origin: "a request from another site cannot use this store's session",
  });
}

/**
 * The same checks for the operator console's guest calls (sign-in, enrolment, passkey sign-in; issue 31, login CSRF):
 * they read no cookie but set one, so a cross-site form post (a store page is same-site with the operator host in
 * production) must not sign the browser in to an account of the attacker's choosing. JSON and same-origin, as above.
 */
export function guestCallProblem(headers: Headers, host: string): { code: 400 | 403; message: string } | null {
  return browserCallProblem(headers, host, {
    type: 'for a console sign-in call',
    site: (site) => `a ${site} request cannot sign in to the console; sign in from the console's own page`,
    origin: "a request from another site cannot sign in to the console; sign in from the console's own page",
  });
}

function browserCallProblem(
  headers: Headers,
  host: string,
  words: { type: string; site: (site: string) => string; origin: string },
): { code: 400 | 403; message: string } | null {
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    return { code: 400, message: `content-type: must be application/json ${words.type}` };
  }
  const site = headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') {
    return { code: 403, message: `origin: ${words.site(site)}` };
  }
  const origin = headers.get('origin');
  if (origin !== null && !sameHost(origin, host)) {
    return { code: 403, message: `origin: ${words.origin}` };
  }
  return null;
}

function sameHost(origin: string, host: string): boolean {
  if (origin === 'null' || !host) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.trim().toLowerCase();
  } catch {
    return false;
  }
}
