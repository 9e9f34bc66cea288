import type { AnchorHTMLAttributes } from 'react';

/** The attribute that hands a link to the router once the page's scripts run (./shell.tsx, `RouterLinks`). */
export const ROUTER_LINK_ATTRIBUTE = 'data-router-link';

/**
 * A link as server HTML, with no client code of its own (issue 34): before the page's scripts have arrived it is a
 * plain link (a tap loads the next page, and the plain-link progress bar shows the tap was seen); once they have, the
 * shell (./shell.tsx) takes its taps into the App Router, as next/link would, prefetching on the first touch. Used where
 * next/link's client code (about 3 kB) would be the only reason for a shared page to carry it: the goods page's header
 * and buy bar.
 */
export function RouterLink({ href, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <a href={href} {...{ [ROUTER_LINK_ATTRIBUTE]: '' }} {...props} />;
}
