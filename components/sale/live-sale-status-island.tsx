'use client';

import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';

/*
 * Loaded when rendered (issue 34): only a sale not yet open counts down in the browser, so the badge of a sale already
 * open (most goods pages) carries no client code. Until the clock is loaded, the badge as the server drew it (on a
 * navigation inside the app, `fallback`, drawn by the server too: ./sale-status.tsx).
 */
const Live = lazy(() => import('./live-sale-status').then((m) => ({ default: m.LiveSaleStatus })));

export function LiveSaleStatusIsland({ fallback, ...props }: ComponentProps<typeof Live> & { fallback: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <Live {...props} />
    </Suspense>
  );
}
