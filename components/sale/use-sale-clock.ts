'use client';

import { useCallback, useSyncExternalStore } from 'react';
import { SALE_STATUS, saleStatusAt, type RenderedSale, type SaleStatus } from '@/lib/sale/status';
import { serverNow, subscribeClock } from '@/lib/client/server-clock';

const still = () => () => {};

/**
 * A sale's status kept live in the browser: coming soon counts down by the server's clock (lib/client/server-clock.ts)
 * and turns into on sale (or sold out) at its opening second; on sale turns into ended at its end. Computed from the
 * sale's times, not from when the page was rendered: a shared page may come from the rendered-page cache.
 *
 * `renderedAt` is the server's time of the render: the first render in the browser (hydration) uses it, so it matches
 * the server's HTML exactly; the live clock takes over right after.
 */
export function useSaleClock(sale: RenderedSale, renderedAt: number): { status: SaleStatus; secondsLeft: number } {
  const { statusSell, saleStartTime, saleEndTime, amountAvailable } = sale;
  const live = statusSell === SALE_STATUS.COMING_SOON || (statusSell === SALE_STATUS.ON_SALE && saleEndTime !== null);
  const at = useCallback(
    (now: number) => {
      const { status, secondsLeft } = saleStatusAt({ statusSell, saleStartTime, saleEndTime, amountAvailable }, now);
      return `${status}:${secondsLeft}`;
    },
    [statusSell, saleStartTime, saleEndTime, amountAvailable],
  );
  const snapshot = useSyncExternalStore(
    live ? subscribeClock : still,
    () => at(live ? serverNow() : renderedAt),
    () => at(renderedAt),
  );
  const [status, secondsLeft] = snapshot.split(':').map(Number) as [SaleStatus, number];
  return { status, secondsLeft };
}
