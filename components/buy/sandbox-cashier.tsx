'use client';

import { useEffect } from 'react';
import { usePathname, useRouter } from 'next/navigation';
import useSWR from 'swr';
import { useTranslations } from 'use-intl';
import { ORDER_STATUS, orderState, PAYMENT_NO } from '@/lib/order/status';
import type { z } from 'zod';
import type { sandboxPaymentSchema } from '@/lib/payment/schema';
import { formatFen } from '@/lib/format/money';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { Countdown } from './countdown';
import { CashierActions } from './cashier-actions';
import { LoadFailed } from '@/components/ui/load-failed';

/** The one call the cashier reads its payment from (issue 34; lib/channel/routes.ts `shared.buyerPart`). */
export const CASHIER_DETAIL_PATH = '/market/api/pay/sandbox/detail';

/** pay/sandbox/detail's answer. */
export type SandboxPayment = z.infer<typeof sandboxPaymentSchema>;

/**
 * The payment sandbox's cashier, its client part (DESIGN §7; issue 34): the page's HTML is the same for every payment
 * (served from the rendered-page cache), so the payment is read here through pay/sandbox/detail. It always shows the
 * amount, even on channels that hide amounts: a cashier must say what it charges. A payment that is not the buyer's (or
 * no payment at all) goes to /404; a session the server refused goes to /login (ApiProvider's fetcher). The back link
 * leads to the order's /pay/fail page once the payment is read.
 */
export function SandboxCashier({ merchant, backLabel }: { merchant: string; backLabel: string }) {
  const t = useTranslations('cashier');
  const router = useRouter();
  // The number from the address: the page's HTML was rendered for every payment.
  const paymentNo = usePathname().split('/').pop() ?? '';
  const valid = PAYMENT_NO.test(paymentNo);
  const { data, error, mutate } = useSWR<SandboxPayment>(valid ? [CASHIER_DETAIL_PATH, { paymentNo }] : null);
  const missing = !valid || (error as { code?: number } | undefined)?.code === 404;

  useEffect(() => {
    if (missing) router.replace('/404');
  }, [missing, router]);

  const open = data !== undefined && data.status === 'created' && data.order.statusTrade === ORDER_STATUS.toPay;
  return (
    <>
      <PageHeader title={t('title')} backHref={data ? `/pay/fail?orderNo=${data.order.orderNo}` : '/'} backLabel={backLabel} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        <p className="rounded-xl bg-amber-50 p-3 text-sm leading-relaxed text-amber-900" role="note">
          {t('notice')}
        </p>
        <Card as="section" className="p-5 text-center" data-testid="cashier" aria-busy={data ? undefined : true}>
          <p className="text-sm text-neutral-500">{t('merchant', { name: merchant })}</p>
          {data ? (
            <>
              <p className="mt-2 text-[0.64rem] leading-tight font-bold text-neutral-900" data-testid="cashier-amount">
                {formatFen(data.amount)}
              </p>
              <p className="mt-1 text-sm text-neutral-600">
                {t('item', { name: data.order.commodity.name, quantity: data.order.quantity })}
              </p>
              {open ? (
                <p className="mt-3 text-sm text-neutral-500">
                  {t('timeLeft')}{' '}
                  <Countdown
                    until={data.order.expireTime}
                    onEnd={() => void mutate()}
                    className="font-semibold text-skin-sign"
                    testId="cashier-countdown"
                  />
                </p>
              ) : null}
            </>
          ) : (
            <p className="mt-2 text-sm text-neutral-500" data-testid="cashier-loading">
              {t('loading')}
            </p>
          )}
        </Card>
        {error && !missing ? (
          <LoadFailed message={t('loadFailed')} again={t('loadAgain')} onRetry={() => void mutate()} testId="cashier-failed" />
        ) : null}
        {!data ? null : open ? (
          <CashierActions paymentNo={data.paymentNo} orderNo={data.order.orderNo} />
        ) : (
          <Card as="p" className="p-4 text-center text-sm text-neutral-600" data-testid="cashier-closed">
            {/* A cancelled order read "expired", and so did a paid one (issue 30). */}
            {
              {
                toPay: t('done'),
                paid: t('done'),
                closed: t('done'),
                cancelled: t('cancelled'),
                expired: t('expired'),
              }[orderState(data.order)]
            }
          </Card>
        )}
      </main>
    </>
  );
}
