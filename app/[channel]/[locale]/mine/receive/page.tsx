import type { Metadata } from 'next';
import { pageFromSearch } from '@/lib/procedure/paging';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { listReceived } from '@/lib/gift/service';
import { formatDate } from '@/lib/format/date';
import { PageHeader } from '@/components/layout/page-header';
import { ArtImage } from '@/components/ui/art-image';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { wayForward } from '@/lib/page/empty-action';
import { RecordPager } from '@/components/ui/pager';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 10;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('gift.recordsTitle'), robots: { index: false } };
}

/** /mine/receive (spec §2 mineReceive, login required): the gifts the user received on this channel, newest first, paged. */
export default async function ReceiveRecordsPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const scope = await requirePageScope(channel, '/mine/receive');
  const { page: pageParam } = await searchParams;
  const page = pageFromSearch(pageParam);
  const records = await listReceived(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t, skin, theme } = channel;
  return (
    <>
      <PageHeader title={t('gift.recordsTitle')} backHref="/mine" backLabel={t('goods.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        {records.records.length === 0 ? (
          <EmptyState art="gift" action={wayForward(channel, ['gifts', 'sales'])} data-testid="receive-empty">
            {t('gift.recordsEmpty')}
          </EmptyState>
        ) : (
          <ul className="flex flex-col gap-3" data-testid="receive-records">
            {records.records.map((r) => (
              <Card as="li" key={r.id} className="flex gap-3 p-3" data-testid="receive-record">
                <ArtImage
                  src={r.commodity.cover}
                  alt=""
                  width={600}
                  height={600}
                  sizes="1.2rem"
                  className="size-[1.2rem] shrink-0 rounded-lg object-cover"
                  placeholderColor={skin.lightColor}
                />
                <div className="flex min-w-0 flex-1 flex-col justify-between">
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
                </div>
              </Card>
            ))}
          </ul>
        )}
        <RecordPager path="/mine/receive" page={page} pages={records.pages} newer={t('home.back')} older={t('orders.more')} look="link" />
      </main>
    </>
  );
}
