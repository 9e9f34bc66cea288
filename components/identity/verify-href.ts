/**
 * The real-name verification page, coming back to `path` once done. A module of its own, with no client code: the goods
 * page links there without carrying ./identity-notice's next/link (issue 34).
 */
export function verifyHref(path: string): string {
  return `/mine/identity?back=${encodeURIComponent(path)}`;
}
