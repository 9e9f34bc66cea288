import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { requirePageScope } from '@/lib/page/session';
import { env } from '@/lib/env';
import { sandboxPaymentInfo } from '@/lib/payment/service';
import { ORDER_STATUS, orderState } from '@/lib/order/status';
import { foundOr404 } from '@/lib/page/found';
import { formatFen } from '@/lib/format/money';
import { PageHeader } from '@/components/layout/page-header';
import { Countdown } from '@/components/buy/countdown';
import { CashierActions } from '@/components/buy/cashier-actions';
import { Card } from '@/components/ui/card';
import { ClientMessages } from '@/components/shell/client-messages';

type Props = { params: Promise<PageParams & { paymentNo: string }> };

export const generateMetadata = titledPage(({ t }) => t('cashier.title'));

/**
 * The payment sandbox's cashier (DESIGN §7): plays the payment provider's page. It says plainly that no money moves;
 * its buttons settle the payment the way a provider would (a signed notification to the store). Always shows the
 * amount, even on channels that hide amounts: a cashier must say what it charges.
 */
export default async function SandboxCashierPage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const { paymentNo } = await params;
  const scope = await requirePageScope(channel, `/sandbox/cashier/${paymentNo}`);
  if (!env().PAYMENT_PROVIDERS.includes('sandbox') || !/^P\d{21}$/.test(paymentNo)) redirect('/404');
  const info = await foundOr404(sandboxPaymentInfo(scope, paymentNo));
  const { t } = channel;
  const open = info.status === 'created' && info.order.statusTrade === ORDER_STATUS.toPay;
  return (
    <>
      <PageHeader title={t('cashier.title')} backHref={`/pay/fail?orderNo=${info.order.orderNo}`} backLabel={t('goods.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        <p className="rounded-xl bg-amber-50 p-3 text-sm leading-relaxed text-amber-900" role="note">
          {t('cashier.notice')}
        </p>
        <Card as="section" className="p-5 text-center" data-testid="cashier">
          <p className="text-sm text-neutral-500">{t('cashier.merchant', { name: channel.theme.brandName })}</p>
          <p className="mt-2 text-[0.64rem] leading-tight font-bold text-neutral-900" data-testid="cashier-amount">
            {formatFen(info.amount)}
          </p>
          <p className="mt-1 text-sm text-neutral-600">
            {t('cashier.item', { name: info.order.commodity.name, quantity: info.order.quantity })}
          </p>
          {open ? (
            <p className="mt-3 text-sm text-neutral-500">
              {t('cashier.timeLeft')}{' '}
              <Countdown until={info.order.expireTime} className="font-semibold text-skin-sign" testId="cashier-countdown" />
            </p>
          ) : null}
        </Card>
        {open ? (
          <ClientMessages channel={channel} namespaces={['cashier']}>
            <CashierActions paymentNo={paymentNo} orderNo={info.order.orderNo} />
          </ClientMessages>
        ) : (
          <Card as="p" className="p-4 text-center text-sm text-neutral-600" data-testid="cashier-closed">
            {/* A cancelled order read "expired", and so did a paid one (issue 30). */}
            {
              {
                toPay: t('cashier.done'),
                paid: t('cashier.done'),
                closed: t('cashier.done'),
                cancelled: t('cashier.cancelled'),
                expired: t('cashier.expired'),
              }[orderState(info.order)]
            }
          </Card>
        )}
      </main>
    </>
  );
}
