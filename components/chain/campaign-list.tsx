import type { ChainCampaignView } from '@/lib/chain/schema';
import type { Translator } from '@/lib/i18n/translator';
import { ArtImage } from '@/components/ui/art-image';
import { CampaignStatusBadge, CampaignWindow } from '@/components/layout/campaign-window';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

/** The self chain-up campaigns (spec §2 chain): the product, its artist, what chaining it up gives, and the window. */
export function ChainCampaignList({
  campaigns,
  t,
  timeZone,
  placeholderColor,
}: {
  campaigns: ChainCampaignView[];
  t: Translator;
  timeZone: string;
  placeholderColor: string;
}) {
  if (campaigns.length === 0) {
    return (
      <EmptyState art="chain" data-testid="chain-empty">
        {t('chain.empty')}
      </EmptyState>
    );
  }
  return (
    <ul className="flex flex-col gap-3" data-testid="chain-campaigns">
      {campaigns.map((c) => (
        <Card as="li" key={c.id} className="flex gap-3 p-3" data-testid="chain-campaign">
          <ArtImage
            src={c.cover}
            alt=""
            width={600}
            height={600}
            sizes="1.4rem"
            className="size-[1.4rem] shrink-0 rounded-lg object-cover"
            placeholderColor={placeholderColor}
          />
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
      ))}
    </ul>
  );
}
