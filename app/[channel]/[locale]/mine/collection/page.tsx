import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listCollection } from '@/lib/collection/service';
import { CollectionGrid, type GiveAction } from '@/components/buy/collection-grid';
import { giftStates } from '@/lib/transfer/service';
import { formatDate } from '@/lib/format/date';
import { EmptyState } from '@/components/ui/empty-state';
import { wayForward } from '@/lib/page/empty-action';
import { ClientMessages } from '@/components/shell/client-messages';
import { MineListPage } from '@/components/layout/mine-list-page';

const PAGE_SIZE = 20;

export const generateMetadata = titledPage(({ t }) => t('collection.title'));

/** /mine/collection (spec §2 mineCollection, login required): the buyer's collectibles with edition numbers and chain status. */
export default async function CollectionPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(props, '/mine/collection');
  const collection = await listCollection(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t, skin, theme } = channel;
  // issue 36: each card's Give action, or why it cannot be given yet (in the holding period: from when).
  const states = await giftStates(
    scope,
    collection.records.map((r) => Number(r.id)),
  );
  const give: Record<string, GiveAction> = {};
  for (const [id, lock] of states) {
    give[String(id)] = !lock
      ? { canGive: true, label: t('transfer.give') }
      : lock.why === 'holdingPeriod'
        ? { canGive: false, label: t('transfer.giveFrom', { time: formatDate(lock.from!, 'MM-dd HH:mm', theme.timeZone) }) }
        : { canGive: false, label: t(`transfer.short.${lock.why}`) };
  }
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
        <ClientMessages channel={channel} namespaces={['collection']}>
          <CollectionGrid records={collection.records} placeholderColor={skin.lightColor} give={give} />
        </ClientMessages>
      )}
    </MineListPage>
  );
}
