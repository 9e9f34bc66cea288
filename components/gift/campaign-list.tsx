import Link from 'next/link';
import type { GiftCampaignView } from '@/lib/gift/schema';
import type { Translator } from '@/lib/i18n/translator';
import { ArtImage } from '@/components/ui/art-image';
import { CampaignStatusBadge, CampaignWindow } from '@/components/layout/campaign-window';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

/**
 * The receive list (spec §2 receive, receive2): each gift campaign with its gifts, what each asks, how many are left
 * and the window. `detailPath` is the detail route of the page's version (/receive_detail_new or /receive_detail).
 */
export function CampaignList({
  campaigns,
  detailPath,
  t,
  timeZone,
  placeholderColor,
}: {
  campaigns: GiftCampaignView[];
  detailPath: string;
  t: Translator;
  timeZone: string;
  placeholderColor: string;
}) {
  if (campaigns.length === 0) {
    return (
      <EmptyState art="gift" data-testid="gifts-empty">
        {t('gift.empty')}
      </EmptyState>
    );
  }
  return (
    <ul className="flex flex-col gap-4" data-testid="campaigns">
      {campaigns.map((c) => (
        <Card as="li" key={c.id} className="overflow-hidden" data-testid="campaign">
          <div className="flex items-start justify-between gap-2 px-3 pt-3">
            <div className="min-w-0">
              <h2 className="truncate text-base font-semibold text-skin-1">{c.name}</h2>
              <CampaignWindow campaign={c} t={t} timeZone={timeZone} />
            </div>
            <CampaignStatusBadge status={c.status} t={t} testId="campaign-status" />
          </div>
          {c.description ? <p className="px-3 pt-1 text-sm text-neutral-600">{c.description}</p> : null}
          <ul className="flex flex-col gap-2 p-3">
            {c.offers.map((o) => (
              <li key={o.id}>
                <Link
                  href={`${detailPath}/${c.id}/${o.id}`}
                  className="flex gap-3 rounded-lg border border-black/5 p-2 active:bg-black/5"
                  data-testid="gift-offer"
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
                    <p className="truncate text-xs text-neutral-500">
                      {o.requires
                        ? t('gift.forHolders', { name: o.requires.name })
                        : o.requiresCode
                          ? t('gift.needsCode')
                          : t('gift.forEveryone')}
                    </p>
                    <p className="text-xs text-neutral-500" data-testid="gift-left">
                      {o.remaining > 0 ? t('gift.left', { remaining: o.remaining, total: o.total }) : t('gift.soldOut')}
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
