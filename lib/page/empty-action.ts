import { channelFeatures } from '../channel/labels';
import type { PageChannel } from './channel';

/** A link on from an empty list (components/ui/empty-state.tsx). */
export type EmptyAction = { href: string; label: string };

/** Where an empty list can send the buyer, in the order a store offers them. */
export type WayForward = 'sales' | 'gifts' | 'activities' | 'chainUp';

/**
 * The way forward from an empty list (issue 17, item 9): the first of `order` this channel offers (spec §6 labels),
 * with its label in the page's language; null when it offers none of them.
 */
export function wayForward(
  channel: PageChannel,
  order: readonly WayForward[] = ['sales', 'gifts', 'activities', 'chainUp'],
): EmptyAction | null {
  const features = channelFeatures(channel.labels, channel.theme.attributes);
  for (const way of order) {
    if (way === 'sales' && features.sale) return { href: '/', label: channel.t('empty.browseSales') };
    if (way === 'gifts' && features.receive) return { href: features.receive, label: channel.t('empty.receiveGifts') };
    if (way === 'activities' && features.activityPage) return { href: '/active', label: channel.t('empty.seeActivities') };
    if (way === 'chainUp' && features.chainUp) return { href: '/chain', label: channel.t('empty.chainUp') };
  }
  return null;
}
