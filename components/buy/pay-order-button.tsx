'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { useApi } from '@/components/shell/api-provider';

/** Opens a new payment for an unpaid order and goes to pay (retry after a failure, "continue paying" in the records). */
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
          const { payUrl } = await api.post('/market/api/pay/create', { orderNo });
          router.push(payUrl);
        } catch {
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
