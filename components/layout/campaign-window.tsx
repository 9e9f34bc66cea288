import type { CampaignStatus } from '@/lib/campaign/status';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate } from '@/lib/format/date';

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

/** The campaign's state as a badge: open, not open yet, ended. */
export function CampaignStatusBadge({ status, t, testId }: { status: CampaignStatus; t: Translator; testId?: string }) {
  return (
    <span
      className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${status === 1 ? 'bg-skin-light text-skin-1' : 'bg-neutral-100 text-neutral-500'}`}
      data-testid={testId}
    >
      {status === 1 ? t('campaign.open') : status === 0 ? t('campaign.notOpen') : t('campaign.ended')}
    </span>
  );
}
