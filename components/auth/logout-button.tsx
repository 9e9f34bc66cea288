'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useStorefrontStore } from '@/components/shell/storefront-provider';
import { endWebSession } from '@/lib/client/sign-out';

/** spec §4 logout: after a confirm sheet, clears token and user info, the server revokes the token, then /login. */
export function LogoutButton() {
  const t = useTranslations('mine');
  const store = useStorefrontStore();
  const router = useRouter();
  return (
    <ConfirmButton
      card
      staysBusy
      question={t('logoutConfirm')}
      onConfirmed={async () => {
        store.getState().clearUser();
        await endWebSession();
        store.getState().setRouterType('replace');
        router.replace('/login');
        router.refresh();
      }}
      className="h-[0.88rem] w-full text-base text-neutral-600 active:scale-[0.99] disabled:opacity-60"
    >
      {t('logout')}
    </ConfirmButton>
  );
}
