'use client';

import { useEffect } from 'react';

/** What the marker is set to once the page's scripts have hydrated it. */
export const HYDRATED = '1';
/** The performance mark of the same moment (its startTime: ms after navigation start). */
export const HYDRATED_MARK = 'storefront:hydrated';

/**
 * Marks the document once React has hydrated the page: `<html data-hydrated="1">` (issue 34). The throttled
 * real-browser bench (scripts/bench-throttled.ts) reads the moment from the `storefront:hydrated` performance mark; the e2e specs can wait on it instead of
 * guessing when a page is alive.
 */
export function HydratedMarker() {
  useEffect(() => {
    performance.mark(HYDRATED_MARK);
    document.documentElement.dataset.hydrated = HYDRATED;
  }, []);
  return null;
}
