import type { ReactNode } from 'react';
import { formatDate } from '@/lib/format/date';
import { formatCount } from '@/lib/format/count';
import { Card } from '@/components/ui/card';
import { CollectibleArt, type ArtOf } from '@/components/ui/collectible-art';
import type { ChannelView } from '@/components/layout/channel-view';

/**
 * One offer of a campaign on its own page (issue 30: one card for spec §2 exchangeDetail and the receive detail pages):
 * the collectible large, then a card with its name, the campaign, the edition size and the window, the offer's terms
 * with its limit per buyer, and how many are left; below, what the buyer can do (`children`).
 */
export function OfferDetail({
  campaign,
  offer,
  words,
  terms,
  testIds,
  badge,
  children,
  ...view
}: {
  campaign: { name: string; description: string; startTime: string; endTime: string | null };
  offer: { commodity: ArtOf & { amountSku: number } };
  /** The words of this kind of campaign: its window's label and end, the limit per buyer, how many are left. */
  words: { window: string; noEnd: string; limit: string; left: string };
  /** What the offer takes or whom it is for. */
  terms: ReactNode;
  /** Test ids as the end-to-end suite knows them; `terms` on the terms' line. */
  testIds: { name: string; terms?: string; left: string };
  /** Beside the name: the campaign's state where it tells the buyer something (a gift's countdown to its opening). */
  badge?: ReactNode;
  children: ReactNode;
} & ChannelView) {
  const { t, locale, timeZone, placeholderColor } = view;
  const time = (iso: string) => formatDate(iso, 'yyyy-MM-dd HH:mm', timeZone);
  return (
    <div className="flex flex-col gap-4">
      <CollectibleArt
        collectible={offer.commodity}
        named
        width="full"
        sizes="(max-width: 450px) 100vw, 450px"
        className="rounded-xl shadow-card"
        priority
        placeholderColor={placeholderColor}
      />
      <Card as="section" className="flex flex-col gap-1 p-4">
        <div className="flex items-start justify-between gap-2">
          <h2 className="text-lg font-semibold text-skin-1" data-testid={testIds.name}>
            {offer.commodity.name}
          </h2>
          {badge}
        </div>
        <p className="text-sm text-neutral-600">{campaign.name}</p>
        {campaign.description ? <p className="text-sm text-neutral-600">{campaign.description}</p> : null}
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-neutral-500">{t('goods.editionSize')}</dt>
          <dd className="text-right text-neutral-800" data-testid="offer-edition-size">
            {formatCount(offer.commodity.amountSku, locale)}
          </dd>
          <dt className="text-neutral-500">{words.window}</dt>
          <dd className="text-right text-neutral-800">
            {/* Each end kept whole: on a narrow phone the line breaks at the dash, not inside a date. */}
            <span className="whitespace-nowrap">{time(campaign.startTime)}</span> –{' '}
            <span className="whitespace-nowrap">{campaign.endTime ? time(campaign.endTime) : words.noEnd}</span>
          </dd>
        </dl>
        <p className="mt-2 text-sm text-neutral-700" data-testid={testIds.terms}>
          {terms} · {words.limit}
        </p>
        <p className="text-sm text-neutral-500" data-testid={testIds.left}>
          {words.left}
        </p>
      </Card>
      {children}
    </div>
  );
}
