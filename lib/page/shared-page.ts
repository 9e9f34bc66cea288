import 'server-only';
import type { RouteMatch } from '../channel/routes';
import type { ChannelScope } from '../procedure/scope';
import { pageFromSearch } from '../procedure/paging';
import { HOME_PAGE_SIZE } from '../sale/schema';
import { readSaleIds, readSales } from './cached-reads';
import type { Visitor } from './visitor';
import { ORDER_NO } from '../order/status';

/**
 * What the rendered-page cache does with a page load of a shared route (docs/caching.md; issue 29, finding 5). The
 * cache is keyed by what the page reads, parsed, never by how the request spelled it: the channel, the language, the
 * route and its parameters as the page understands them. Every spelling that the page would render alike shares one
 * entry and one render (`?page=02`, `?page=2&utm_source=chat`, `/goods/detail/5/`); one it would send elsewhere is sent
 * there from here, with no render and no entry (`/goods/detail/05` → `/goods/detail/5`, a page past the last → the last,
 * a sale the channel does not have → /404, as the page itself does). So no stream of made-up links can make the store
 * render on every request or push real pages out of the cache. (Host spellings are redirected before this:
 * lib/channel/canonical-host.ts.)
 */
export type SharedPagePlan =
  /** Served from the cache under `key`; on a miss rendered from `renderPath` (public path and the query the page reads). */
  | { kind: 'cache'; key: string; renderPath: string; visitor?: Visitor }
  /** Answered with a redirect to a path of this host. */
  | { kind: 'redirect'; location: string; status: 307 | 308 };

/** A sale id as the goods page spells it (lib/sale/service.ts `findSale`). */
const CANONICAL_ID = /^[1-9]\d{0,9}$/;
/** A sale id spelt another way that still names one: leading zeros. */
const PADDED_ID = /^0+[1-9]\d{0,9}$/;

export async function planSharedPage(
  scope: ChannelScope & { channelKey: string },
  match: RouteMatch,
  locale: string,
  search: URLSearchParams,
  visitor: Visitor = 'anonymous',
): Promise<SharedPagePlan> {
  const keyOf = (path: string) => `${scope.channelKey}|${locale}|${path}`;
  switch (match.route.name) {
    case 'home': {
      const page = pageFromSearch(search.get('page') ?? undefined);
      if (page > 1) {
        // Past the last page: the last one (its own entry), rather than a render of an empty page per number.
        const { pages } = await readSales(scope, { pageCount: 1, pageSize: HOME_PAGE_SIZE });
        const last = Math.max(1, pages);
        if (page > last) return { kind: 'redirect', location: last === 1 ? '/' : `/?page=${last}`, status: 307 };
      }
      const path = page === 1 ? '/' : `/?page=${page}`;
      return { kind: 'cache', key: keyOf(path), renderPath: path };
    }
    case 'goodsDetail':
    case 'pay': {
      // The pay page (issue 34) is keyed like the goods page: the sale's id as the page reads it; the buyer's part is
      // not in it (lib/order/pay-state.ts), and the login guard ran before this.
      const prefix = match.route.name === 'pay' ? '/pay/' : '/goods/detail/';
      const raw = match.params.saleId ?? '';
      if (PADDED_ID.test(raw)) return { kind: 'redirect', location: `${prefix}${raw.replace(/^0+/, '')}`, status: 308 };
      if (!CANONICAL_ID.test(raw) || !(await readSaleIds(scope)).has(raw)) return { kind: 'redirect', location: '/404', status: 307 };
      const path = `${prefix}${raw}`;
      return { kind: 'cache', key: keyOf(path), renderPath: path };
    }
    case 'paySuccess': {
      // The result page (issue 34) holds nothing of the order: one entry per channel and language. A number that is no
      // order number goes to /404 without a render, as the page's own check did; the order itself is the buyer's part.
      const orderNo = search.get('orderNo') ?? '';
      if (!ORDER_NO.test(orderNo)) return { kind: 'redirect', location: '/404', status: 307 };
      return { kind: 'cache', key: keyOf('/pay/success'), renderPath: '/pay/success' };
    }
    case 'mine':
      // issue 34: two variants, for a visitor with a session of this channel and one without (lib/page/visitor.ts);
      // neither holds anything of a buyer, so one entry per variant, channel and language.
      return { kind: 'cache', key: `${keyOf('/mine')}|${visitor}`, renderPath: '/mine', visitor };
    default: {
      // A shared route with parameters needs its own case above: its parameters, parsed, are part of the key.
      if (match.route.pattern.includes(':')) throw new Error(`the page cache has no plan for ${match.route.name}`);
      const path = match.route.pattern;
      return { kind: 'cache', key: keyOf(path), renderPath: path };
    }
  }
}
