'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { useApi } from '@/components/shell/api-provider';
import { BusinessError } from '@/lib/client/api-client';
import { REASON, type RefusalData } from '@/lib/procedure/reasons';
import { wechatOauthStartPath } from '@/lib/payment/clients';
import { goPay, navigation } from './go-pay';

/**
 * Opens a new payment for an unpaid order and goes to pay (retry after a failure, "continue paying" in the records),
 * through the provider the order was last paid with when it fits this browser, else the only one that does.
 */
export function PayOrderButton({
  orderNo,
  label,
  size = 'default',
  className = '',
}: {
  orderNo: string;
  label: string;
  size?: 'default' | 'md';
  className?: string;
}) {
  const api = useApi();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="primary"
      size={size}
      loading={busy}
      className={className}
      onClick={async () => {
        setBusy(true);
        try {
          const payment = await api.post('/market/api/pay/create', { orderNo });
          if (!(await goPay(payment, router))) {
            setBusy(false);
            router.refresh();
          }
        } catch (error) {
          // Inside WeChat, WeChat Pay needs the buyer's WeChat identity first: learnt, then back here to pay.
          if (error instanceof BusinessError && (error.data as RefusalData | null)?.reason === REASON.openid) {
            navigation.leave(wechatOauthStartPath(`${window.location.pathname}${window.location.search}`));
            return;
          }
          // The client showed why (spec §8); the page refreshes to the order's true state.
          setBusy(false);
          router.refresh();
        }
      }}
    >
      {label}
    </Button>
  );
}
