import type { Metadata } from 'next';
import { pageFromSearch } from '@/lib/procedure/paging';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { listChainRecords } from '@/lib/chain/chain-up';
import { PageHeader } from '@/components/layout/page-header';
import { ChainRecord } from '@/components/chain/chain-record';
import { ChainStatusRefresh } from '@/components/chain/chain-status-refresh';
import { EmptyState } from '@/components/ui/empty-state';
import { RecordPager } from '@/components/ui/pager';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 10;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('chain.recordsTitle'), robots: { index: false } };
}

/** /mine/chain (spec §2 mineChain, login required): the user's chain-ups on this channel, newest first, paged. */
export default async function ChainRecordsPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const scope = await requirePageScope(channel, '/mine/chain');
  const { page: pageParam } = await searchParams;
  const page = pageFromSearch(pageParam);
  const records = await listChainRecords(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t, skin, theme } = channel;
  return (
    <>
      <PageHeader title={t('chain.recordsTitle')} backHref="/mine" backLabel={t('goods.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        {records.records.length === 0 ? (
          <EmptyState art="chain" action={{ href: '/chain', label: t('empty.chainUp') }} data-testid="chain-records-empty">
            {t('chain.recordsEmpty')}
          </EmptyState>
        ) : (
          <ul className="flex flex-col gap-3" data-testid="chain-records">
            {records.records.map((r) => (
              <li key={r.id}>
                <ChainRecord record={r} t={t} timeZone={theme.timeZone} placeholderColor={skin.lightColor} />
              </li>
            ))}
          </ul>
        )}
        {records.records.some((r) => r.chainStatus === 0) ? <ChainStatusRefresh /> : null}
        <RecordPager path="/mine/chain" page={page} pages={records.pages} newer={t('home.back')} older={t('orders.more')} look="link" />
      </main>
    </>
  );
}
