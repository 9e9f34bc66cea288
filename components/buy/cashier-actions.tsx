'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { useApi } from '@/components/shell/api-provider';
import { ORDER_STATUS } from '@/lib/order/status';

/** The sandbox cashier's two buttons: settle the payment as the provider would, then show the result page. */
export function CashierActions({ paymentNo, orderNo }: { paymentNo: string; orderNo: string }) {
  const t = useTranslations('cashier');
  const api = useApi();
  const router = useRouter();
  const [busy, setBusy] = useState<'paid' | 'failed' | null>(null);
  const settle = async (outcome: 'paid' | 'failed') => {
    setBusy(outcome);
    try {
      const result = await api.post('/market/api/pay/sandbox/complete', { paymentNo, outcome });
      const paid = result.order.statusTrade === ORDER_STATUS.paid;
      router.replace(`/pay/${paid ? 'success' : 'fail'}?orderNo=${encodeURIComponent(orderNo)}`);
    } catch {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <Button type="primary" loading={busy === 'paid'} disabled={busy !== null} onClick={() => void settle('paid')} className="w-full">
        {t('pay')}
      </Button>
      <Button type="default" loading={busy === 'failed'} disabled={busy !== null} onClick={() => void settle('failed')} className="w-full">
        {t('fail')}
      </Button>
    </div>
  );
}
