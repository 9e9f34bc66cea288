'use client';

import { Suspense, useEffect, useRef, useState } from 'react';
import { usePathname, useSearchParams } from 'next/navigation';
import { NAVIGATION_START, type NavigationStartDetail } from './navigation-start';

/**
 * Feedback between pages (issue 17, item 5): once the router starts a navigation, a bar in the channel's colour runs
 * along the top from 150 ms on until the next page is there, so a buyer on a slow connection sees the tap was taken
 * and does not tap again. Every navigation is covered (issue 30): a tapped link, a link that changes only the query
 * (the next page of a list), router.push and router.replace (the pay page, the chain-up forms, a session that ran
 * out), back and forward. The router says when one starts (instrumentation-client.ts); it ends when the page shown
 * is at another address (path or query), or after 15 s, when a navigation was dropped.
 *
 * Not `loading.tsx`: the pages' loading state is not prefetched for the store's rewritten, dynamic routes, so a
 * loading boundary left a blank screen until the page arrived instead of the page the buyer tapped on. Not
 * `useLinkStatus` or `<Link onNavigate>`: they report on one link, from inside it, and never on router.push.
 */
export function NavigationProgress({ label }: { label: string }) {
  // The address is read with useSearchParams, which wants a boundary of its own where a page is rendered ahead.
  return (
    <Suspense fallback={null}>
      <Progress label={label} />
    </Suspense>
  );
}

/** The address a page is at, as the router renders it: its path and its query. */
const addressOf = (pathname: string, search: string): string => (search ? `${pathname}?${search}` : pathname);

function Progress({ label }: { label: string }) {
  const shown = addressOf(usePathname(), useSearchParams().toString());
  const shownRef = useRef(shown);
  const [pendingFrom, setPendingFrom] = useState<string | null>(null);

  useEffect(() => {
    shownRef.current = shown;
  }, [shown]);

  useEffect(() => {
    const onStart = (event: Event) => {
      const to = new URL((event as CustomEvent<NavigationStartDetail>).detail.url, window.location.href);
      // Another site, or the address already shown (a link to this page, a change of #fragment only): no new page comes.
      if (to.origin !== window.location.origin || addressOf(to.pathname, to.search.slice(1)) === shownRef.current) return;
      const from = shownRef.current;
      // The router starts its navigation inside a React transition, which holds every update made in it until the next
      // page is ready; set outside it, so the bar shows while the buyer waits.
      queueMicrotask(() => setPendingFrom(from));
    };
    window.addEventListener(NAVIGATION_START, onStart);
    return () => window.removeEventListener(NAVIGATION_START, onStart);
  }, []);

  // The next page is there: the address shown is no longer the one the navigation started from (state adjusted while
  // rendering).
  if (pendingFrom !== null && pendingFrom !== shown) setPendingFrom(null);
  const pending = pendingFrom !== null;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setTimeout(() => setPendingFrom(null), 15_000);
    return () => window.clearTimeout(timer);
  }, [pending]);

  if (!pending) return null;
  return (
    <div
      role="progressbar"
      aria-label={label}
      data-testid="navigation-progress"
      className="navigation-progress fixed inset-x-0 top-0 z-50 mx-auto h-1 max-w-(--container-app) overflow-hidden bg-white/70"
    >
      <div className="navigation-progress-bar h-full w-1/3 bg-skin-button" />
    </div>
  );
}
