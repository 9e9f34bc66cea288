import Link from 'next/link';
import type { ExchangeCampaignView } from '@/lib/exchange/schema';
import type { Translator } from '@/lib/i18n/translator';
import { ArtImage } from '@/components/ui/art-image';
import { CampaignStatusBadge, CampaignWindow } from '@/components/layout/campaign-window';
import { RecipeSummary } from './recipe-summary';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

/**
 * The activity list (spec §2 active): each exchange activity with its window and status, and each of its offers with
 * what it gives, what it takes (the recipe) and how many are left, linking to /exchange_detail/:id/:exchange_id.
 */
export function ActivityList({
  activities,
  t,
  timeZone,
  placeholderColor,
}: {
  activities: ExchangeCampaignView[];
  t: Translator;
  timeZone: string;
  placeholderColor: string;
}) {
  if (activities.length === 0) {
    return (
      <EmptyState art="exchange" data-testid="activities-empty">
        {t('exchange.empty')}
      </EmptyState>
    );
  }
  return (
    <ul className="flex flex-col gap-4" data-testid="activities">
      {activities.map((a) => (
        <Card as="li" key={a.id} className="overflow-hidden" data-testid="activity">
          <div className="flex items-start justify-between gap-2 px-3 pt-3">
            <div className="min-w-0">
              <h2 className="truncate text-base font-semibold text-skin-1">{a.name}</h2>
              <CampaignWindow campaign={a} t={t} timeZone={timeZone} testId="activity-window" />
            </div>
            <CampaignStatusBadge status={a.status} t={t} testId="activity-status" />
          </div>
          {a.description ? <p className="px-3 pt-1 text-sm text-neutral-600">{a.description}</p> : null}
          <ul className="flex flex-col gap-2 p-3">
            {a.offers.map((o) => (
              <li key={o.id}>
                <Link
                  href={`/exchange_detail/${a.id}/${o.id}`}
                  className="flex gap-3 rounded-lg border border-black/5 p-2 active:bg-black/5"
                  data-testid="exchange-offer"
                >
                  <ArtImage
                    src={o.commodity.cover}
                    alt=""
                    width={600}
                    height={600}
                    sizes="1.2rem"
                    className="size-[1.2rem] shrink-0 rounded-lg object-cover"
                    placeholderColor={placeholderColor}
                  />
                  <div className="flex min-w-0 flex-1 flex-col justify-between">
                    <p className="truncate text-base font-medium text-skin-1">{o.commodity.name}</p>
                    <RecipeSummary offer={o} t={t} className="line-clamp-2 text-xs text-neutral-600" testId="exchange-recipe" />
                    <p className="text-xs text-neutral-500" data-testid="exchange-left">
                      {o.remaining > 0 ? t('exchange.left', { remaining: o.remaining, total: o.total }) : t('exchange.soldOut')}
                    </p>
                  </div>
                  <span aria-hidden="true" className="self-center text-lg text-neutral-300">
                    ›
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      ))}
    </ul>
  );
}
