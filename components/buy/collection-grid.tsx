'use client';

import Link from 'next/link';
import { useTranslations } from 'use-intl';
import { CollectibleArt } from '@/components/ui/collectible-art';
import type { HoldingView } from '@/lib/collection/schema';
import { Card } from '@/components/ui/card';

/**
 * The Give action of a card (issue 36, docs/gifting.md): a link to the give page when the collectible can be given now,
 * else the reason in a few words (in the holding period: from when), disabled. Worded by the page, in its time zone.
 */
export type GiveAction = { canGive: boolean; label: string };

/**
 * A long id as a card has room for (issue 36): its start and end with an ellipsis between; the certificate shows it whole.
 */
export function middleEllipsis(value: string, keep = 6): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-keep)}`;
}

/**
 * My collection's cards: image and name (issue 36: open the edition's certificate, /mine/collection/<id>, where its
 * pictures open in the viewer), edition number, chain status with token id and tx hash in short, and the Give action
 * where the page gives one.
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
  return (
    <ul className="grid grid-cols-2 gap-3" data-testid="collection">
      {records.map((h) => (
        <Card as="li" key={h.id} className="overflow-hidden" data-testid="holding">
          <Link
            href={`/mine/collection/${h.id}`}
            className="block"
            aria-label={`${h.commodity.name} #${h.commoditySku.number}`}
            data-testid="holding-open"
          >
            <CollectibleArt collectible={h.commodity} named width="full" sizes="3.4rem" placeholderColor={placeholderColor} />
          </Link>
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
                <dd className="inline font-mono" title={h.tokenId ?? ''} data-testid="holding-token">
                  {h.tokenId ? middleEllipsis(h.tokenId) : null}
                </dd>
                <dt className="mt-0.5">{t('txHash')}</dt>
                <dd className="font-mono" title={h.tradeHash ?? ''}>
                  {h.tradeHash ? middleEllipsis(h.tradeHash, 10) : null}
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
  );
}
