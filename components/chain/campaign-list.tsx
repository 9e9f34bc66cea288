import type { ChainCampaignView } from '@/lib/chain/schema';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { CampaignStatusBadge, CampaignWindow } from '@/components/layout/campaign-window';
import { Card } from '@/components/ui/card';
import { CardList } from '@/components/ui/card-list';
import type { ChannelView } from '@/components/layout/channel-view';

/** The self chain-up campaigns (spec §2 chain): the product, its artist, what chaining it up gives, and the window. */
export function ChainCampaignList({
  campaigns,
  ...view
}: {
  campaigns: ChainCampaignView[];
} & ChannelView) {
  const { t, timeZone, placeholderColor } = view;
  return (
    <CardList
      items={campaigns}
      empty={{ art: 'chain', text: t('chain.empty'), 'data-testid': 'chain-empty' }}
      data-testid="chain-campaigns"
    >
      {(c) => (
        <Card as="li" key={c.id} className="flex gap-3 p-3" data-testid="chain-campaign">
          <CollectibleArt collectible={c} width="1.4rem" placeholderColor={placeholderColor} />
          <div className="flex min-w-0 flex-1 flex-col gap-0.5">
            <div className="flex items-start justify-between gap-2">
              <h3 className="truncate text-base font-semibold text-skin-1">{c.name}</h3>
              <CampaignStatusBadge status={c.status} t={t} testId="chain-campaign-status" />
            </div>
            <p className="truncate text-xs text-neutral-500">
              {t('chain.author')}: {c.authorStageName}
            </p>
            <p className="truncate text-xs text-neutral-600">{t('chain.gives', { name: c.commodity.name })}</p>
            <CampaignWindow campaign={c} t={t} timeZone={timeZone} />
          </div>
        </Card>
      )}
    </CardList>
  );
}
