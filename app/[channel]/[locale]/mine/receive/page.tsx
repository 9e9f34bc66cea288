import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listReceived } from '@/lib/gift/service';
import { formatDate } from '@/lib/format/date';
import { wayForward } from '@/lib/page/empty-action';
import { MineListPage } from '@/components/layout/mine-list-page';
import { CardList } from '@/components/ui/card-list';
import { RecordCard } from '@/components/ui/record-card';

const PAGE_SIZE = 10;

export const generateMetadata = titledPage(({ t }) => t('gift.recordsTitle'));

/** /mine/receive (spec §2 mineReceive, login required): the gifts the user received on this channel, newest first, paged. */
export default async function ReceiveRecordsPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(props, '/mine/receive');
  const records = await listReceived(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t, skin, theme } = channel;
  return (
    <MineListPage
      title={t('gift.recordsTitle')}
      backLabel={t('goods.back')}
      pager={{ path: '/mine/receive', page, pages: records.pages, newer: t('home.back'), older: t('orders.more'), look: 'link' }}
    >
      <CardList
        items={records.records}
        empty={{
          art: 'gift',
          text: t('gift.recordsEmpty'),
          action: wayForward(channel, ['gifts', 'sales']),
          'data-testid': 'receive-empty',
        }}
        data-testid="receive-records"
      >
        {(r) => (
          <RecordCard key={r.id} collectible={r.commodity} placeholderColor={skin.lightColor} data-testid="receive-record">
            <p className="truncate text-base font-medium text-skin-1">{r.commodity.name}</p>
            <p className="truncate text-xs text-neutral-500">
              {r.campaign.name}
              {r.byCode ? ` · ${t('gift.byCode')}` : ''}
            </p>
            <p className="flex items-baseline justify-between text-xs text-neutral-500">
              <span>{formatDate(r.createTime, 'yyyy-MM-dd HH:mm:ss', theme.timeZone)}</span>
              <span className="font-semibold text-skin-1" data-testid="receive-edition">
                #{r.number}/{r.amountNumber}
              </span>
            </p>
          </RecordCard>
        )}
      </CardList>
    </MineListPage>
  );
}
