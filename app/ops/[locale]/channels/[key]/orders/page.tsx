import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { clientIp } from '@/lib/server/client-ip';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { searchBuyersAndOrders } from '@/lib/operator/buyer-views';
import { searchKind } from '@/lib/buyer/service';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';

type Props = { params: Promise<ConsoleChannelParams>; searchParams: Promise<{ q?: string | string[] }> };

export const generateMetadata = consoleTitled((t) => t('ops.channel.tab.orders'));

/**
 * A channel's Orders tab (issue 32, "Orders and buyers"): one search box for an order number, a buyer's phone typed in
 * full, or their account number on this channel; a match opens the order's or the buyer's page. Every search is in
 * the audit trail (lib/operator/buyer-views.ts), the phone masked there. A plain GET form: it works before any script.
 */
export default async function OrdersPage({ params, searchParams }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const raw = (await searchParams).q;
  const query = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 40) ?? '';
  let problem: string | null = null;
  if (query) {
    if (!searchKind(query)) {
      problem = t('ops.buyers.notSearchable', { query });
    } else {
      const found = await searchBuyersAndOrders(
        { db: getDb(), operator, channelId: channel.id, ip: clientIp(await headers()), now: new Date() },
        channel.key,
        query,
      );
      if (found?.kind === 'order') redirect(`/channels/${channel.key}/orders/${found.orderNo}`);
      if (found?.kind === 'buyer') redirect(`/channels/${channel.key}/buyers/${found.accountNumber}`);
      problem = t('ops.buyers.notFound', { query });
    }
  }
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="orders" />
      <p className="max-w-3xl text-sm text-gray-700">{t('ops.buyers.intro')}</p>
      <form method="get" role="search" className="mt-4 flex max-w-xl flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1 space-y-1">
          <label htmlFor="buyers-query" className="block text-sm font-medium text-gray-800">
            {t('ops.buyers.search')}
          </label>
          <input
            id="buyers-query"
            name="q"
            defaultValue={query}
            inputMode="numeric"
            autoComplete="off"
            maxLength={40}
            aria-describedby="buyers-query-hint"
            aria-invalid={problem ? true : undefined}
            className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none"
          />
        </div>
        <button type="submit" className="rounded-md bg-blue-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-blue-800">
          {t('ops.buyers.find')}
        </button>
        <p id="buyers-query-hint" className="w-full text-sm text-gray-600">
          {t('ops.buyers.searchHint')}
        </p>
      </form>
      {problem ? (
        <p role="alert" className="mt-4 text-sm text-red-700" data-testid="buyers-not-found">
          {problem}
        </p>
      ) : null}
    </ConsoleShell>
  );
}
