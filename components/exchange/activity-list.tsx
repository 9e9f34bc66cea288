import type { ExchangeCampaignView } from '@/lib/exchange/schema';
import { CampaignOfferList } from '@/components/layout/campaign-offer-list';
import { RecipeSummary } from './recipe-summary';
import type { ChannelView } from '@/components/layout/channel-view';

/**
 * The activity list (spec §2 active): each exchange activity with its window and status, and each of its offers with
 * what it gives, what it takes (the recipe) and how many are left, linking to /exchange_detail/:id/:exchange_id.
 */
export function ActivityList({ activities, ...view }: { activities: ExchangeCampaignView[] } & ChannelView) {
  const { t } = view;
  return (
    <CampaignOfferList
      campaigns={activities}
      empty={{ art: 'exchange', text: t('exchange.empty') }}
      testIds={{
        list: 'activities',
        empty: 'activities-empty',
        campaign: 'activity',
        window: 'activity-window',
        status: 'activity-status',
        offer: 'exchange-offer',
        left: 'exchange-left',
      }}
      offerHref={(a, o) => `/exchange_detail/${a.id}/${o.id}`}
      terms={(o) => <RecipeSummary offer={o} t={t} className="line-clamp-2 text-xs text-neutral-600" testId="exchange-recipe" />}
      left={(o) => (o.remaining > 0 ? t('exchange.left', { remaining: o.remaining, total: o.total }) : t('exchange.soldOut'))}
      {...view}
    />
  );
}
