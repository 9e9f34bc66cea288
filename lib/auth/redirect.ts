/**
 * Where the login page sends the buyer back to (the `redirect` query the guards add, spec §2). Only a path on this
 * same site is accepted (no `//host`, no scheme, no backslash tricks), and never the login page itself.
 *
 * The value is normalised the way a browser would (dot segments, tabs and newlines dropped, `%2e` read as a dot) and
 * it is the normalised value that is checked and returned: `/.//evil.example` normalises to `//evil.example`, which a
 * browser reads as another host. Pure, safe on the client too.
 */
export const AFTER_LOGIN_DEFAULT = '/mine';

const MAX_LENGTH = 1024;
const BASE = 'http://storefront.invalid';

/**
 * A path a browser resolves on the current origin whatever page it is on: one `/` then anything but `/` or `\`, no
 * backslash (browsers read it as `/`), no control character, space or other character a URL would have escaped.
 */
export function isSameSitePath(path: string): boolean {
  if (path.length === 0 || path.length > MAX_LENGTH) return false;
  if (path[0] !== '/' || path[1] === '/' || path.includes('\\')) return false;
  // C0 controls, space, DEL, C1 controls and everything above ASCII: a serialised URL has them percent-encoded.
  if (/[^\u0021-\u007e]/.test(path)) return false;
  let resolved: URL;
  try {
    resolved = new URL(path, `${BASE}/login`);
  } catch {
    return false;
  }
  return resolved.origin === BASE && `${resolved.pathname}${resolved.search}${resolved.hash}` === path;
}

function isLoginPath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  return /^\/+login(?:[/.;]|$)/i.test(decoded);
}

export function safeRedirect(value: string | string[] | null | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return AFTER_LOGIN_DEFAULT;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || /[\u0000-\u001f\u007f]/.test(raw)) return AFTER_LOGIN_DEFAULT;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return AFTER_LOGIN_DEFAULT;
  }
  if (url.origin !== BASE) return AFTER_LOGIN_DEFAULT;
  // Check what is returned, not what came in: normalising can turn a harmless-looking path into `//host`.
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!isSameSitePath(path) || isLoginPath(url.pathname)) return AFTER_LOGIN_DEFAULT;
  return path;
}

/** The login page's address that brings the buyer back to `pathAndSearch` (a path of this site, with its query). */
export function loginHref(pathAndSearch: string): string {
  return `/login?redirect=${encodeURIComponent(pathAndSearch)}`;
}

/**
 * A page's query as its `searchParams` hand it over, written back as `?a=1&b=2` ('' when there is none), so a link can
 * bring the buyer back to the page as they found it (issue 30: the chain-up login link dropped the query).
 */
export function searchOf(search: Record<string, string | string[] | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, one);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}
