'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm';
import { useApi } from '@/components/shell/api-provider';
import { showToast } from '@/components/ui/toast';

/** Cancels an unpaid order after a confirm sheet, says so in a toast (issue 30), and the records page then shows it cancelled. */
export function CancelOrderButton({ orderNo }: { orderNo: string }) {
  const t = useTranslations('orders');
  const common = useTranslations('common');
  const api = useApi();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="default"
      size="md"
      loading={busy}
      onClick={async () => {
        try {
          await confirm({
            title: common('prompt'),
            content: t('cancelConfirm'),
            cancelText: common('cancel'),
            confirmText: common('confirm'),
          });
        } catch {
          return;
        }
        setBusy(true);
        try {
          await api.post('/market/api/order/cancel', { orderNo });
          showToast('success', t('cancelledToast'));
        } catch {
          // shown by the client (spec §8)
        }
        setBusy(false);
        router.refresh();
      }}
    >
      {t('cancel')}
    </Button>
  );
}
