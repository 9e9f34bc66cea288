import type { Metadata } from 'next';
import { wayForward } from '@/lib/page/empty-action';
import { loadPageChannel, type PageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { listDestroyed } from '@/lib/exchange/service';
import { pageFromSearch } from '@/lib/procedure/paging';
import { PageHeader } from '@/components/layout/page-header';
import { DestroyedList } from '@/components/exchange/destroyed-list';
import { RecordPager } from '@/components/ui/pager';

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
  const { t, skin, theme } = channel;
  return (
    <>
      <PageHeader title={titleOf(channel)} backHref="/mine" backLabel={t('exchange.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        <DestroyedList
          records={records.records}
          t={t}
          timeZone={theme.timeZone}
          placeholderColor={skin.lightColor}
          action={wayForward(channel, ['activities', 'sales'])}
        />
        <RecordPager path="/mine/destory" page={page} pages={records.pages} newer={t('exchange.newer')} older={t('exchange.older')} />
      </main>
    </>
  );
}
