'use client';

import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { usePathname } from 'next/navigation';
import type { RouterType } from '@/lib/client/store';
import { routerType as currentRouterType, setRouterType, subscribeRouterType } from './router-type';

/**
 * Page transitions by router type (spec §1): forward slides in from the right, back from the left, replace fades.
 * Going back is known from popstate. The first paint is never animated; reduced-motion users get no animation
 * (styles/globals.css). The router type lives in ./router-type, not in the client store, so every page has this
 * without the store (issue 34).
 */
/**
 * The entry animation of each kind of navigation (styles/globals.css), written whole: a cached page's stylesheet keeps
 * only the classes its page and scripts name (lib/page/style-subset.ts), which a name put together at run time is not.
 */
const ROUTE_CLASS: Record<RouterType, string> = { forward: 'route-forward', back: 'route-back', replace: 'route-replace' };

export function RouteTransition({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const routerType = useSyncExternalStore(subscribeRouterType, currentRouterType, () => 'forward' as const);
  const [initialPath] = useState(pathname);
  const [navigated, setNavigated] = useState(false);

  useEffect(() => {
    const onPop = () => setRouterType('back');
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    // The next navigation is forward unless popstate or a replace says otherwise: a tap anywhere starts the next one
    // (captured before the page's own handlers, so a logout's replace still wins). Not a timer: on a busy phone the
    // page gone back to could be painted after the timer had already turned it forward.
    const onTap = () => setRouterType('forward');
    window.addEventListener('click', onTap, { capture: true });
    return () => window.removeEventListener('click', onTap, { capture: true });
  }, []);

  // Once the first path is left, every later page animates (also on coming back to the first one).
  if (!navigated && pathname !== initialPath) setNavigated(true);
  const animated = navigated || pathname !== initialPath;
  return (
    <div
      key={pathname}
      data-testid="route-view"
      data-router-type={animated ? routerType : 'none'}
      className={animated ? ROUTE_CLASS[routerType] : undefined}
    >
      {children}
    </div>
  );
}
