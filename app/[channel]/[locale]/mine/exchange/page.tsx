import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { wayForward } from '@/lib/page/empty-action';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { listExchanges } from '@/lib/exchange/service';
import { pageFromSearch } from '@/lib/procedure/paging';
import { channelFeatures } from '@/lib/channel/labels';
import { ExchangeRecordList } from '@/components/exchange/exchange-record-list';
import { MineListPage } from '@/components/layout/mine-list-page';
import { channelView } from '@/components/layout/channel-view';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 10;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('exchange.recordsTitle'), robots: { index: false } };
}

/**
 * /mine/exchange (spec §2 mineExchange: login required, needs label 2 else /404): the user's exchanges on this
 * channel, newest first, paged by ?page= links. The label is checked before the login, as the proxy does.
 */
export default async function ExchangeRecordsPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  if (!channelFeatures(channel.labels, channel.theme.attributes).exchange) redirect('/404');
  const scope = await requirePageScope(channel, '/mine/exchange');
  const { page: pageParam } = await searchParams;
  const page = pageFromSearch(pageParam);
  const records = await listExchanges(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t } = channel;
  return (
    <MineListPage
      title={t('exchange.recordsTitle')}
      backLabel={t('exchange.back')}
      pager={{ path: '/mine/exchange', page, pages: records.pages, newer: t('exchange.newer'), older: t('exchange.older') }}
    >
      <ExchangeRecordList records={records.records} {...channelView(channel)} action={wayForward(channel, ['activities', 'sales'])} />
    </MineListPage>
  );
}
