'use client';

import { useRef, useState } from 'react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { dismissToasts, showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { newTapKey } from '@/lib/client/tap-key';
import { BusinessError } from '@/lib/client/api-client';
import { formatFen } from '@/lib/format/money';
import { Card } from '@/components/ui/card';

/**
 * The pay page's form (the issue on buying): quantity within the sale's per-user limit and stock, the total (hidden
 * where the channel hides amounts), the sales terms, then "pay now": create the order, open its payment, go to pay.
 */
export function PayForm({
  saleId,
  price,
  max,
  limit,
  showAmount,
}: {
  saleId: string;
  price: number;
  max: number;
  limit: number;
  showAmount: boolean;
}) {
  const t = useTranslations('pay');
  const api = useApi();
  const router = useRouter();
  const [quantity, setQuantity] = useState(1);
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const key = useRef<{ value: string; quantity: number } | null>(null);

  const pay = async () => {
    if (!agreed) {
      showToast('warn', t('mustAgree'));
      return;
    }
    // The terms are agreed now: the warning that asked for it goes, rather than follow the buyer to pay.
    dismissToasts();
    if (!key.current || key.current.quantity !== quantity) key.current = { value: newTapKey(), quantity };
    setBusy(true);
    try {
      const order = await api.post('/market/api/order/create', { saleId, quantity, idempotencyKey: key.current.value });
      const payment = await api.post('/market/api/pay/create', { orderNo: order.orderNo });
      router.push(payment.payUrl);
    } catch (error) {
      // The client has shown why (spec §8). A refused order is final for this key; a sold-out sale goes to /sellout.
      if (error instanceof BusinessError) {
        key.current = null;
        const reason = (error.data as { reason?: string } | null)?.reason;
        if (reason === 'soldOut') router.replace('/sellout');
      }
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <Card className="flex items-center justify-between p-4">
        <div>
          <p className="text-base font-medium text-skin-1">{t('quantity')}</p>
          <p className="text-xs text-neutral-500">{t('limit', { limit })}</p>
        </div>
        <div className="flex items-center gap-1">
          <button
            type="button"
            aria-label={t('less')}
            disabled={quantity <= 1 || busy}
            onClick={() => setQuantity((q) => Math.max(1, q - 1))}
            className="flex size-9 items-center justify-center rounded-full border border-black/10 text-lg text-skin-1 disabled:opacity-40"
          >
            −
          </button>
          <output aria-live="polite" data-testid="pay-quantity" className="w-9 text-center text-base font-semibold text-skin-1">
            {quantity}
          </output>
          <button
            type="button"
            aria-label={t('more')}
            disabled={quantity >= max || busy}
            onClick={() => setQuantity((q) => Math.min(max, q + 1))}
            className="flex size-9 items-center justify-center rounded-full border border-black/10 text-lg text-skin-1 disabled:opacity-40"
          >
            +
          </button>
        </div>
      </Card>

      <label className="flex items-start gap-2 px-1 text-sm leading-snug text-neutral-600">
        <input
          type="checkbox"
          checked={agreed}
          onChange={(e) => setAgreed(e.target.checked)}
          className="mt-0.5 size-4 shrink-0 accent-(--skin-color1)"
        />
        <span>
          {t('agree')}{' '}
          <Link href="/agreement/salesStrategy" className="text-skin-1 underline underline-offset-2">
            {t('salesStrategy')}
          </Link>
        </span>
      </label>

      <div className="fixed inset-x-0 bottom-0 z-20 mx-auto flex max-w-(--container-app) items-center gap-3 border-t border-black/5 bg-skin-card px-4 py-2.5 pb-[max(0.2rem,env(safe-area-inset-bottom))]">
        {showAmount ? (
          <p className="text-sm text-neutral-600">
            {t('total')}{' '}
            <span data-testid="pay-total" className="text-lg font-bold text-skin-sign">
              {formatFen(price * quantity)}
            </span>
          </p>
        ) : null}
        <Button type="primary" loading={busy} onClick={() => void pay()} className="flex-1">
          {t('submit')}
        </Button>
      </div>
    </div>
  );
}
