import { formatCount } from '@/lib/format/count';
import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { loadPageOrder } from '@/lib/page/order';
import { ORDER_STATUS, orderState } from '@/lib/order/status';
import { formatFen } from '@/lib/format/money';
import { ButtonLink } from '@/components/ui/button-link';
import { ResultScreen } from '@/components/ui/result-screen';
import { Countdown } from '@/components/buy/countdown';
import { PayOrderButton } from '@/components/buy/pay-order-button';
import { Card } from '@/components/ui/card';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const generateMetadata = titledPage(({ t }) => t('result.failTitle'));

/** /pay/fail (spec §2 payFail): the channel's payFailImg; retry while the order is still payable, else why it is not. */
export default async function PayFailPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { orderNo } = await searchParams;
  const order = await loadPageOrder(channel, `/pay/fail?orderNo=${orderNo ?? ''}`, orderNo);
  if (order.statusTrade === ORDER_STATUS.paid) redirect(`/pay/success?orderNo=${order.orderNo}`);
  const { t, skin, theme } = channel;
  const payable = order.statusTrade === ORDER_STATUS.toPay;
  // Why it cannot be paid, as the buyer knows it: they cancelled it, it ran out of time, or it was refunded (issue 30).
  const body = {
    toPay: t('result.failBody'),
    paid: t('result.failBody'),
    cancelled: t('result.cancelledBody'),
    expired: t('result.expiredBody'),
    closed: t('result.refundedBody'),
  }[orderState(order)];
  return (
    <ResultScreen
      image={skin.payFailImg}
      placeholderColor={skin.lightColor}
      title={t('result.failTitle')}
      message={body}
      messageTestId="pay-fail-body"
      actions={
        <>
          {payable ? <PayOrderButton orderNo={order.orderNo} label={t('result.retry')} className="w-full" /> : null}
          <ButtonLink href={`/goods/detail/${order.saleId}`} look="secondary">
            {t('result.backToGoods')}
          </ButtonLink>
        </>
      }
    >
      <Card as="section" className="p-4">
        <p className="truncate text-base font-semibold text-skin-1">
          {order.commodity.name} × {formatCount(order.quantity, channel.locale)}
        </p>
        {theme.showAmount ? <p className="text-sm font-semibold text-skin-sign">{formatFen(order.pricePay)}</p> : null}
        {payable ? (
          <p className="mt-2 text-sm text-neutral-500">
            {t('cashier.timeLeft')}{' '}
            <Countdown until={order.expireTime} className="font-semibold text-skin-sign" testId="pay-fail-countdown" />
          </p>
        ) : null}
      </Card>
    </ResultScreen>
  );
}
