'use client';

import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { LazyImageViewer, preloadImageViewer } from '@/components/ui/lazy-image-viewer';
import type { HoldingView } from '@/lib/collection/schema';
import { Card } from '@/components/ui/card';

/** My collection's cards: image (opens the image viewer), name, edition number, chain status with token id and tx hash. */
export function CollectionGrid({ records, placeholderColor }: { records: HoldingView[]; placeholderColor: string }) {
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
