'use client';

import { useState } from 'react';
import Link from 'next/link';
import { useTranslations } from 'use-intl';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { LazyImageViewer, preloadImageViewer } from '@/components/ui/lazy-image-viewer';
import type { HoldingView } from '@/lib/collection/schema';
import { Card } from '@/components/ui/card';

/**
 * The Give action of a card (issue 36, docs/gifting.md): a link to the give page when the collectible can be given now,
 * else the reason in a few words (in the holding period: from when), disabled. Worded by the page, in its time zone.
 */
export type GiveAction = { canGive: boolean; label: string };

/**
 * My collection's cards: image (opens the image viewer), name, edition number, chain status with token id and tx hash,
 * and (issue 36) the Give action where the page gives one.
 */
export function CollectionGrid({
  records,
  placeholderColor,
  give = {},
}: {
  records: HoldingView[];
  placeholderColor: string;
  give?: Readonly<Record<string, GiveAction>>;
}) {
  const t = useTranslations('collection');
  const tv = useTranslations('viewer');
  const [viewing, setViewing] = useState<HoldingView | null>(null);
  return (
    <>
      <ul className="grid grid-cols-2 gap-3" data-testid="collection">
        {records.map((h) => (
          <Card as="li" key={h.id} className="overflow-hidden" data-testid="holding">
            <button
              type="button"
              className="block w-full"
              aria-label={`${h.commodity.name} #${h.commoditySku.number}`}
              onPointerDown={preloadImageViewer}
              onClick={() => setViewing(h)}
            >
              <CollectibleArt collectible={h.commodity} named width="full" sizes="3.4rem" placeholderColor={placeholderColor} />
            </button>
            <div className="p-2.5">
              <p className="truncate text-sm font-semibold text-skin-1">{h.commodity.name}</p>
              <p className="text-xs font-medium text-skin-sign" data-testid="holding-edition">
                #{h.commoditySku.number}/{h.commoditySku.amountNumber}
              </p>
              {h.chainStatus === 1 ? (
                <dl className="mt-1.5 text-[0.2rem] leading-snug text-neutral-500" data-testid="holding-chain">
                  <dt className="sr-only">{t('onChain')}</dt>
                  <dd className="font-medium text-emerald-700">{t('onChain')}</dd>
                  <dt className="inline">{t('tokenId')} </dt>
                  <dd className="inline break-all">{h.tokenId}</dd>
                  <dt className="mt-0.5">{t('txHash')}</dt>
                  <dd className="truncate font-mono" title={h.tradeHash ?? ''}>
                    {h.tradeHash}
                  </dd>
                </dl>
              ) : (
                <p className="mt-1.5 text-xs text-amber-700" data-testid="holding-chain">
                  {t('pending')}
                </p>
              )}
              {give[h.id] ? (
                give[h.id]!.canGive ? (
                  <Link
                    href={`/mine/gifts/give/${h.id}`}
                    className="mt-2 flex h-[0.56rem] items-center justify-center rounded-full bg-skin-light text-xs font-semibold text-skin-1 active:opacity-80"
                    data-testid="holding-give"
                  >
                    {give[h.id]!.label}
                  </Link>
                ) : (
                  <span
                    role="link"
                    aria-disabled="true"
                    className="mt-2 flex h-[0.56rem] items-center justify-center rounded-full bg-neutral-100 px-1 text-center text-[0.2rem] leading-tight text-neutral-600"
                    data-testid="holding-give-disabled"
                  >
                    {give[h.id]!.label}
                  </span>
                )
              ) : null}
            </div>
          </Card>
        ))}
      </ul>
      <LazyImageViewer
        key={viewing?.id ?? 'none'}
        images={
          viewing ? [viewing.commodity.cover, ...viewing.commodity.actualPicture].map((src) => ({ src, alt: viewing.commodity.name })) : []
        }
        open={viewing !== null}
        onClose={() => setViewing(null)}
        label={tv('label')}
        closeLabel={tv('close')}
      />
    </>
  );
}
