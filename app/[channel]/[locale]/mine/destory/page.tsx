import { wayForward } from '@/lib/page/empty-action';
import type { PageChannel } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listDestroyed } from '@/lib/exchange/service';
import { DestroyedList } from '@/components/exchange/destroyed-list';
import { MineListPage } from '@/components/layout/mine-list-page';
import { channelView } from '@/components/layout/channel-view';

const PAGE_SIZE = 10;

/** spec §2 mineDestory: titled 'receive records' on the channels with that attribute, else 'destroy records'. */
function titleOf({ t, theme }: PageChannel): string {
  return theme.attributes.destroyTitledReceive ? t('exchange.destroyTitleReceive') : t('exchange.destroyTitle');
}

export const generateMetadata = titledPage(titleOf);

/** /mine/destory (spec §2 mineDestory, the spec's spelling; login required): the user's collectibles spent in exchanges, newest first, paged. */
export default async function DestroyRecordsPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(props, '/mine/destory');
  const records = await listDestroyed(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t } = channel;
  return (
    <MineListPage
      title={titleOf(channel)}
      backLabel={t('exchange.back')}
      pager={{ path: '/mine/destory', page, pages: records.pages, newer: t('exchange.newer'), older: t('exchange.older') }}
    >
      <DestroyedList records={records.records} {...channelView(channel)} action={wayForward(channel, ['activities', 'sales'])} />
    </MineListPage>
  );
}
