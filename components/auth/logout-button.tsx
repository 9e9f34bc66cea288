'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { confirm } from '@/components/ui/confirm';
import { Card } from '@/components/ui/card';
import { useStorefrontStore } from '@/components/shell/storefront-provider';
import { endWebSession } from '@/lib/client/sign-out';

/** spec §4 logout: after a confirm sheet, clears token and user info, the server revokes the token, then /login. */
export function LogoutButton() {
  const t = useTranslations('mine');
  const common = useTranslations('common');
  const store = useStorefrontStore();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <Card
      as="button"
      type="button"
      disabled={busy}
      onClick={async () => {
        try {
          await confirm({
            title: common('prompt'),
            content: t('logoutConfirm'),
            cancelText: common('cancel'),
            confirmText: common('confirm'),
          });
        } catch {
          return; // cancelled
        }
        setBusy(true);
        store.getState().clearUser();
        await endWebSession();
        store.getState().setRouterType('replace');
        router.replace('/login');
        router.refresh();
      }}
      className="h-[0.88rem] w-full text-base text-neutral-600 active:scale-[0.99] disabled:opacity-60"
    >
      {t('logout')}
    </Card>
  );
}
