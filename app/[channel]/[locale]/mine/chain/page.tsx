import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listChainRecords } from '@/lib/chain/chain-up';
import { ChainRecord } from '@/components/chain/chain-record';
import { ChainStatusRefresh } from '@/components/chain/chain-status-refresh';
import { MineListPage } from '@/components/layout/mine-list-page';
import { CardList } from '@/components/ui/card-list';
import { channelView } from '@/components/layout/channel-view';

const PAGE_SIZE = 10;

export const generateMetadata = titledPage(({ t }) => t('chain.recordsTitle'));

/** /mine/chain (spec §2 mineChain, login required): the user's chain-ups on this channel, newest first, paged. */
export default async function ChainRecordsPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(props, '/mine/chain');
  const records = await listChainRecords(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t } = channel;
  return (
    <MineListPage
      title={t('chain.recordsTitle')}
      backLabel={t('goods.back')}
      pager={{ path: '/mine/chain', page, pages: records.pages, newer: t('home.back'), older: t('orders.more'), look: 'link' }}
    >
      <CardList
        items={records.records}
        empty={{
          art: 'chain',
          text: t('chain.recordsEmpty'),
          action: { href: '/chain', label: t('empty.chainUp') },
          'data-testid': 'chain-records-empty',
        }}
        data-testid="chain-records"
      >
        {(r) => (
          <li key={r.id}>
            <ChainRecord record={r} {...channelView(channel)} />
          </li>
        )}
      </CardList>
      {records.records.some((r) => r.chainStatus === 0) ? <ChainStatusRefresh /> : null}
    </MineListPage>
  );
}
