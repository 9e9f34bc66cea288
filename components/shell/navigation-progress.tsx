'use client';

import { useEffect, useState } from 'react';
import { usePathname } from 'next/navigation';

/**
 * Feedback between pages (issue 17, item 5): a tap on a link of the store shows, from 150 ms on, a bar in the
 * channel's colour running along the top until the next page is there, so a buyer on a slow connection sees the tap
 * was taken and does not tap again. Every route is covered: the bar listens to taps on any same-origin link of the
 * document, and ends when the path changes (or after 15 s, when a navigation was dropped).
 *
 * Not `loading.tsx`: the pages' loading state is not prefetched for the store's rewritten, dynamic routes, so a
 * loading boundary left a blank screen until the page arrived instead of the page the buyer tapped on.
 */
export function NavigationProgress({ label }: { label: string }) {
  const pathname = usePathname();
  const [pendingFrom, setPendingFrom] = useState<string | null>(null);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
      if (anchor.target && anchor.target !== '_self') return;
      const to = new URL(anchor.href, window.location.href);
      if (to.origin !== window.location.origin || to.pathname === window.location.pathname) return;
      setPendingFrom(window.location.pathname);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);

  // The next page is there: its path replaced the one the tap was made on (state adjusted while rendering).
  if (pendingFrom !== null && pendingFrom !== pathname) setPendingFrom(null);
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
