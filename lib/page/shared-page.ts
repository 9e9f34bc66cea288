import 'server-only';
import type { RouteMatch } from '../channel/routes';
import type { ChannelScope } from '../procedure/scope';
import { pageFromSearch } from '../procedure/paging';
import { HOME_PAGE_SIZE } from '../sale/schema';
import { readSaleIds, readSales } from './cached-reads';
import type { Visitor } from './visitor';
import { ORDER_NO, PAYMENT_NO } from '../order/status';
import { env } from '../env';

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
  | { kind: 'cache'; key: string; renderPath: string; visitor?: Visitor; standIn?: StandIn }
  /** Answered with a redirect to a path of this host. */
  | { kind: 'redirect'; location: string; status: 307 | 308 };

/**
 * A number of the request that a page's server part does not read but Next's answers name (issue 34): the order's in the
 * result page's query (the flight answer's `q`), the payment's in the cashier's path (its route parameter). The page is
 * rendered once with `standIn` where the number goes (`renderPath`), kept under the page's one key, and each answer
 * carries the request's `value` in its place: the same length, digits for digits, so the byte lengths a flight payload
 * declares stay right (lib/page/flight.ts `withValue`). `path` is the one spelling of the request (path and query) whose
 * router fetch is answered so.
 */
export type StandIn = { value: string; standIn: string; path: string; renderPath: string };

/** The result page's order number while it renders for every order (lib/order/status.ts ORDER_NO; no order has it). */
export const ORDER_NO_STAND_IN = '0'.repeat(22);
/** The sandbox cashier's payment number while it renders for every payment (lib/payment: `P` and 21 digits; none has it). */
export const PAYMENT_NO_STAND_IN = `P${'0'.repeat(21)}`;

/** Whether the payment sandbox is one of the store's providers (DESIGN §7): its cashier exists only then. */
function sandboxIsProvider(): boolean {
  return env().PAYMENT_PROVIDERS.includes('sandbox');
}

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
      if (!ORDER_NO.test(orderNo) || orderNo === ORDER_NO_STAND_IN) return { kind: 'redirect', location: '/404', status: 307 };
      // A page load is rendered without the query (the page's HTML names no order); a router fetch's answer names the
      // query it was for, so it is rendered with the stand-in and answered with the buyer's number in its place.
      const standIn = {
        value: orderNo,
        standIn: ORDER_NO_STAND_IN,
        path: `/pay/success?orderNo=${orderNo}`,
        renderPath: `/pay/success?orderNo=${ORDER_NO_STAND_IN}`,
      };
      return { kind: 'cache', key: keyOf('/pay/success'), renderPath: '/pay/success', standIn };
    }
    case 'sandboxCashier': {
      // The sandbox's cashier (issue 34) holds nothing of the payment: the payment is its client part's
      // (components/buy/sandbox-cashier.tsx, through pay/sandbox/detail). It exists only while the sandbox is a provider.
      const paymentNo = match.params.paymentNo ?? '';
      if (!sandboxIsProvider() || !PAYMENT_NO.test(paymentNo) || paymentNo === PAYMENT_NO_STAND_IN) {
        return { kind: 'redirect', location: '/404', status: 307 };
      }
      const renderPath = `/sandbox/cashier/${PAYMENT_NO_STAND_IN}`;
      const standIn = { value: paymentNo, standIn: PAYMENT_NO_STAND_IN, path: `/sandbox/cashier/${paymentNo}`, renderPath };
      return { kind: 'cache', key: keyOf('/sandbox/cashier'), renderPath, standIn };
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
