'use client';

import { useEffect, useRef } from 'react';
import { usePathname } from 'next/navigation';
import { TrackingQueue } from '@/lib/tracking/queue';
import { pageIdOf, pageViewRecord, type PageVisit, type TrackingContext } from '@/lib/tracking/record';
import type { TrackingRecord } from '@/lib/tracking/schema';
import { useRunEnvironment } from './run-environment';
import { randomUuid } from '@/lib/client/uuid';
import { earlyVisits, takeEarlyVisits, type EarlyVisit, type EarlyVisits } from './tracker-wake';
import { takePendingVisits } from './pending-visits';

function storedId(storage: Storage, key: string): string {
  let id = storage.getItem(key);
  if (!id) {
    id = randomUuid();
    storage.setItem(key, id);
  }
  return id;
}

function sender(url: string) {
  return (records: TrackingRecord[], mode: 'fetch' | 'beacon'): Promise<boolean> | boolean => {
    const body = JSON.stringify({ records });
    if (mode === 'beacon' && typeof navigator.sendBeacon === 'function') {
      // A string body goes as text/plain, a CORS-safelisted type: the beacon also works for a log service on
      // another origin (TRACKING_URL). The ingest parses the body as JSON whatever its type.
      return navigator.sendBeacon(url, body);
    }
    // Plain fetch, not the API client: a tracking failure must never show the buyer a toast.
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true })
      .then(async (res) => res.ok && ((await res.json()) as { code?: number }).code === 200)
      .catch(() => false);
  };
}

/**
 * The page views of pages seen before the tracker came (./tracker-wake.ts), each with the time it was entered: a view
 * per page, the one before as its referrer (the first: the document's referrer), and, for a document already left, the
 * last page's leave at the moment it was left. Returns the last page of `visits`, still being viewed, or null.
 */
function replay(
  ctx: TrackingContext,
  queue: TrackingQueue,
  visits: EarlyVisit[],
  referrer: string,
  leftAt: number | null,
): PageVisit | null {
  let previous: PageVisit | null = null;
  for (const visit of visits) {
    const path = new URL(visit.url, 'http://x').pathname;
    const page: PageVisit = { pageId: pageIdOf(path), url: visit.url, uuid: randomUuid(), enteredAt: visit.enteredAt };
    queue.add(pageViewRecord(ctx, page, previous, 'page_view', visit.enteredAt, previous ? '' : referrer));
    previous = page;
  }
  if (previous && leftAt !== null) {
    queue.add(pageViewRecord(ctx, previous, null, 'page_leave', leftAt));
    return null;
  }
  return previous;
}

/**
 * Tracks page views (spec §4): each route change records the new page with the previous one as referrer and the
 * dwell time, in seconds, of the page being left; hiding or leaving the page records its dwell time and hands
 * the queue to sendBeacon. It is loaded once the page is quiet (./tracker-wake.ts): it first records what the shell
 * saw before it came (`early`) and what documents of this tab left before theirs came.
 */
export function PageTracker({
  trackingUrl,
  channelKey,
  projectVersion,
  early = earlyVisits,
}: {
  trackingUrl: string;
  channelKey: string;
  projectVersion: string;
  /** What the shell saw before the tracker came (./tracker-wake.ts); a test passes its own. */
  early?: EarlyVisits;
}) {
  const pathname = usePathname();
  // Read here, not from the client store: the tracker counts page views on the shared pages too, which carry no store.
  const environment = useRunEnvironment();
  const state = useRef<{ queue: TrackingQueue; ctx: TrackingContext; current: PageVisit | null } | null>(null);

  useEffect(() => {
    if (!environment) return;
    const connection = (navigator as Navigator & { connection?: { effectiveType?: string } }).connection;
    const queue = new TrackingQueue(sender(trackingUrl));
    state.current = {
      queue,
      current: null,
      ctx: {
        userAgent: navigator.userAgent,
        deviceId: storedId(localStorage, 'art-device-id'),
        sessionId: storedId(sessionStorage, 'art-session-id'),
        projectVersion,
        channelKey,
        environment,
        networkType: connection?.effectiveType ?? '',
      },
    };
    for (const pending of takePendingVisits(sessionStorage))
      replay(state.current.ctx, queue, pending.visits, pending.referrer, pending.leftAt);
    const seen = takeEarlyVisits(early);
    if (seen) state.current.current = replay(state.current.ctx, queue, seen, document.referrer, null);
    queue.start();
    // Leaving: the tab is hidden (mobile browsers often never fire pagehide) or the page unloads. One page_leave
    // per visit, then everything queued goes to sendBeacon, which outlives the page.
    let left = false;
    const leave = () => {
      const s = state.current;
      if (!s) return;
      if (s.current && !left) s.queue.add(pageViewRecord(s.ctx, s.current, null, 'page_leave', Date.now()));
      left = true;
      s.queue.flushOnHide();
    };
    const comeBack = () => {
      // Visible again (or restored from the page cache): the page is being viewed again from now on.
      if (!left || !state.current?.current) return;
      left = false;
      state.current.current = { ...state.current.current, enteredAt: Date.now() };
    };
    const onVisibility = () => (document.visibilityState === 'hidden' ? leave() : comeBack());
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) comeBack();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', onShow);
    // Loaded while the page is hidden (./tracker-wake.ts wakes it then): the page is being left now.
    if (document.visibilityState === 'hidden') leave();
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', onShow);
      queue.stop();
      // What it was handed on mount is in no other queue (React's strict mode mounts twice in development).
      void queue.flush();
    };
  }, [environment, trackingUrl, channelKey, projectVersion, early]);

  useEffect(() => {
    const s = state.current;
    if (!s) return;
    const now = Date.now();
    const url = `${pathname}${window.location.search}`;
    if (s.current?.url === url) return;
    const page: PageVisit = { pageId: pageIdOf(pathname), url, uuid: randomUuid(), enteredAt: now };
    s.queue.add(pageViewRecord(s.ctx, page, s.current, 'page_view', now, s.current ? '' : document.referrer));
    s.current = page;
  }, [pathname, environment]);

  return null;
}
