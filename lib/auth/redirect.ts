/**
 * Where the login page sends the buyer back to (the `redirect` query the guards add, spec §2). Only a path on this
 * same site is accepted (no `//host`, no scheme, no backslash tricks), and never the login page itself.
 */
export const AFTER_LOGIN_DEFAULT = '/mine';

export function safeRedirect(value: string | string[] | null | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || raw.length > 1024) return AFTER_LOGIN_DEFAULT;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || /[\u0000-\u001f]/.test(raw)) return AFTER_LOGIN_DEFAULT;
  let url: URL;
  try {
    url = new URL(raw, 'http://storefront.invalid');
  } catch {
    return AFTER_LOGIN_DEFAULT;
  }
  if (url.host !== 'storefront.invalid') return AFTER_LOGIN_DEFAULT;
  if (/^\/login(?:\/|$)/.test(url.pathname)) return AFTER_LOGIN_DEFAULT;
  return `${url.pathname}${url.search}${url.hash}`;
}
