import Link from 'next/link';
import type { Translator } from '@/lib/i18n/translator';

/** The parts of one channel an operator edits (issue 31, "Channels" and "Domains"), each a page of its own. */
export const CHANNEL_TABS = [
  'settings',
  'skin',
  'domains',
  'catalogue',
  'sales',
  'campaigns',
  'notices',
  'orders',
  'buyers',
  'reports',
] as const;
export type ChannelTab = (typeof CHANNEL_TABS)[number];

/** The channel's heading and its tabs, above each channel page of the console. */
export function ChannelTabs({ t, channel, current }: { t: Translator; channel: { key: string; name: string }; current: ChannelTab }) {
  return (
    <div className="mb-6">
      <p className="text-sm text-gray-600">
        <Link href="/channels" className="underline underline-offset-2 hover:text-gray-900">
          {t('ops.channels.title')}
        </Link>{' '}
        / <span className="font-mono">{channel.key}</span>
      </p>
      <h1 className="mt-1 text-2xl font-semibold text-gray-900">{channel.name}</h1>
      <nav aria-label={t('ops.channel.tabs')} className="mt-4 border-b border-gray-200">
        <ul className="-mb-px flex gap-4 overflow-x-auto whitespace-nowrap">
          {CHANNEL_TABS.map((tab) => (
            <li key={tab}>
              <Link
                href={`/channels/${channel.key}/${tab}`}
                aria-current={current === tab ? 'page' : undefined}
                className={`inline-block border-b-2 px-1 py-2 text-sm font-medium ${current === tab ? 'border-blue-700 text-blue-800' : 'border-transparent text-gray-600 hover:text-gray-900'}`}
              >
                {t(`ops.channel.tab.${tab}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
