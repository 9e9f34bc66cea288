import type { Metadata } from 'next';
import { pageFromSearch } from '@/lib/procedure/paging';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { listCollection } from '@/lib/collection/service';
import { CollectionGrid } from '@/components/buy/collection-grid';
import { EmptyState } from '@/components/ui/empty-state';
import { wayForward } from '@/lib/page/empty-action';
import { ClientMessages } from '@/components/shell/client-messages';
import { MineListPage } from '@/components/layout/mine-list-page';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 20;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('collection.title'), robots: { index: false } };
}

/** /mine/collection (spec §2 mineCollection, login required): the buyer's collectibles with edition numbers and chain status. */
export default async function CollectionPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const scope = await requirePageScope(channel, '/mine/collection');
  const { page: pageParam } = await searchParams;
  const page = pageFromSearch(pageParam);
  const collection = await listCollection(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t, skin } = channel;
  return (
    <MineListPage
      title={t('collection.title')}
      backLabel={t('goods.back')}
      pager={{ path: '/mine/collection', page, pages: collection.pages, newer: t('home.back'), older: t('collection.more'), look: 'link' }}
      note={t('collection.ledgerNote')}
    >
      {collection.records.length === 0 ? (
        <EmptyState art="collection" action={wayForward(channel)} data-testid="collection-empty">
          {t('collection.empty')}
        </EmptyState>
      ) : (
        <ClientMessages channel={channel} namespaces={['collection', 'viewer']}>
          <CollectionGrid records={collection.records} placeholderColor={skin.lightColor} />
        </ClientMessages>
      )}
    </MineListPage>
  );
}
