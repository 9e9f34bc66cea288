import type { CampaignStatus } from '@/lib/campaign/status';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate } from '@/lib/format/date';
import { slotArgs, toSlotted } from '@/lib/i18n/slots';
import { renderTime } from '@/lib/page/render-time';
import { SALE_STATUS } from '@/lib/sale/status';
import { LiveSaleStatus } from '@/components/sale/live-sale-status';

type Window = { status: CampaignStatus; startTime: string; endTime: string | null };

/** When a campaign (gift, exchange activity, chain-up) runs, as its list card says it: opens at, until, or no end. */
export function CampaignWindow({
  campaign,
  t,
  timeZone,
  className,
  testId,
}: {
  campaign: Window;
  t: Translator;
  timeZone: string;
  className?: string;
  testId?: string;
}) {
  const time = (iso: string) => formatDate(iso, 'yyyy-MM-dd HH:mm', timeZone);
  return (
    <p className={className ?? 'text-xs text-neutral-500'} data-testid={testId}>
      {campaign.status === 0
        ? t('campaign.opensAt', { time: time(campaign.startTime) })
        : campaign.endTime
          ? t('campaign.until', { time: time(campaign.endTime) })
          : t('campaign.noEnd')}
    </p>
  );
}

/**
 * The campaign's state as a badge: open, not open yet, ended. Given `countdown` (its window and the channel's time zone),
 * one not open yet counts down to its opening second as a coming-soon sale does, with the sale's own live badge ("2d 3h",
 * then "01:59:59"; named by the opening time), and turns "Open" at zero without a reload (issue 30: gifts not open yet
 * had no countdown).
 */
export function CampaignStatusBadge({
  status,
  t,
  testId,
  countdown,
}: {
  status: CampaignStatus;
  t: Translator;
  testId?: string;
  countdown?: { startTime: string; endTime: string | null; timeZone: string };
}) {
  if (status === 0 && countdown) {
    const { startTime, endTime, timeZone } = countdown;
    return (
      <LiveSaleStatus
        // Never sold out: a campaign's badge does not count what is left (each offer says so).
        sale={{ statusSell: SALE_STATUS.COMING_SOON, saleStartTime: startTime, saleEndTime: endTime, amountAvailable: 1 }}
        renderedAt={renderTime()}
        labels={{
          text: {
            [SALE_STATUS.COMING_SOON]: t('campaign.notOpen'),
            [SALE_STATUS.ON_SALE]: t('campaign.open'),
            [SALE_STATUS.SOLD_OUT]: t('campaign.open'),
            [SALE_STATUS.ENDED]: t('campaign.ended'),
          },
          opensAt: t('campaign.opensAt', { time: formatDate(startTime, 'yyyy-MM-dd HH:mm', timeZone) }),
          days: toSlotted(t('status.countdownDays', slotArgs('days', 'hours'))),
        }}
        testId={testId}
      />
    );
  }
  return (
    <span
      className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${status === 1 ? 'bg-skin-light text-skin-1' : 'bg-neutral-100 text-neutral-500'}`}
      data-testid={testId}
    >
      {status === 1 ? t('campaign.open') : status === 0 ? t('campaign.notOpen') : t('campaign.ended')}
    </span>
  );
}
