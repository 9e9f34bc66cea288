import type { GiftCampaignView } from '@/lib/gift/schema';
import { CampaignOfferList } from '@/components/layout/campaign-offer-list';
import type { ChannelView } from '@/components/layout/channel-view';

/**
 * The receive list (spec §2 receive, receive2): each gift campaign with its gifts, what each asks, how many are left
 * and the window. `detailPath` is the detail route of the page's version (/receive_detail_new or /receive_detail).
 */
export function CampaignList({ campaigns, detailPath, ...view }: { campaigns: GiftCampaignView[]; detailPath: string } & ChannelView) {
  const { t } = view;
  return (
    <CampaignOfferList
      campaigns={campaigns}
      empty={{ art: 'gift', text: t('gift.empty') }}
      testIds={{
        list: 'campaigns',
        empty: 'gifts-empty',
        campaign: 'campaign',
        status: 'campaign-status',
        offer: 'gift-offer',
        left: 'gift-left',
      }}
      offerHref={(c, o) => `${detailPath}/${c.id}/${o.id}`}
      // A gift not open yet counts down to its opening, as a sale does (issue 30).
      countdown
      terms={(o) => (
        <p className="truncate text-xs text-neutral-500">
          {o.requires ? t('gift.forHolders', { name: o.requires.name }) : o.requiresCode ? t('gift.needsCode') : t('gift.forEveryone')}
        </p>
      )}
      left={(o) => (o.remaining > 0 ? t('gift.left', { remaining: o.remaining, total: o.total }) : t('gift.soldOut'))}
      {...view}
    />
  );
}
