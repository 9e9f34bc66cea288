import type { PageChannel } from '@/lib/page/channel';
import type { Translator } from '@/lib/i18n/translator';
import type { EmptyAction } from '@/components/ui/empty-state';

/**
 * How a server component speaks and looks on the page's channel (issue 30: one shape for the three props every list
 * and card of the store took one by one): its words, the time zone its dates are shown in (the channel's), and the
 * colour its art shows until it arrives (the skin's light colour).
 */
export type ChannelView = { t: Translator; timeZone: string; placeholderColor: string };

export function channelView({ t, theme, skin }: Pick<PageChannel, 't' | 'theme' | 'skin'>): ChannelView {
  return { t, timeZone: theme.timeZone, placeholderColor: skin.lightColor };
}

/** A list of the buyer's records on a page: the records, where the list sends the buyer while it is empty, the view. */
export type RecordListProps<T> = { records: T[]; action?: EmptyAction | null } & ChannelView;
