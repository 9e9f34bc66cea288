import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { loadPageOrder } from '@/lib/page/order';
import { ORDER_STATUS } from '@/lib/order/status';
import { formatFen } from '@/lib/format/money';
import { ArtImage } from '@/components/ui/art-image';
import { Countdown } from '@/components/buy/countdown';
import { PayOrderButton } from '@/components/buy/pay-order-button';
import { Card } from '@/components/ui/card';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await loadPageChannel(params);
  return { title: t('result.failTitle'), robots: { index: false } };
}

/** /pay/fail (spec §2 payFail): the channel's payFailImg; retry while the order is still payable, else why it is not. */
export default async function PayFailPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { orderNo } = await searchParams;
  const order = await loadPageOrder(channel, `/pay/fail?orderNo=${orderNo ?? ''}`, orderNo);
  if (order.statusTrade === ORDER_STATUS.paid) redirect(`/pay/success?orderNo=${order.orderNo}`);
  const { t, skin, theme } = channel;
  const payable = order.statusTrade === ORDER_STATUS.toPay;
  const body = payable ? t('result.failBody') : order.cancelReason === 'paidLate' ? t('result.refundedBody') : t('result.closedBody');
  return (
    <main className="flex flex-col items-center px-5 pt-8 pb-[1.6rem] text-center">
      <ArtImage
        src={skin.payFailImg}
        alt=""
        width={240}
        height={240}
        sizes="2.4rem"
        className="size-[2.4rem]"
        placeholderColor={skin.lightColor}
        priority
      />
      <h1 className="mt-4 text-xl font-semibold text-skin-1">{t('result.failTitle')}</h1>
      <p className="mt-1.5 text-sm text-neutral-500" data-testid="pay-fail-body">
        {body}
      </p>
      <Card as="section" className="mt-6 w-full p-4 text-left">
        <p className="truncate text-base font-semibold text-skin-1">
          {order.commodity.name} × {order.quantity}
        </p>
        {theme.showAmount ? <p className="text-sm font-semibold text-skin-sign">{formatFen(order.pricePay)}</p> : null}
        {payable ? (
          <p className="mt-2 text-sm text-neutral-500">
            {t('cashier.timeLeft')}{' '}
            <Countdown until={order.expireTime} className="font-semibold text-skin-sign" testId="pay-fail-countdown" />
          </p>
        ) : null}
      </Card>
      <div className="mt-6 flex w-full flex-col gap-3">
        {payable ? <PayOrderButton orderNo={order.orderNo} label={t('result.retry')} className="w-full" /> : null}
        <Link
          href={`/goods/detail/${order.saleId}`}
          className="flex h-[0.88rem] items-center justify-center rounded-full border border-black/10 bg-skin-card text-base font-semibold text-skin-1"
        >
          {t('result.backToGoods')}
        </Link>
      </div>
    </main>
  );
}
