import Link from 'next/link';
import type { GiftCampaignView, GiftEligibility, GiftOfferView } from '@/lib/gift/schema';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate } from '@/lib/format/date';
import { ArtImage } from '@/components/ui/art-image';
import { ReceiveForm } from './receive-form';
import { Card } from '@/components/ui/card';

/**
 * One gift (spec §2 receiveDetail, receiveDetailNew): the collectible, what it asks, how many are left, the window,
 * and the receive button, or why the user cannot receive it, or a login link for a visitor.
 */
export function GiftDetail({
  campaign,
  offer,
  eligibility,
  loginHref,
  t,
  timeZone,
  placeholderColor,
}: {
  campaign: GiftCampaignView;
  offer: GiftOfferView;
  eligibility: GiftEligibility | null;
  loginHref: string;
  t: Translator;
  timeZone: string;
  placeholderColor: string;
}) {
  const refusal =
    eligibility && !eligibility.canReceive
      ? {
          notOpen: t('gift.opensAt', { time: formatDate(campaign.startTime, 'yyyy-MM-dd HH:mm', timeZone) }),
          ended: t('gift.endedReason'),
          soldOut: t('gift.soldOut'),
          received: t('gift.alreadyReceived'),
          notEligible: t('gift.notEligible', { name: offer.requires?.name ?? '' }),
        }[eligibility.reason]
      : null;
  return (
    <div className="flex flex-col gap-4">
      <ArtImage
        src={offer.commodity.cover}
        alt={offer.commodity.name}
        width={600}
        height={600}
        sizes="(max-width: 450px) 100vw, 450px"
        className="aspect-square w-full rounded-xl object-cover shadow-card"
        priority
        placeholderColor={placeholderColor}
      />
      <Card as="section" className="flex flex-col gap-1 p-4">
        <h1 className="text-lg font-semibold text-skin-1" data-testid="gift-name">
          {offer.commodity.name}
        </h1>
        <p className="text-sm text-neutral-600">{campaign.name}</p>
        {campaign.description ? <p className="text-sm text-neutral-600">{campaign.description}</p> : null}
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-neutral-500">{t('goods.editionSize')}</dt>
          <dd className="text-right text-neutral-800">{offer.commodity.amountSku}</dd>
          <dt className="text-neutral-500">{t('gift.window')}</dt>
          <dd className="text-right text-neutral-800">
            {formatDate(campaign.startTime, 'yyyy-MM-dd HH:mm', timeZone)} –{' '}
            {campaign.endTime ? formatDate(campaign.endTime, 'yyyy-MM-dd HH:mm', timeZone) : t('gift.noEnd')}
          </dd>
        </dl>
        <p className="mt-2 text-sm text-neutral-700" data-testid="gift-requirement">
          {offer.requires
            ? t('gift.forHolders', { name: offer.requires.name })
            : offer.requiresCode
              ? t('gift.needsCode')
              : t('gift.forEveryone')}{' '}
          · {t('gift.limit', { count: offer.limitPerUser })}
        </p>
        <p className="text-sm text-neutral-500" data-testid="gift-left">
          {offer.remaining > 0 ? t('gift.left', { remaining: offer.remaining, total: offer.total }) : t('gift.soldOut')}
        </p>
      </Card>
      {eligibility === null ? (
        <Link
          href={loginHref}
          className="block rounded-full bg-skin-button py-3 text-center text-base font-semibold text-skin-button-text"
          data-testid="gift-login"
        >
          {t('gift.loginToReceive')}
        </Link>
      ) : (
        <ReceiveForm campaignId={campaign.id} offerId={offer.id} needsCode={offer.requiresCode} refusal={refusal} />
      )}
    </div>
  );
}
