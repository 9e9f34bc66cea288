'use client';

import { useEffect, useRef, useState } from 'react';
import type { ApiClient } from '@/lib/client/api-client';

export const QUEUE_WATCH_PATH = '/market/api/queue/watch';

/** After a watch ended or failed: the next try, doubling from the first to the last. */
const RETRY_FIRST_MS = 1000;
const RETRY_LAST_MS = 15_000;
/** A watch answered once (the server had no room for it): polled reads until this long has passed. */
const ONCE_RETRY_MS = 30_000;

/**
 * Keeps a watch of the buyer's place open while `enabled` (issue 35; lib/sale/queue-watch.ts): every line the server
 * pushes (their turn, sold out, their place) goes to `onStanding` as a read would. Answers whether the watch is open
 * now: while it is, the panel does not poll; while it is not (the server had no room, the connection dropped), the
 * panel polls as before and the watch is tried again, less often each time.
 */
export function useQueueWatch(api: ApiClient, saleId: string, enabled: boolean, onStanding: (standing: unknown) => void): boolean {
  const [open, setOpen] = useState(false);
  const latest = useRef(onStanding);
  const client = useRef(api);
  useEffect(() => {
    latest.current = onStanding;
    client.current = api;
  });
  useEffect(() => {
    if (!enabled) return;
    const stopped = new AbortController();
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let retryMs = RETRY_FIRST_MS;
    const run = async () => {
      let streaming = false;
      const how = await client.current.watch(
        QUEUE_WATCH_PATH,
        { saleId },
        (standing) => {
          if (!streaming) {
            streaming = true;
            setOpen(true);
          }
          latest.current(standing);
        },
        stopped.signal,
      );
      setOpen(false);
      if (stopped.signal.aborted) return;
      const wait = how === 'once' ? ONCE_RETRY_MS : retryMs;
      retryMs = how === 'closed' && streaming ? RETRY_FIRST_MS : Math.min(RETRY_LAST_MS, retryMs * 2);
      retryTimer = setTimeout(() => void run(), wait);
    };
    void run();
    return () => {
      stopped.abort();
      clearTimeout(retryTimer);
      setOpen(false);
    };
  }, [saleId, enabled]);
  return open;
}
