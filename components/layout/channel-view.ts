import type { PageChannel } from '@/lib/page/channel';
import type { Translator } from '@/lib/i18n/translator';
import type { Locale } from '@/lib/i18n/locale';
import type { EmptyAction } from '@/components/ui/empty-state';

/**
 * How a server component speaks and looks on the page's channel (issue 30: one shape for the props every list and card
 * of the store took one by one): its words and their language (which groups its counts, lib/format/count.ts), the time
 * zone its dates are shown in (the channel's), and the colour its art shows until it arrives (the skin's light colour).
 */
export type ChannelView = { t: Translator; locale: Locale; timeZone: string; placeholderColor: string };

export function channelView({ t, locale, theme, skin }: Pick<PageChannel, 't' | 'locale' | 'theme' | 'skin'>): ChannelView {
  return { t, locale, timeZone: theme.timeZone, placeholderColor: skin.lightColor };
}

/** A list of the buyer's records on a page: the records, where the list sends the buyer while it is empty, the view. */
export type RecordListProps<T> = { records: T[]; action?: EmptyAction | null } & ChannelView;
