import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False on the server and while React hydrates the server's HTML, true after (and from the first render of a component
 * mounted later, on a page the app navigated to): what reads the browser's own state (a stored phone) or waits for the
 * page's scripts (components/ui/late-image.tsx) renders the server's version first, so hydration matches.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
