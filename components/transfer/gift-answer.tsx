'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useSWRConfig } from 'swr';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { MINE_STATE_PATH } from '@/components/mine/mine-state';
import { BusinessError } from '@/lib/client/api-client';

/**
 * Accept and Refuse of one incoming gift (issue 36, /mine/gifts), each after a confirm sheet: accepting is final, so
 * the sheet says so. Answered, the page is read again (the gift leaves the list) and Mine's count with it.
 */
export function GiftAnswer({ transferId, goods, number, from }: { transferId: string; goods: string; number: number; from: string }) {
  const t = useTranslations('transfer');
  const common = useTranslations('common');
  const api = useApi();
  const router = useRouter();
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState<'accept' | 'refuse' | null>(null);

  const answer = async (how: 'accept' | 'refuse') => {
    if (busy) return;
    try {
      await confirm({
        title: t(how === 'accept' ? 'acceptTitle' : 'refuseTitle'),
        content: t(how === 'accept' ? 'acceptBody' : 'refuseBody', { goods, number, name: from }),
        cancelText: common('cancel'),
        confirmText: t(how),
      });
    } catch {
      return;
    }
    setBusy(how);
    try {
      await api.post(how === 'accept' ? '/market/api/transfer/accept' : '/market/api/transfer/refuse', { transferId });
      showToast('success', how === 'accept' ? t('accepted', { goods, number }) : t('refused', { name: from }));
      void mutate(MINE_STATE_PATH);
      router.refresh();
    } catch (error) {
      // Answered or expired meanwhile: show the list as it is now.
      if (error instanceof BusinessError && error.code === 409) router.refresh();
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="mt-3 grid grid-cols-2 gap-2">
      <Button size="md" loading={busy === 'refuse'} onClick={() => answer('refuse')}>
        <span data-testid="gift-refuse">{t('refuse')}</span>
      </Button>
      <Button type="primary" size="md" loading={busy === 'accept'} onClick={() => answer('accept')}>
        <span data-testid="gift-accept">{t('accept')}</span>
      </Button>
    </div>
  );
}
