import Link from 'next/link';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { requirePageScope } from '@/lib/page/session';
import { listUnopenedBoxes } from '@/lib/collection/service';
import { listBlindBoxSales } from '@/lib/sale/service';
import { SALE_STATUS } from '@/lib/sale/status';
import { PageHeader } from '@/components/layout/page-header';
import { BoxList } from '@/components/buy/box-list';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { wayForward } from '@/lib/page/empty-action';
import { ClientMessages } from '@/components/shell/client-messages';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('box.title'));

/** /mine/box (spec §2 mineBox, login required): the buyer's unopened blind boxes, opened here; the odds of the channel's boxes. */
export default async function MyBoxesPage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const scope = await requirePageScope(channel, '/mine/box');
  const [boxes, boxSales] = await Promise.all([listUnopenedBoxes(scope), listBlindBoxSales(scope)]);
  const { t, skin } = channel;
  const onSale = boxSales.filter((s) => s.statusSell === SALE_STATUS.ON_SALE);
  return (
    <>
      <PageHeader title={t('box.title')} backHref="/mine" backLabel={t('goods.back')} />
      <main className="flex flex-col gap-4 px-3 pt-3 pb-[1.6rem]">
        {boxes.length === 0 ? (
          <EmptyState art="box" action={wayForward(channel)} data-testid="boxes-empty">
            {t('box.empty')}
          </EmptyState>
        ) : (
          <ClientMessages channel={channel} namespaces={['box']}>
            <BoxList boxes={boxes} placeholderColor={skin.lightColor} />
          </ClientMessages>
        )}
        {onSale.map((s) => (
          <Card as="section" key={s.id} className="p-4" aria-label={s.commodity.name}>
            <div className="mb-2 flex items-center justify-between">
              <h2 className="text-base font-semibold text-skin-1">{s.commodity.name}</h2>
              <Link href={`/goods/detail/${s.id}`} className="text-sm text-skin-1 underline underline-offset-2">
                {t('box.shop')}
              </Link>
            </div>
            <p className="mb-1 text-xs text-neutral-500">{t('box.odds')}</p>
            <ul className="flex flex-col gap-1 text-sm">
              {s.odds.map((o) => (
                <li key={o.name} className="flex justify-between text-neutral-700">
                  <span>{o.name}</span>
                  <span className="font-semibold text-skin-1">{o.percent}</span>
                </li>
              ))}
            </ul>
          </Card>
        ))}
      </main>
    </>
  );
}
