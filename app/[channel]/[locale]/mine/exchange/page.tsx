import { wayForward } from '@/lib/page/empty-action';
import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listExchanges } from '@/lib/exchange/service';
import { channelFeatures } from '@/lib/channel/labels';
import { ExchangeRecordList } from '@/components/exchange/exchange-record-list';
import { MineListPage } from '@/components/layout/mine-list-page';
import { channelView } from '@/components/layout/channel-view';

const PAGE_SIZE = 10;

export const generateMetadata = titledPage(({ t }) => t('exchange.recordsTitle'));

/**
 * /mine/exchange (spec §2 mineExchange: login required, needs label 2 else /404): the user's exchanges on this
 * channel, newest first, paged by ?page= links. The label is checked before the login, as the proxy does (spec §2's guards).
 */
export default async function ExchangeRecordsPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(
    props,
    '/mine/exchange',
    (channel) => channelFeatures(channel.labels, channel.theme.attributes).exchange,
  );
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
