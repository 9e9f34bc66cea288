'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import { usePathname, useRouter } from 'next/navigation';
import { NavigationProgress } from './navigation-progress';
import { TitleKeeper } from './title-keeper';
import { HydratedMarker } from './hydrated-marker';
import { useRunEnvironment } from './run-environment';
import { ROUTER_LINK_ATTRIBUTE } from './router-link';
import { DEFERRED_TOAST_KEY, TOAST_WAKE } from '@/components/ui/toast-wake';
import { noteEarlyVisit, savePendingVisits, wakeWhenQuiet } from './tracker-wake';

/*
 * What every page's shell does, in one client module (issue 34). Always on, from hydration: the hydrated marker, the
 * title keeper, the router's progress bar and the router links. Loaded when needed, each in a chunk of its own:
 * - the page-view tracker, once the page has loaded and is quiet, or when it is hidden (./tracker-wake.ts); the pages
 *   seen before it came are noted here and handed to it;
 * - the WeChat tip, inside WeChat only (docs/wechat.md);
 * - the toasts' host, with the first toast (or a toast deferred from the page before).
 */
const PageTracker = lazy(() => import('./page-tracker').then((m) => ({ default: m.PageTracker })));
const WxTip = lazy(() => import('./wx-tip').then((m) => ({ default: m.WxTip })));
const ToastHost = lazy(() => import('@/components/ui/toast').then((m) => ({ default: m.ToastHost })));

export type ShellProps = {
  tracking: { trackingUrl: string; channelKey: string; projectVersion: string };
  tip: { title: string; body: string; dismiss: string };
  loadingLabel: string;
  notificationsLabel: string;
};

export function Shell({ tracking, tip, loadingLabel, notificationsLabel }: ShellProps) {
  // null on the server and while hydrating: what is loaded after hydration waits for it.
  const environment = useRunEnvironment();
  useEarlyVisits();
  const [trackerWanted, setTrackerWanted] = useState(false);
  useEffect(
    () =>
      wakeWhenQuiet(
        () => setTrackerWanted(true),
        () => savePendingVisits(Date.now()),
      ),
    [],
  );
  return (
    <>
      <NavigationProgress label={loadingLabel} />
      <TitleKeeper />
      <RouterLinks />
      {environment && trackerWanted ? (
        <Suspense fallback={null}>
          <PageTracker {...tracking} />
        </Suspense>
      ) : null}
      {environment === 'wxh5' ? (
        <Suspense fallback={null}>
          <WxTip {...tip} />
        </Suspense>
      ) : null}
      <ToastSlot label={notificationsLabel} />
      <HydratedMarker />
    </>
  );
}

/** Notes the pages seen in this document until the tracker takes them (./tracker-wake.ts): the path and query, and when. */
function useEarlyVisits(): void {
  const pathname = usePathname();
  useEffect(() => noteEarlyVisit(`${pathname}${window.location.search}`, Date.now()), [pathname]);
}

/** The toasts' host, mounted (and loaded) with the first toast raised, or at once when a toast was deferred to this page. */
function ToastSlot({ label }: { label: string }) {
  const [woken, setWoken] = useState(false);
  useEffect(() => {
    let deferred = false;
    try {
      deferred = sessionStorage.getItem(DEFERRED_TOAST_KEY) !== null;
    } catch {
      // storage blocked: nothing was deferred
    }
    // Set in an effect: the slot is empty on the server and while hydrating, whatever the storage holds.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (deferred) setWoken(true);
    const wake = () => setWoken(true);
    window.addEventListener(TOAST_WAKE, wake);
    return () => window.removeEventListener(TOAST_WAKE, wake);
  }, []);
  if (!woken) return null;
  return (
    <Suspense fallback={null}>
      <ToastHost label={label} />
    </Suspense>
  );
}

/** The link a click landed on, if it is one of ./router-link's and the router may take it. */
function routerLinkOf(event: Event): URL | null {
  const target = event.target;
  const link = target instanceof Element ? target.closest<HTMLAnchorElement>(`a[${ROUTER_LINK_ATTRIBUTE}]`) : null;
  if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const url = new URL(link.href, window.location.href);
  return url.origin === window.location.origin ? url : null;
}

/**
 * Takes the taps on ./router-link's links into the App Router, as next/link does (a modifier key or a middle click is
 * left to the browser), and prefetches a link's page on the first touch or hover. Listens on the document, so it runs
 * before the plain-link progress bar's window listener (./plain-link-progress.tsx), which leaves a taken tap alone.
 */
function RouterLinks() {
  const router = useRouter();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const url = routerLinkOf(event);
      if (!url) return;
      event.preventDefault();
      router.push(url.pathname + url.search + url.hash);
    };
    const prefetched = new Set<string>();
    const onApproach = (event: Event) => {
      const url = routerLinkOf(event);
      if (!url || prefetched.has(url.href)) return;
      prefetched.add(url.href);
      router.prefetch(url.pathname + url.search);
    };
    document.addEventListener('click', onClick);
    document.addEventListener('pointerdown', onApproach, { passive: true });
    document.addEventListener('mouseover', onApproach, { passive: true });
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('pointerdown', onApproach);
      document.removeEventListener('mouseover', onApproach);
    };
  }, [router]);
  return null;
}
