import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { liveDropView } from '@/lib/operator/report-procedures';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { ReportLive } from '@/components/ops/report-live';

type Props = { params: Promise<ConsoleChannelParams> };

export const generateMetadata = consoleTitled((t) => t('ops.reports.live'));

/**
 * The live drop view (issue 32): the channel's running sales with copies sold and left, buy calls per second and the
 * deployment's busy answers, first drawn here and then refreshed every second by the page itself (no reload). Owners and
 * the channel's managers, as the reports.
 */
export default async function LiveDropPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  if (operator.role === 'support') notFound();
  const initial = await liveDropView(getDb(), channel.id, new Date());
  const keys = ['noLive', 'sale', 'copies', 'sold', 'left', 'buyCalls', 'busy', 'updated', 'stale'] as const;
  const words = Object.fromEntries(keys.map((k) => [k, t(`ops.reports.${k}`, k === 'updated' ? { time: '{time}' } : undefined)])) as Record<
    (typeof keys)[number],
    string
  >;
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="reports" />
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold text-gray-900">{t('ops.reports.live')}</h2>
        <Link href={`/channels/${channel.key}/reports`} className="text-sm font-medium text-blue-800 hover:underline">
          {t('ops.reports.back')}
        </Link>
      </div>
      <p className="mb-4 text-sm text-gray-600">{t('ops.reports.liveIntro')}</p>
      <ReportLive locale={locale} channel={channel.key} initial={initial} words={words} timeZone={channel.timeZone} />
    </ConsoleShell>
  );
}
