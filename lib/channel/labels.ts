import type { ChannelAttributes } from '../db/schema';

/** Feature labels (spec §6): 1 sale, 2 activity/exchange, 3 receive (new), 4 self chain-up. */
export type Label = 1 | 2 | 3 | 4;

/** Parses a labelList such as "1,2,4"; ignores anything that is not a digit 1..4. */
export function parseLabels(labelList: string | null | undefined): Label[] {
  const labels = new Set<Label>();
  for (const part of (labelList ?? '').split(',')) {
    const digit = part.trim();
    if (/^[1-4]$/.test(digit)) labels.add(Number(digit) as Label);
  }
  return [...labels].sort();
}

/**
 * What a channel offers, read from its labels (spec §6) and attributes: the one reading that the route guards, the
 * home redirect, the pages and the footer share.
 */
export type ChannelFeatures = {
  /** Label 1: the sale (the home page's goods). */
  sale: boolean;
  /** Label 2: activities and exchange (/active, /mine/exchange). */
  exchange: boolean;
  /** The /active page: label 2, except for the class that cannot open it (the `noActive` attribute). */
  activityPage: boolean;
  /** Label 3: receive, at /receive for the gift-only class and at /receive2 otherwise; null without label 3. */
  receive: '/receive' | '/receive2' | null;
  /** Label 4: self chain-up. */
  chainUp: boolean;
};

export function channelFeatures(labels: readonly Label[], attributes: ChannelAttributes): ChannelFeatures {
  const exchange = labels.includes(2);
  return {
    sale: labels.includes(1),
    exchange,
    activityPage: exchange && !attributes.noActive,
    receive: labels.includes(3) ? (attributes.giftOnly ? '/receive' : '/receive2') : null,
    chainUp: labels.includes(4),
  };
}

export type ChannelTitle = 'buyGoods' | 'sale' | 'activity' | 'receive';

/**
 * Page title rule (spec §1): 'buy goods' for channels with that attribute; 'digital collectible sale'
 * when label 1 is enabled alone; 'digital collectible receive' when label 1 is absent;
 * 'digital collectible activity' when several labels including 1 are enabled.
 * Returns a message id resolved by the catalogue.
 */
export function channelTitle(labels: readonly Label[], attributes: ChannelAttributes): ChannelTitle {
  if (attributes.buyGoodsTitle) return 'buyGoods';
  if (!labels.includes(1)) return 'receive';
  return labels.length === 1 ? 'sale' : 'activity';
}

/**
 * Where home goes when label 1 is absent (spec §2 Guards): gift-only class → /receive; label 2 → /active;
 * label 3 → /receive2; label 4 → /chain with the query kept. Null: stay home.
 */
export function homeRedirect(labels: readonly Label[], attributes: ChannelAttributes, search: string): string | null {
  const features = channelFeatures(labels, attributes);
  if (features.sale) return null;
  if (attributes.giftOnly) return '/receive';
  if (features.exchange) return '/active';
  if (features.receive) return features.receive;
  if (features.chainUp) return `/chain${search}`;
  return null;
}
