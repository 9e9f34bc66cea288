import type { RouterType } from '@/lib/client/store';

/*
 * How the next page comes in (spec §1: forward, back, replace), kept outside the client store so that the page
 * transition in the layout needs no store: a shared page (goods detail, home) ships neither zustand nor the store's
 * providers (issue 34). The store's own routerType (set by logout, lib/client/store.ts) is kept in step with this one
 * by StorefrontProvider, on the pages that have it.
 */

let current: RouterType = 'forward';
const listeners = new Set<() => void>();

export function routerType(): RouterType {
  return current;
}

export function setRouterType(next: RouterType): void {
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

export function subscribeRouterType(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
