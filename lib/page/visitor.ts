import type { RouteMatch } from '../channel/routes';

/**
 * Who a page of a `bySession` route (issue 34: /mine) is rendered for: a visitor with a session of this channel
 * ('buyer', by the session cookie's claims, no database read) or without ('anonymous'). The proxy decides and passes
 * it to the page in this request header (a client's copy is replaced), and keys the rendered-page cache by it
 * (lib/page/shared-page.ts). The page renders nothing of any buyer either way: the buyer's own part is one call read
 * in the browser (lib/channel/routes.ts `buyerPart`).
 */
export const VISITOR_HEADER = 'x-storefront-visitor';

export type Visitor = 'buyer' | 'anonymous';

/** The header's value as the page reads it: anything but 'buyer' is an anonymous visitor. */
export function parseVisitor(value: string | null | undefined): Visitor {
  return value === 'buyer' ? 'buyer' : 'anonymous';
}

/** Whether the page of `match` has a variant per visitor (routes.ts `shared.bySession`). */
export function variesByVisitor(match: RouteMatch): boolean {
  return Boolean(match.route.shared?.bySession);
}
