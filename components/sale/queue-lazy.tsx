'use client';

import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import type QueueWithProviders from './queue-with-providers';

/*
 * Loaded when rendered, not with the page (issue 34): only a sale through a waiting room renders it, so every other
 * goods page's first load carries neither the panel nor the API client and store it brings (./queue-with-providers).
 * Its placeholder comes drawn by the server (./queue-island.tsx), so its code is not in the first load either.
 */
const Panel = lazy(() => import('./queue-with-providers'));

export function QueueLazy({ placeholder, ...props }: ComponentProps<typeof QueueWithProviders> & { placeholder: ReactNode }) {
  return (
    <Suspense fallback={placeholder}>
      <Panel {...props} />
    </Suspense>
  );
}
