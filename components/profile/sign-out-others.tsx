'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';

/** "Sign out of all other sessions" (issue 36): after a confirm sheet, `profile/signOutOthers`, then the list again. */
export function SignOutOthers() {
  const t = useTranslations('profile');
  const api = useApi();
  const router = useRouter();
  return (
    <ConfirmButton
      question={t('signOutOthersConfirm')}
      onConfirmed={async () => {
        const { ended } = await api.post('/market/api/profile/signOutOthers', {});
        showToast('success', t('signedOutOthers', { count: ended }));
        router.refresh();
      }}
      className="h-[0.72rem] w-full rounded-full border border-skin-button text-sm font-medium text-skin-1 active:scale-[0.99] disabled:opacity-60"
      data-testid="profile-sign-out-others"
    >
      {t('signOutOthers')}
    </ConfirmButton>
  );
}
