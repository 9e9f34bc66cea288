import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { loadPageOrder } from '@/lib/page/order';
import { ORDER_STATUS } from '@/lib/order/status';
import { formatFen } from '@/lib/format/money';
import { ArtImage } from '@/components/ui/art-image';
import { Card } from '@/components/ui/card';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('result.successTitle'), robots: { index: false } };
}

/** /pay/success (spec §2 paySuccess): the channel's paySuccessImg, what was bought, its edition numbers, where to see it. */
export default async function PaySuccessPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { orderNo } = await searchParams;
  const order = await loadPageOrder(channel, `/pay/success?orderNo=${orderNo ?? ''}`, orderNo);
  if (order.statusTrade !== ORDER_STATUS.paid) redirect(`/pay/fail?orderNo=${order.orderNo}`);
  const { t, skin, theme } = channel;
  const link = 'flex h-[0.88rem] items-center justify-center rounded-full text-base font-semibold';
  return (
    <main className="flex flex-col items-center px-5 pt-8 pb-[1.6rem] text-center">
      <ArtImage
        src={skin.paySuccessImg}
        alt=""
        width={240}
        height={240}
        sizes="2.4rem"
        className="size-[2.4rem]"
        placeholderColor={skin.lightColor}
        priority
      />
      <h1 className="mt-4 text-xl font-semibold text-skin-1">{t('result.successTitle')}</h1>
      <p className="mt-1.5 text-sm text-neutral-500">{t('result.successBody')}</p>
      <Card as="section" className="mt-6 w-full p-4 text-left" data-testid="pay-success-order">
        <div className="flex items-center gap-3">
          <ArtImage
            src={order.commodity.cover}
            alt=""
            width={600}
            height={600}
            sizes="1.2rem"
            className="size-[1.2rem] shrink-0 rounded-lg object-cover"
            placeholderColor={skin.lightColor}
          />
          <div className="min-w-0 flex-1">
            <p className="truncate text-base font-semibold text-skin-1">{order.commodity.name}</p>
            <p className="text-sm text-neutral-500">
              × {order.quantity}
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
      <div className="mt-6 flex w-full flex-col gap-3">
        <Link
          href={order.commodity.isBlindBox ? '/mine/box' : '/mine/collection'}
          className={`${link} bg-skin-button text-skin-button-text shadow-card`}
        >
          {order.commodity.isBlindBox ? t('result.toBoxes') : t('result.toCollection')}
        </Link>
        <Link href="/mine/records" className={`${link} border border-black/10 bg-skin-card text-skin-1`}>
          {t('result.toOrders')}
        </Link>
      </div>
    </main>
  );
}
