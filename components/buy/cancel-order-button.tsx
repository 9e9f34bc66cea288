'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-sheet';
import { useApi } from '@/components/shell/api-provider';

/** Cancels an unpaid order after a confirm sheet; the records page then shows it cancelled. */
export function CancelOrderButton({ orderNo, texts }: { orderNo: string; texts: { cancel: string; question: string; title: string; no: string; yes: string } }) {
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
          await confirm({ title: texts.title, content: texts.question, cancelText: texts.no, confirmText: texts.yes });
        } catch {
          return;
        }
        setBusy(true);
        try {
          await api.post('/market/api/order/cancel', { orderNo });
        } catch {
          // shown by the client (spec §8)
        }
        setBusy(false);
        router.refresh();
      }}
    >
      {texts.cancel}
    </Button>
  );
}
