import type { ChannelAttributes } from '../db/schema';
import { parseLabels, type Label } from './labels';

/**
 * Channel theme info as the API returns it (spec §3), plus the fields the storefront needs to route
 * (attributes, locale). Types and pure functions only: the proxy makes it from the channel's row (toThemeInfo) and
 * routes on its summary, and pages and components take it as a type.
 */
export type ChannelThemeInfo = {
  key: string;
  name: string;
  brandName: string;
  host: string;
  isHaveTheme: boolean;
  marketText: string;
  buyText: string;
  exchangeText: string;
  privacyText: string;
  salesStrategyText: string;
  status: number;
  labelList: string;
  skinJson: string;
  locale: string | null;
  timeZone: string;
  appScheme: string | null;
  appDownloadUrl: string | null;
  attributes: ChannelAttributes;
  /** spec §3 goodsInfo.showAmount: false on hidden-amount channels. */
  showAmount: boolean;
};

/** What the proxy (proxy.ts) needs to route a request for a channel (lib/channel/routing.ts). */
export type ChannelSummary = {
  key: string;
  status: number;
  labels: Label[];
  attributes: ChannelAttributes;
  locale: string | null;
};

export function toSummary(theme: ChannelThemeInfo): ChannelSummary {
  return {
    key: theme.key,
    status: theme.status,
    labels: parseLabels(theme.labelList),
    attributes: theme.attributes,
    locale: theme.locale,
  };
}
