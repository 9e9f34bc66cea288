'use client';

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createStorefrontStore, type StorefrontState, type StorefrontStore } from '@/lib/client/store';
import { detectEnvironment } from '@/lib/user-agent/environment';
import { routerType, setRouterType, subscribeRouterType } from './router-type';

const StoreContext = createContext<StorefrontStore | null>(null);

/**
 * The browser's one store. The provider sits in the layouts of the pages that use the store (issue 34: not on the
 * shared goods page and home), so it mounts again when the buyer moves between those sections (login → pay); the
 * store itself is made once per page load and outlives them, or the token a login just set would be lost on the way.
 * On the server each render makes its own (nothing of one buyer may reach another's page).
 */
let browserStore: StorefrontStore | null = null;

function storeFor(showAmount: boolean): StorefrontStore {
  if (typeof window !== 'undefined' && browserStore) return browserStore;
  const store = createStorefrontStore();
  store.getState().setShowAmount(showAmount);
  if (typeof window !== 'undefined') browserStore = store;
  return store;
}

/** One client store per page load; goods.showAmount comes from the channel (spec §3), the environment from the UA. */
export function StorefrontProvider({ showAmount, children }: { showAmount: boolean; children: ReactNode }) {
  const [store] = useState(() => storeFor(showAmount));
  useEffect(() => {
    const wx = (window as unknown as { __wxjs_environment?: string }).__wxjs_environment;
    store.getState().setEnvironment(detectEnvironment(navigator.userAgent, wx));
  }, [store]);
  // The page transition reads the router type from ./router-type; whoever sets it in the store (logout: 'replace')
  // sets it there too, and the store follows the transition's own changes (popstate: 'back').
  useEffect(() => {
    if (store.getState().other.routerType !== routerType()) store.getState().setRouterType(routerType());
    const fromStore = store.subscribe((state, previous) => {
      if (state.other.routerType !== previous.other.routerType) setRouterType(state.other.routerType);
    });
    const toStore = subscribeRouterType(() => {
      if (store.getState().other.routerType !== routerType()) store.getState().setRouterType(routerType());
    });
    return () => {
      fromStore();
      toStore();
    };
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
