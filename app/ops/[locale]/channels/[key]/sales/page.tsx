import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listAdminSales } from '@/lib/sale/admin';
import { listCollectibles } from '@/lib/sale/catalogue';
import { formatFen } from '@/lib/format/money';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { saleWords } from '@/lib/page/console-sales';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { SaleForm } from '@/components/ops/sale-forms';
import { zoneText } from '@/components/ops/sale-time';

type Props = { params: Promise<ConsoleChannelParams> };

export const generateMetadata = consoleTitled((t) => t('ops.channel.tab.sales'));

const STATE_BADGE: Record<string, string> = {
  coming: 'bg-blue-50 text-blue-800',
  live: 'bg-green-50 text-green-800',
  paused: 'bg-amber-50 text-amber-900',
  soldOut: 'bg-gray-100 text-gray-800',
  closed: 'bg-gray-100 text-gray-600',
  archived: 'bg-gray-100 text-gray-500',
};

/**
 * A channel's Sales tab (issue 32, "Sales"): every sale in the home list's order with its status (coming, live, paused,
 * sold out, closed, archived), copies sold and left, times in the channel's zone named; and a form for a new sale.
 */
export default async function SalesPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const count = new Intl.NumberFormat(locale);
  const { operator, channel } = await requireConsoleChannel(params);
  const db = getDb();
  const now = new Date();
  const [sales, collectibles] = await Promise.all([listAdminSales(db, channel.id, now), listCollectibles(db, channel.id)]);
  const canWrite = operator.role === 'owner' || operator.role === 'manager';
  const zone = channel.timeZone;
  // A new sale opens in an hour unless the operator says otherwise (an opening in the past would be asked about).
  const opening = new Date(Math.ceil((now.getTime() + 3_600_000) / 60_000) * 60_000).toISOString();
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="sales" />
      <p className="mb-4 max-w-3xl text-sm text-gray-700">{t('ops.sales.intro', { zone })}</p>
      {!canWrite && <p className="mb-4 text-sm text-gray-700">{t('ops.sales.readOnly')}</p>}
      {sales.length === 0 ? (
        <p className="mb-6 text-sm text-gray-600">{t('ops.sales.empty')}</p>
      ) : (
        <div className="mb-8 overflow-x-auto">
          <table className="w-full min-w-[760px] text-left text-sm" data-testid="sale-list">
            <thead className="border-b border-gray-200 text-gray-600">
              <tr>
                <th className="py-2 pr-3">{t('ops.sales.collectible')}</th>
                <th className="py-2 pr-3">{t('ops.sales.status')}</th>
                <th className="py-2 pr-3 text-right">{t('ops.sales.price')}</th>
                <th className="py-2 pr-3 text-right">{t('ops.sales.copiesSold')}</th>
                <th className="py-2 pr-3 text-right">{t('ops.sales.copiesLeft')}</th>
                <th className="py-2 pr-3">{t('ops.sales.saleStartTime', { zone })}</th>
                <th className="py-2" />
              </tr>
            </thead>
            <tbody>
              {sales.map((s) => (
                <tr key={s.id} className="border-b border-gray-100" data-testid={`sale-row-${s.code}`}>
                  <td className="py-2 pr-3 font-medium text-gray-900">
                    {s.collectibleName}
                    {!s.listed && <span className="ml-2 text-xs text-gray-500">({t('ops.sales.hidden')})</span>}
                    <div className="font-mono text-xs font-normal text-gray-600">{s.code}</div>
                  </td>
                  <td className="py-2 pr-3">
                    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_BADGE[s.state]}`}>
                      {t(`ops.sales.state.${s.state}`)}
                    </span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatFen(s.price)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{count.format(s.copiesTaken)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">
                    {count.format(s.copiesLeft)} / {count.format(s.copies)}
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap text-gray-700">{zoneText(s.saleStartTime.toISOString(), zone)}</td>
                  <td className="py-2 text-right">
                    <Link href={`/channels/${channel.key}/sales/${s.code}`} className="text-blue-800 underline underline-offset-2">
                      {t('ops.sales.open')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canWrite && (
        <section aria-labelledby="new-sale">
          <h2 id="new-sale" className="mb-3 text-lg font-semibold text-gray-900">
            {t('ops.sales.newTitle')}
          </h2>
          <SaleForm
            locale={locale}
            channel={channel.key}
            timeZone={zone}
            editing={null}
            frozen={false}
            canWrite
            words={saleWords(t, zone)}
            collectibles={collectibles.map((c) => ({ code: c.code, name: c.name }))}
            initial={{
              code: '',
              collectible: '',
              price: 0,
              copies: 100,
              limitPerUser: 1,
              saleStartTime: opening,
              saleEndTime: null,
              listed: true,
              sort: sales.length,
            }}
          />
        </section>
      )}
    </ConsoleShell>
  );
}
