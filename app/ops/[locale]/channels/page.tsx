import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listConsoleChannels } from '@/lib/operator/channels';
import { seesEveryChannel } from '@/lib/procedure/roles';
import { consoleTitled, consoleWords, requireConsoleOperator, type ConsolePageParams } from '@/lib/page/console';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelStatusControl, type StatusWords } from '@/components/ops/channel-status-control';
import type { Translator } from '@/lib/i18n/translator';
import type { ConsoleChannel } from '@/lib/operator/channels';

/** The pause/resume dialog's words for one channel: what buyers will see (spec §1: the root screen hidden). */
function statusWords(t: Translator, c: ConsoleChannel): StatusWords {
  const pausing = c.status !== 0;
  return {
    pause: t('ops.chan.pause'),
    resume: t('ops.chan.resume'),
    title: pausing ? t('ops.chan.pauseTitle', { name: c.name }) : t('ops.chan.resumeTitle', { name: c.name }),
    body: pausing ? t('ops.chan.pauseBody', { host: c.hosts[0] ?? c.key, pausedLine: t('common.storePaused') }) : t('ops.chan.resumeBody'),
    confirm: pausing ? t('ops.chan.confirmPause') : t('ops.chan.confirmResume'),
    cancel: t('ops.chan.cancel'),
    working: t('ops.chan.working'),
  };
}

type Props = { params: Promise<ConsolePageParams> };

export const generateMetadata = consoleTitled((t) => t('ops.channels.title'));

/**
 * The console's first page (issue 31): every channel the operator works on (an owner: all of them) with its key, name,
 * status, labels and its hosts from its domains (primary first, each with its status; issue 31).
 */
export default async function ChannelsPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const operator = await requireConsoleOperator();
  const list = await listConsoleChannels(getDb(), operator);
  // spec §1 / issue 31: an owner or a manager of the channel pauses it; support reads only.
  const canPause = operator.role !== 'support';
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <div className="mb-6 flex items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900">{t('ops.channels.title')}</h1>
          <p className="mt-1 text-sm text-gray-600">
            {seesEveryChannel(operator.role) ? t('ops.channels.everyChannel') : t('ops.channels.granted')}{' '}
            {t('ops.channels.count', { count: list.length })}
          </p>
        </div>
        {seesEveryChannel(operator.role) ? (
          <Link href="/channels/new" className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800">
            {t('ops.chan.newChannel')}
          </Link>
        ) : null}
      </div>
      {list.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center text-gray-600">{t('ops.channels.none')}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                {(['key', 'name', 'status', 'labels', 'hosts', 'viewsToday'] as const).map((column) => (
                  <th key={column} scope="col" className={`px-4 py-3 ${column === 'viewsToday' ? 'text-right' : ''}`}>
                    {t(`ops.channels.${column}`)}
                  </th>
                ))}
                {canPause ? (
                  <th scope="col" className="px-4 py-3">
                    <span className="sr-only">{t('ops.chan.actions')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {list.map((c) => (
                <tr key={c.key} data-channel={c.key}>
                  <td className="px-4 py-3 font-mono font-semibold text-gray-900">
                    <Link href={`/channels/${c.key}`} className="text-blue-800 underline-offset-2 hover:underline">
                      {c.key}
                    </Link>
                  </td>
                  <td className="px-4 py-3">
                    <span className="font-medium text-gray-900">{c.name}</span>
                    {c.brandName !== c.name ? <span className="block text-xs text-gray-600">{c.brandName}</span> : null}
                  </td>
                  <td className="px-4 py-3">
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${c.status === 0 ? 'bg-amber-50 text-amber-800' : 'bg-green-50 text-green-800'}`}
                    >
                      {c.status === 0 ? t('ops.channels.paused') : t('ops.channels.open')}
                    </span>
                  </td>
                  <td className="px-4 py-3">
                    <ul className="flex flex-wrap gap-1">
                      {c.labels.map((l) => (
                        <li key={l} className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-800">
                          {l} · {t(`ops.label.l${l}`)}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="px-4 py-3 text-xs text-gray-800">
                    <ul className="space-y-1">
                      {c.domains.map((d) => (
                        <li key={d.host} data-host={d.host}>
                          <span className="font-mono">{d.host}</span>{' '}
                          {d.primary ? (
                            <span className="rounded-full bg-blue-700 px-1.5 py-0.5 font-semibold text-white">
                              {t('ops.domains.primary')}
                            </span>
                          ) : null}{' '}
                          <span className="text-gray-600">{t(`ops.domains.state.${d.status}`)}</span>
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="px-4 py-3 text-right font-mono text-gray-900 tabular-nums" data-testid="views-today">
                    {(c.viewsToday ?? 0).toLocaleString(locale)}
                  </td>
                  {canPause ? (
                    <td className="px-4 py-3 text-right">
                      <ChannelStatusControl channel={c.key} status={c.status} words={statusWords(t, c)} locale={locale} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </ConsoleShell>
  );
}
