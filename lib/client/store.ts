import { createStore } from 'zustand/vanilla';
import { persist, createJSONStorage } from 'zustand/middleware';
import type { RunEnvironment } from '../user-agent/environment';
import { maskPhone } from '../auth/mask';

/** spec §3: the key under which the user module is persisted. */
export const PERSIST_KEY = 'art-front';

export type RouterType = 'forward' | 'back' | 'replace';

export type UserInfo = Record<string, unknown>;

export type StorefrontState = {
  /** spec §3 user module. The token is kept in memory only (the web session lives in an HttpOnly cookie). */
  user: { token: string | null; phone: string | null; userInfo: UserInfo | null };
  /** spec §3 goods state: showAmount comes from the channel; chainCode carries a chain-up code between pages. */
  goods: { showAmount: boolean; chainCode: string | null };
  /** spec §3 other state. */
  other: {
    behaviorVerify: string | null;
    routerType: RouterType;
    showWxTip: boolean;
    environment: RunEnvironment | null;
  };
  setUser: (user: { phone: string; userInfo?: UserInfo | null; token?: string | null }) => void;
  setUserInfo: (userInfo: UserInfo | null) => void;
  clearUser: () => void;
  setShowAmount: (showAmount: boolean) => void;
  setChainCode: (chainCode: string | null) => void;
  setCaptcha: (ticket: string | null) => void;
  setRouterType: (routerType: RouterType) => void;
  setEnvironment: (environment: RunEnvironment) => void;
  setShowWxTip: (show: boolean) => void;
};

export { maskPhone };

const initialUser = { token: null, phone: null, userInfo: null };

const serverStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
  getItem: () => null,
  setItem: () => {},
  removeItem: () => {},
};

/** One store per page load (and per test): the spec's user, goods and other modules. */
export function createStorefrontStore(storage?: Storage) {
  return createStore<StorefrontState>()(
    persist(
      (set) => ({
        user: initialUser,
        goods: { showAmount: true, chainCode: null },
        other: { behaviorVerify: null, routerType: 'forward', showWxTip: false, environment: null },
        setUser: ({ phone, userInfo = null, token = null }) => set({ user: { token, phone: maskPhone(phone), userInfo } }),
        setUserInfo: (userInfo) => set((s) => ({ user: { ...s.user, userInfo } })),
        clearUser: () => set({ user: initialUser }),
        setShowAmount: (showAmount) => set((s) => ({ goods: { ...s.goods, showAmount } })),
        setChainCode: (chainCode) => set((s) => ({ goods: { ...s.goods, chainCode } })),
        setCaptcha: (behaviorVerify) => set((s) => ({ other: { ...s.other, behaviorVerify } })),
        setRouterType: (routerType) => set((s) => ({ other: { ...s.other, routerType } })),
        setEnvironment: (environment) => set((s) => ({ other: { ...s.other, environment } })),
        setShowWxTip: (showWxTip) => set((s) => ({ other: { ...s.other, showWxTip } })),
      }),
      {
        name: PERSIST_KEY,
        // On the server (SSR) there is nothing to persist to: a memory stand-in keeps the store quiet.
        storage: createJSONStorage(() => storage ?? (typeof window === 'undefined' ? serverStorage : window.localStorage)),
        // spec §3: only the user module is persisted, and never its token.
        partialize: (s) => ({ user: { phone: s.user.phone, userInfo: s.user.userInfo } }),
        merge: (persisted, current) => {
          const saved = (persisted as { user?: { phone?: unknown; userInfo?: unknown } } | undefined)?.user;
          return {
            ...current,
            user: {
              token: null,
              phone: typeof saved?.phone === 'string' ? saved.phone : null,
              userInfo: saved?.userInfo && typeof saved.userInfo === 'object' ? (saved.userInfo as UserInfo) : null,
            },
          };
        },
      },
    ),
  );
}

export type StorefrontStore = ReturnType<typeof createStorefrontStore>;
