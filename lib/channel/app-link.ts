/**
 * A channel's app link (spec §1 deep-link helpers, §4, §9): the rule of what the console may store as `appScheme`
 * (lib/channel/operator.ts) and how a page's link to the app is made from it (lib/client/deep-link.ts opens it). No
 * imports: the browser runs it too.
 */
/**
 * Where "open in app" goes: the app's own link to this page, and the channel's download page as the fallback; null
 * where the channel has no download page on the web, and the buyer stays on the page with a note instead (issue 30).
 */
export type AppLink = { appUrl: string; downloadUrl: string | null };

// Schemes a channel's app link may not use: they run code or carry content, or open the web instead of an app.
const UNSAFE_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'blob', 'file', 'about', 'http', 'https']);

/**
 * A channel's `appScheme` as the console saves it (lib/channel/operator.ts) and the demo seeds it: the app's URL scheme
 * alone (`artapp`) or followed by `://` and the app's own link (`aurora://open`), no spaces, query or fragment.
 */
const APP_LINK_BASE = /^([a-z][a-z0-9+.-]{1,31})(:\/\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?$/;

/** Whether `value` is an app link base the console may store: one `appLinkFor` turns into a link (issue 31). */
export function isAppLinkBase(value: string): boolean {
  const name = APP_LINK_BASE.exec(value)?.[1];
  return name !== undefined && !UNSAFE_SCHEMES.has(name);
}

/**
 * The app link of a storefront page for a channel (spec §1 deep-link helpers), or null where the channel configures
 * none (no `appScheme`) or configures one that is not a link to an app. The app is opened at the channel's `appScheme`
 * followed by the page's storefront path (`aurora://open` and `/goods/detail/42` → `aurora://open/goods/detail/42`), so
 * an app can show the same page; a scheme alone (`artapp`, as the console accepts it) opens `artapp://goods/detail/42`.
 * The download page is a web address (http, https) or a path of this site; a channel
 * without one (`appDownloadUrl` empty) keeps the buyer on the page when the app does not open (docs/decisions.md,
 * "Open in app"), and one that names anything else is taken as having no app link at all.
 */
export function appLinkFor(channel: { appScheme: string | null; appDownloadUrl: string | null }, path: string): AppLink | null {
  const stored = channel.appScheme?.trim() ?? '';
  const download = channel.appDownloadUrl?.trim() ?? '';
  // A bare scheme name (issue 31: what the console's hint asks for) is the app's root link.
  const scheme = /^[a-z][a-z0-9+.-]*$/i.test(stored) ? `${stored}://` : stored;
  const name = /^([a-z][a-z0-9+.-]*):/i.exec(scheme)?.[1]?.toLowerCase();
  if (!name || UNSAFE_SCHEMES.has(name)) return null;
  if (download && !/^https?:\/\//i.test(download) && !/^\/(?![/\\])/.test(download)) return null;
  const base = scheme.endsWith('://') ? scheme : `${scheme.replace(/\/+$/, '')}/`;
  return { appUrl: `${base}${path.replace(/^\/+/, '')}`, downloadUrl: download || null };
}
