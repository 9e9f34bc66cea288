'use client';

import { useEffect } from 'react';
import { useRouter, useSearchParams } from 'next/navigation';
import useSWR from 'swr';
import { useLocale, useTranslations } from 'use-intl';
import { ORDER_NO, ORDER_STATUS } from '@/lib/order/status';
import type { OrderView } from '@/lib/order/schema';
import { formatCount } from '@/lib/format/count';
import { formatFen } from '@/lib/format/money';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { ButtonLink } from '@/components/ui/button-link';
import { ResultScreen } from '@/components/ui/result-screen';
import { Card } from '@/components/ui/card';
import { LoadFailed } from '@/components/ui/load-failed';

/** The one call the result page reads its buyer's part from (issue 34; lib/channel/routes.ts `shared.buyerPart`). */
export const PAY_RESULT_PATH = '/market/api/pay/query';

/**
 * The result page's client part (spec §2 paySuccess; issue 34): the page's HTML is the same for every buyer (served
 * from the rendered-page cache), so the order is read here, once the page is shown, through `pay/query` (the provider
 * asked about an open payment first, as the page did on the server). A paid order shows what was bought, its edition
 * numbers and where to see it; an order not paid goes to /pay/fail, as the page's redirect did; a number that is not
 * an order of the buyer goes to /404 (ApiProvider's fetcher sends a session the server refused to /login).
 */
export function PaySuccessPanel({ image, placeholderColor, showAmount }: { image: string; placeholderColor: string; showAmount: boolean }) {
  const t = useTranslations('result');
  const locale = useLocale();
  const router = useRouter();
  const orderNo = useSearchParams().get('orderNo') ?? '';
  const valid = ORDER_NO.test(orderNo);
  const { data: order, error, mutate } = useSWR<OrderView>(valid ? [PAY_RESULT_PATH, { orderNo }] : null);
  const notPaid = order !== undefined && order.statusTrade !== ORDER_STATUS.paid;
  const missing = !valid || (error as { code?: number } | undefined)?.code === 404;

  useEffect(() => {
    if (missing) router.replace('/404');
    else if (notPaid) router.replace(`/pay/fail?orderNo=${order.orderNo}`);
  }, [missing, notPaid, order?.orderNo, router]);

  // The success picture only with a paid order: a payment that turns out unpaid goes to /pay/fail without having shown it.
  if (!order || notPaid) {
    return (
      <ResultScreen
        image={null}
        placeholderColor={placeholderColor}
        title={t('pending')}
        message=""
        messageTestId="pay-success-pending"
        actions={null}
      >
        {error && !missing ? (
          <LoadFailed message={t('loadFailed')} again={t('loadAgain')} onRetry={() => void mutate()} testId="pay-success-failed" />
        ) : null}
      </ResultScreen>
    );
  }
  return (
    <ResultScreen
      image={image}
      placeholderColor={placeholderColor}
      title={t('successTitle')}
      message={t('successBody')}
      actions={
        <>
          <ButtonLink href={order.commodity.isBlindBox ? '/mine/box' : '/mine/collection'}>
            {order.commodity.isBlindBox ? t('toBoxes') : t('toCollection')}
          </ButtonLink>
          <ButtonLink href="/mine/records" look="secondary">
            {t('toOrders')}
          </ButtonLink>
        </>
      }
    >
      <Card as="section" className="p-4" data-testid="pay-success-order">
        <div className="flex items-center gap-3">
          <CollectibleArt collectible={order.commodity} width="1.2rem" placeholderColor={placeholderColor} />
          <div className="min-w-0 flex-1">
            <p className="truncate text-base font-semibold text-skin-1">{order.commodity.name}</p>
            <p className="text-sm text-neutral-500">
              × {formatCount(order.quantity, locale)}
              {showAmount ? <span className="ml-2 font-semibold text-skin-sign">{formatFen(order.pricePay)}</span> : null}
            </p>
          </div>
        </div>
        <p className="mt-4 text-xs text-neutral-500">{t('editions')}</p>
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
