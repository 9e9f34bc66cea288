import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listCollectibles } from '@/lib/sale/catalogue';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { catalogueWords } from '@/lib/page/console-sales';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { CollectibleForm } from '@/components/ops/catalogue-forms';

type Props = { params: Promise<ConsoleChannelParams> };

export const generateMetadata = consoleTitled((t) => t('ops.channel.tab.catalogue'));

/**
 * A channel's Catalogue tab (issue 32, "Catalogue"): its collectibles with edition size and editions minted, and a form
 * for a new one with uploaded pictures. Owners and the channel's managers write; support reads.
 */
export default async function CataloguePage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const collectibles = await listCollectibles(getDb(), channel.id);
  const canWrite = operator.role === 'owner' || operator.role === 'manager';
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="catalogue" />
      <p className="mb-4 max-w-3xl text-sm text-gray-700">{t('ops.catalogue.intro')}</p>
      {!canWrite && <p className="mb-4 text-sm text-gray-700">{t('ops.catalogue.readOnly')}</p>}
      {collectibles.length === 0 ? (
        <p className="mb-6 text-sm text-gray-600">{t('ops.catalogue.empty')}</p>
      ) : (
        <div className="mb-8 overflow-x-auto">
          <table className="w-full min-w-[640px] text-left text-sm" data-testid="collectible-list">
            <thead className="border-b border-gray-200 text-gray-600">
              <tr>
                <th className="py-2 pr-3">{t('ops.catalogue.name')}</th>
                <th className="py-2 pr-3">{t('ops.catalogue.code')}</th>
                <th className="py-2 pr-3">{t('ops.catalogue.authorName')}</th>
                <th className="py-2 pr-3 text-right">{t('ops.catalogue.amountSku')}</th>
                <th className="py-2 pr-3 text-right">{t('ops.catalogue.minted')}</th>
                <th className="py-2" />
              </tr>
            </thead>
            <tbody>
              {collectibles.map((c) => (
                <tr key={c.id} className="border-b border-gray-100">
                  <td className="py-2 pr-3 font-medium text-gray-900">
                    {c.name}
                    {c.isBlindBox && (
                      <span className="ml-2 rounded bg-purple-50 px-1.5 py-0.5 text-xs text-purple-800">{t('ops.catalogue.box')}</span>
                    )}
                  </td>
                  <td className="py-2 pr-3 font-mono text-xs text-gray-700">{c.code}</td>
                  <td className="py-2 pr-3 text-gray-700">{c.authorName}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{c.amountSku}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{c.minted}</td>
                  <td className="py-2 text-right">
                    <Link href={`/channels/${channel.key}/catalogue/${c.code}`} className="text-blue-800 underline underline-offset-2">
                      {t('ops.catalogue.open')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canWrite && (
        <section aria-labelledby="new-collectible">
          <h2 id="new-collectible" className="mb-3 text-lg font-semibold text-gray-900">
            {t('ops.catalogue.newTitle')}
          </h2>
          <CollectibleForm
            locale={locale}
            channel={channel.key}
            editing={null}
            canWrite
            words={catalogueWords(t)}
            initial={{
              code: '',
              name: '',
              description: '',
              authorName: '',
              authorCover: '/brands/default/user-face.svg',
              publisherName: channel.brandName,
              seriesName: '',
              cover: '',
              gallery: [],
              amountSku: 100,
              chainName: '',
              chainContract: '',
              contractAddress: '',
              isBlindBox: false,
            }}
          />
        </section>
      )}
    </ConsoleShell>
  );
}
