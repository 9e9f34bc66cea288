'use client';

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createStorefrontStore, type StorefrontState, type StorefrontStore } from '@/lib/client/store';
import { detectEnvironment } from '@/lib/user-agent/environment';

const StoreContext = createContext<StorefrontStore | null>(null);

/** One client store per page load; goods.showAmount comes from the channel (spec §3), the environment from the UA. */
export function StorefrontProvider({ showAmount, children }: { showAmount: boolean; children: ReactNode }) {
  const [store] = useState(() => {
    const s = createStorefrontStore();
    s.getState().setShowAmount(showAmount);
    return s;
  });
  useEffect(() => {
    const wx = (window as unknown as { __wxjs_environment?: string }).__wxjs_environment;
    store.getState().setEnvironment(detectEnvironment(navigator.userAgent, wx));
  }, [store]);
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useStorefront<T>(selector: (state: StorefrontState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStorefront must be used inside <StorefrontProvider>');
  return useStore(store, selector);
}

/** The store itself, for non-React callers wired by the shell (the API client). */
export function useStorefrontStore(): StorefrontStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStorefrontStore must be used inside <StorefrontProvider>');
  return store;
}
