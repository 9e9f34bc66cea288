import { formatCount } from '@/lib/format/count';
import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { loadPageOrder } from '@/lib/page/order';
import { ORDER_STATUS } from '@/lib/order/status';
import { formatFen } from '@/lib/format/money';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { ButtonLink } from '@/components/ui/button-link';
import { ResultScreen } from '@/components/ui/result-screen';
import { Card } from '@/components/ui/card';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const generateMetadata = titledPage(({ t }) => t('result.successTitle'));

/** /pay/success (spec §2 paySuccess): the channel's paySuccessImg, what was bought, its edition numbers, where to see it. */
export default async function PaySuccessPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { orderNo } = await searchParams;
  const order = await loadPageOrder(channel, `/pay/success?orderNo=${orderNo ?? ''}`, orderNo);
  if (order.statusTrade !== ORDER_STATUS.paid) redirect(`/pay/fail?orderNo=${order.orderNo}`);
  const { t, skin, theme } = channel;
  return (
    <ResultScreen
      image={skin.paySuccessImg}
      placeholderColor={skin.lightColor}
      title={t('result.successTitle')}
      message={t('result.successBody')}
      actions={
        <>
          <ButtonLink href={order.commodity.isBlindBox ? '/mine/box' : '/mine/collection'}>
            {order.commodity.isBlindBox ? t('result.toBoxes') : t('result.toCollection')}
          </ButtonLink>
          <ButtonLink href="/mine/records" look="secondary">
            {t('result.toOrders')}
          </ButtonLink>
        </>
      }
    >
      <Card as="section" className="p-4" data-testid="pay-success-order">
        <div className="flex items-center gap-3">
          <CollectibleArt collectible={order.commodity} width="1.2rem" placeholderColor={skin.lightColor} />
          <div className="min-w-0 flex-1">
            <p className="truncate text-base font-semibold text-skin-1">{order.commodity.name}</p>
            <p className="text-sm text-neutral-500">
              × {formatCount(order.quantity, channel.locale)}
              {theme.showAmount ? <span className="ml-2 font-semibold text-skin-sign">{formatFen(order.pricePay)}</span> : null}
            </p>
          </div>
        </div>
        <p className="mt-4 text-xs text-neutral-500">{t('result.editions')}</p>
        <ul className="mt-1.5 flex flex-wrap gap-2" data-testid="pay-success-editions">
          {order.editions.map((e) => (
            <li key={e.holdingId} className="rounded-full bg-skin-light px-3 py-1 text-sm font-semibold text-skin-1">
              #{e.number}/{e.amountNumber}
            </li>
          ))}
        </ul>
      </Card>
    </ResultScreen>
  );
}
