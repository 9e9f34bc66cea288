import Link from 'next/link';
import type { GiftCampaignView, GiftEligibility, GiftOfferView } from '@/lib/gift/schema';
import { formatDate } from '@/lib/format/date';
import { OfferDetail } from '@/components/layout/offer-detail';
import { ReceiveForm } from './receive-form';
import type { ChannelView } from '@/components/layout/channel-view';
import { CampaignStatusBadge } from '@/components/layout/campaign-window';

/**
 * One gift (spec §2 receiveDetail, receiveDetailNew): the collectible, what it asks, how many are left, the window,
 * and the receive button, or why the user cannot receive it, or a login link for a visitor.
 */
export function GiftDetail({
  campaign,
  offer,
  eligibility,
  loginHref,
  ...view
}: {
  campaign: GiftCampaignView;
  offer: GiftOfferView;
  eligibility: GiftEligibility | null;
  loginHref: string;
} & ChannelView) {
  const { t, timeZone } = view;
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
    <OfferDetail
      campaign={campaign}
      offer={offer}
      words={{
        window: t('gift.window'),
        noEnd: t('gift.noEnd'),
        limit: t('gift.limit', { count: offer.limitPerUser }),
        left: offer.remaining > 0 ? t('gift.left', { remaining: offer.remaining, total: offer.total }) : t('gift.soldOut'),
      }}
      terms={
        offer.requires
          ? t('gift.forHolders', { name: offer.requires.name })
          : offer.requiresCode
            ? t('gift.needsCode')
            : t('gift.forEveryone')
      }
      testIds={{ name: 'gift-name', terms: 'gift-requirement', left: 'gift-left' }}
      badge={
        // Not open yet: the countdown to its opening, as a sale's page has (issue 30).
        campaign.status === 0 ? (
          <CampaignStatusBadge
            status={campaign.status}
            t={t}
            testId="gift-countdown"
            countdown={{ startTime: campaign.startTime, endTime: campaign.endTime, timeZone }}
          />
        ) : null
      }
      {...view}
    >
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
    </OfferDetail>
  );
}
