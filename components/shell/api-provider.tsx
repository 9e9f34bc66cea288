'use client';

import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useRouter } from 'next/navigation';
import { SWRConfig } from 'swr';
import { createApiClient, isLoginPath, swrFetcher } from '@/lib/client/api-client';
import { showToast } from '@/components/ui/toast';
import { useStorefrontStore } from './storefront-provider';
import { endWebSession } from '@/lib/client/sign-out';
import { matchRoute } from '@/lib/channel/routes';

type ApiClient = ReturnType<typeof createApiClient>;

const ApiContext = createContext<ApiClient | null>(null);

/**
 * Wires the one API client (spec §7, §8) to the page: token and captcha from the client state, toasts, and logout
 * (spec §4: clear token and user info, go to /login). SWR uses the same client.
 */
export function ApiProvider({ busyMessage, locale, children }: { busyMessage: string; locale: string; children: ReactNode }) {
  const store = useStorefrontStore();
  const router = useRouter();
  const client = useMemo(
    () =>
      createApiClient({
        baseUrl: '/api',
        fetch: (input, init) => fetch(input, init),
        getToken: () => store.getState().user.token,
        getCaptcha: () => store.getState().other.behaviorVerify,
        clearCaptcha: () => store.getState().setCaptcha(null),
        toast: (type, message) => showToast(type, message),
        logout: () => {
          // spec §4: clear token and user info (and the session cookie, whose token the server no longer accepts).
          store.getState().clearUser();
          void endWebSession();
          const here = `${window.location.pathname}${window.location.search}`;
          // /mine is open to everyone (spec §6) and shows its own login prompt once signed out (issue 34): it stays.
          if (matchRoute(window.location.pathname)?.route.name === 'mine') return;
          if (!isLoginPath(here)) router.push(`/login?redirect=${encodeURIComponent(here)}`);
        },
        currentPath: () => window.location.pathname,
        busyMessage,
        locale,
      }),
    [store, router, busyMessage, locale],
  );
  return (
    <ApiContext.Provider value={client}>
      <SWRConfig value={{ fetcher: swrFetcher(client), shouldRetryOnError: false }}>{children}</SWRConfig>
    </ApiContext.Provider>
  );
}

export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi must be used inside <ApiProvider>');
  return client;
}
