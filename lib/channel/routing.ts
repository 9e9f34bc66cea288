import { channelFeatures, homeRedirect } from './labels';
import { matchRoute, type RouteMatch } from './routes';
import type { ChannelSummary } from './theme';
import { negotiateLocale } from '../i18n/locale';

export type RoutingInput = {
  key: string;
  pathname: string;
  /** '' or '?a=1' */
  search: string;
  /** The channel's summary; null when no channel has this key; 'unavailable' when the lookup failed. */
  summary: ChannelSummary | null | 'unavailable';
  hasSession: boolean;
  acceptLanguage: string | null;
};

export type RoutingDecision =
  | { kind: 'redirect'; location: string }
  | { kind: 'rewrite'; pathname: string; match: RouteMatch; locale: string }
  | { kind: 'storeNotFound' };

/**
 * Decides what the proxy (proxy.ts) does with a page request (spec §2 routes and guards, §6). Pure: the proxy
 * reads the channel and the session cookie, this decides.
 * Order: unknown host → unknown path → label guards → login guard → rewrite to /<KEY>/<locale>/<path>.
 */
export function decideRoute(input: RoutingInput): RoutingDecision {
  if (input.summary === null) return { kind: 'storeNotFound' };
  const match = matchRoute(input.pathname);
  if (!match || match.route.name === 'setKey') return { kind: 'redirect', location: '/404' };

  const summary = input.summary === 'unavailable' ? null : input.summary;
  if (summary) {
    // /detail/:id is the home page opened on one sale (spec §2 detail, docs/decisions.md): it goes where home goes.
    if (match.route.name === 'home' || match.route.name === 'detail') {
      const target = homeRedirect(summary.labels, summary.attributes, input.search);
      if (target) return { kind: 'redirect', location: target };
    }
    if (match.route.label && !summary.labels.includes(match.route.label)) return { kind: 'redirect', location: '/404' };
    if (match.route.name === 'active' && !channelFeatures(summary.labels, summary.attributes).activityPage)
      return { kind: 'redirect', location: '/404' };
  }

  if (match.route.login && !input.hasSession) {
    const back = `${input.pathname}${input.search}`;
    return { kind: 'redirect', location: `/login?redirect=${encodeURIComponent(back)}` };
  }

  const locale = negotiateLocale(summary?.locale, input.acceptLanguage);
  const path = input.pathname === '' ? '/' : input.pathname;
  return { kind: 'rewrite', pathname: `/${input.key}/${locale}${path === '/' ? '' : path}`, match, locale };
}
