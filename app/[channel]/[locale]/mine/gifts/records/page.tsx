import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listRecords } from '@/lib/transfer/service';
import { formatDate } from '@/lib/format/date';
import { MineListPage } from '@/components/layout/mine-list-page';
import { CardList } from '@/components/ui/card-list';
import { RecordCard } from '@/components/ui/record-card';

const PAGE_SIZE = 10;

export const generateMetadata = titledPage(({ t }) => t('transfer.recordsTitle'));

/** /mine/gifts/records (issue 36, login required): the gifts the buyer gave and received on this channel, newest first. */
export default async function GiftRecordsPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(props, '/mine/gifts/records');
  const { t, skin, theme } = channel;
  const records = await listRecords(scope, { pageCount: page, pageSize: PAGE_SIZE });
  return (
    <MineListPage
      title={t('transfer.recordsTitle')}
      backLabel={t('goods.back')}
      pager={{
        path: '/mine/gifts/records',
        page,
        pages: records.pages,
        newer: t('transfer.newer'),
        older: t('transfer.more'),
        look: 'link',
      }}
    >
      <CardList
        items={records.records}
        empty={{ art: 'gift', text: t('transfer.recordsEmpty'), 'data-testid': 'gift-records-empty' }}
        data-testid="gift-records"
      >
        {(r) => (
          <RecordCard
            key={r.id}
            collectible={r.collectible}
            placeholderColor={skin.lightColor}
            data-testid="gift-record"
            data-direction={r.direction}
            data-status={r.status}
            header={
              <p className="mb-2 flex items-center justify-between text-xs">
                <span
                  className={`rounded-full px-2 py-0.5 font-semibold ${r.direction === 'sent' ? 'bg-skin-light text-skin-1' : 'bg-emerald-50 text-emerald-700'}`}
                >
                  {t(r.direction === 'sent' ? 'transfer.given' : 'transfer.received')}
                </span>
                <span className="text-neutral-500" data-testid="gift-record-status">
                  {t(`transfer.status.${r.status}`)}
                </span>
              </p>
            }
          >
            <p className="truncate text-base font-medium text-skin-1">{r.collectible.name}</p>
            <p className="text-sm text-neutral-700">{t(r.direction === 'sent' ? 'transfer.to' : 'transfer.from', { name: r.otherName })}</p>
            <p className="flex items-baseline justify-between text-xs text-neutral-500">
              <span>{formatDate(r.answeredAt ?? r.createdAt, 'yyyy-MM-dd HH:mm', theme.timeZone)}</span>
              <span className="font-semibold text-skin-1">
                #{r.collectible.number}/{r.collectible.amountNumber}
              </span>
            </p>
          </RecordCard>
        )}
      </CardList>
    </MineListPage>
  );
}
