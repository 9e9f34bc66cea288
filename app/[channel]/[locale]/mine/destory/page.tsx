import type { Metadata } from 'next';
import { wayForward } from '@/lib/page/empty-action';
import { loadPageChannel, type PageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { listDestroyed } from '@/lib/exchange/service';
import { pageFromSearch } from '@/lib/procedure/paging';
import { DestroyedList } from '@/components/exchange/destroyed-list';
import { MineListPage } from '@/components/layout/mine-list-page';
import { channelView } from '@/components/layout/channel-view';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 10;

/** spec §2 mineDestory: titled 'receive records' on the channels with that attribute, else 'destroy records'. */
function titleOf({ t, theme }: PageChannel): string {
  return theme.attributes.destroyTitledReceive ? t('exchange.destroyTitleReceive') : t('exchange.destroyTitle');
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: titleOf(await loadPageChannel(params)), robots: { index: false } };
}

/** /mine/destory (spec §2 mineDestory, the spec's spelling; login required): the user's collectibles spent in exchanges, newest first, paged. */
export default async function DestroyRecordsPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const scope = await requirePageScope(channel, '/mine/destory');
  const { page: pageParam } = await searchParams;
  const page = pageFromSearch(pageParam);
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
