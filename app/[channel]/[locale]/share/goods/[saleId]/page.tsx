import Link from 'next/link';
import { loadPageSale, type SalePageParams } from '@/lib/page/sale';
import { titledPage } from '@/lib/page/metadata';
import { getPageUser } from '@/lib/page/session';
import { getDb } from '@/lib/db/client';
import { publicOrigin } from '@/lib/env';
import { formatFen } from '@/lib/format/money';
import { goodsShareUrl, shareCodeOf } from '@/lib/share/codes';
import { sharerFigures } from '@/lib/share/attribution';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { ShareActions } from '@/components/share/share-actions';
import { shareLabels } from '@/components/share/share-labels';

type Props = { params: Promise<SalePageParams> };

export const generateMetadata = titledPage(({ t }) => t('share.title'));

/**
 * /share/goods/<saleId> (issue 36, docs/sharing.md): the share sheet of a sale, reached from the goods page's Share link
 * (a plain link, so the goods page carries no script for it). A logged-in buyer shares the goods link with their share
 * code (`?from=`) and sees what their links brought; a visitor shares the plain link. The poster is open to both (the
 * visitor's carries the plain link).
 */
export default async function ShareGoodsPage({ params }: Props) {
  const { channel, sale } = await loadPageSale(params);
  const { t, skin, theme } = channel;
  const user = await getPageUser(channel);
  const db = getDb();
  const code = user ? await shareCodeOf(db, channel.id, user.id, new Date()) : null;
  const figures = user ? await sharerFigures(db, channel.id, user.id) : null;
  const url = goodsShareUrl(publicOrigin(channel.publicHost), sale.id, code);
  const posterUrl = `/api/share/poster/${sale.id}${code ? `?from=${code}` : ''}`;
  const here = `/share/goods/${sale.id}`;

  return (
    <>
      <PageHeader title={t('share.title')} backHref={`/goods/detail/${sale.id}`} backLabel={t('share.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-6">
        <Card as="section" className="flex items-center gap-3 p-4">
          <CollectibleArt
            collectible={{ cover: sale.commodity.cover, name: sale.commodity.name }}
            width="1.2rem"
            placeholderColor={skin.lightColor}
          />
          <div className="min-w-0">
            <h1 className="truncate text-base font-semibold text-skin-1" data-testid="share-sale-name">
              {sale.commodity.name}
            </h1>
            {theme.showAmount && <p className="text-lg font-bold text-skin-sign">{formatFen(sale.price)}</p>}
          </div>
        </Card>
        <Card as="section" className="p-4">
          <ShareActions url={url} title={sale.commodity.name} posterUrl={posterUrl} labels={shareLabels(t, sale.commodity.name)} />
        </Card>
        {figures ? (
          <p className="px-1 text-sm text-neutral-600" data-testid="share-figures">
            {t('share.yours', { visits: figures.visits, buys: figures.buys })}
          </p>
        ) : (
          <p className="px-1 text-sm text-neutral-600" data-testid="share-login-hint">
            {t('share.loginHint')}{' '}
            <Link href={`/login?redirect=${encodeURIComponent(here)}`} className="font-semibold text-skin-1 underline underline-offset-2">
              {t('share.logIn')}
            </Link>
          </p>
        )}
      </main>
    </>
  );
}
