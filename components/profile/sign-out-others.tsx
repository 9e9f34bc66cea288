'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { confirm } from '@/components/ui/confirm';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';

/** "Sign out of all other sessions" (issue 36): after a confirm sheet, `profile/signOutOthers`, then the list again. */
export function SignOutOthers() {
  const t = useTranslations('profile');
  const common = useTranslations('common');
  const api = useApi();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        try {
          await confirm({
            title: common('prompt'),
            content: t('signOutOthersConfirm'),
            cancelText: common('cancel'),
            confirmText: common('confirm'),
          });
        } catch {
          return; // cancelled
        }
        setBusy(true);
        try {
          const { ended } = await api.post('/market/api/profile/signOutOthers', {});
          showToast('success', t('signedOutOthers', { count: ended }));
          router.refresh();
        } catch {
          // The API client said why.
        } finally {
          setBusy(false);
        }
      }}
      className="h-[0.72rem] w-full rounded-full border border-skin-button text-sm font-medium text-skin-1 active:scale-[0.99] disabled:opacity-60"
      data-testid="profile-sign-out-others"
    >
      {t('signOutOthers')}
    </button>
  );
}
