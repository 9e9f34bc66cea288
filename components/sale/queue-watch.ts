'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '@/lib/client/api-client';

export const QUEUE_WATCH_PATH = '/market/api/queue/watch';

/** After a watch ended or failed: the next try, doubling from the first to the last. */
const RETRY_FIRST_MS = 1000;
const RETRY_LAST_MS = 15_000;
/** A watch answered once (the server had no room for it): polled reads until this long has passed. */
const ONCE_RETRY_MS = 30_000;

/**
 * The page's watch of the buyer's place (issue 35; lib/sale/queue-watch.ts): while `enabled` (the buyer is in the
 * queue), a watch is kept open and every line the server pushes (their turn, sold out, their place) goes to
 * `onStanding` as a read would. `open`: whether a watch streams now; while it does, the panel does not poll; while it
 * does not (the server had no room, the connection dropped), the panel polls as before and the watch is tried again,
 * less often each time. `join()`: the tap to join, as one call that stays open (`queue/watch` with `join`), its refusal
 * said as any call's; resolves whether the buyer is in.
 */
export function useQueueWatch(
  api: ApiClient,
  saleId: string,
  enabled: boolean,
  onStanding: (standing: unknown) => void,
): { open: boolean; join: () => Promise<boolean> } {
  const [open, setOpen] = useState(false);
  const latest = useRef(onStanding);
  const client = useRef(api);
  const running = useRef<AbortController | null>(null);
  useEffect(() => {
    latest.current = onStanding;
    client.current = api;
  });

  /** (Re)starts the watch; the first call joins when `joining` says so, and tells how it went. */
  const start = useCallback(
    (joining?: (joined: boolean) => void) => {
      running.current?.abort();
      const stopped = new AbortController();
      running.current = stopped;
      let retryMs = RETRY_FIRST_MS;
      let first = joining;
      const run = async () => {
        let streaming = false;
        let heard = false;
        const how = await client.current.watch(
          QUEUE_WATCH_PATH,
          first ? { saleId, join: true } : { saleId },
          (standing, streamed) => {
            heard = true;
            if (streamed && !streaming) {
              streaming = true;
              setOpen(true);
            }
            latest.current(standing);
            first?.(true);
            first = undefined;
          },
          stopped.signal,
          { say: first !== undefined },
        );
        if (!heard) first?.(false);
        first = undefined;
        setOpen(false);
        if (stopped.signal.aborted) return;
        if (how === 'refused') {
          // Refused (the join, or the session gone): no more tries until the page asks again.
          if (running.current === stopped) running.current = null;
          return;
        }
        const wait = how === 'once' ? ONCE_RETRY_MS : retryMs;
        retryMs = how === 'closed' && streaming ? RETRY_FIRST_MS : Math.min(RETRY_LAST_MS, retryMs * 2);
        const retry = setTimeout(() => void run(), wait);
        stopped.signal.addEventListener('abort', () => clearTimeout(retry), { once: true });
      };
      void run();
    },
    [saleId],
  );

  useEffect(() => {
    if (!enabled) {
      // Its loop, aborted, says it is no longer open.
      running.current?.abort();
      running.current = null;
      return;
    }
    // Already watching (the join's own watch, say): kept.
    if (!running.current) start();
  }, [enabled, start]);
  useEffect(() => () => running.current?.abort(), []);

  const join = useCallback(() => new Promise<boolean>((resolve) => start(resolve)), [start]);
  return { open, join };
}
