'use client';

import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';

/*
 * The buy bar's countdown, loaded when rendered (issue 34): only a sale not yet open renders it (./buy-bar.tsx), so a
 * goods page of a sale already open carries no client code for its buy bar. Until it is loaded, the bar as the server
 * drew it: on a document load its HTML, on a navigation inside the app `fallback`, drawn by the server too
 * (./buy-bar.tsx), so the page's first load carries no code for it.
 */
const Live = lazy(() => import('./buy-action').then((m) => ({ default: m.BuyAction })));

export function BuyActionIsland({ fallback, ...props }: ComponentProps<typeof Live> & { fallback: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <Live {...props} />
    </Suspense>
  );
}
