/**
 * The one host name a channel's pages are served on (issue 29, finding 5). The key rule (lib/channel/key.ts) folds
 * many host names into one channel: another case (`AURORA.shop.example`), a trailing dot (`aurora.shop.example.`),
 * dots moved (`a.urora.shop.example`), a port other than the deployment's, and the bare domain of DEFAULT_CHANNEL.
 * Each of those would be its own cache entry and its own render, its own cookies and its own link previews; so a page
 * request on any of them is redirected to the channel's canonical host: its `host` as the deployment serves it
 * (`publicOrigin`: the public scheme and port). When channels get several domains, the canonical host is the primary
 * one and this stays the one rule. Pure (the proxy calls it on every page request).
 */

/**
 * Null when `requestHost` (the Host header) is the canonical host of `origin` (the channel's public origin, e.g.
 * `https://aurora.shop.example` or `http://aurora.localhost:3000`); else the URL to redirect to: `pathAndSearch` on the
 * canonical origin. A default port spelt out (`:443` on https) is the same host; anything else differing is not.
 */
export function canonicalHostRedirect(requestHost: string, origin: string, pathAndSearch: string): string | null {
  const canonical = new URL(origin);
  // A name and an optional port, in lower case; anything else (userinfo, a path, brackets) is not this host.
  if (/^[a-z0-9.-]+(?::\d{1,5})?$/.test(requestHost)) {
    let asked: string | null;
    try {
      asked = new URL(`${canonical.protocol}//${requestHost}`).host;
    } catch {
      asked = null;
    }
    if (asked === canonical.host) return null;
  }
  const path = pathAndSearch.startsWith('/') ? pathAndSearch : `/${pathAndSearch}`;
  return `${canonical.origin}${path}`;
}
