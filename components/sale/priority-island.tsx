'use client';

import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import type PriorityWithStore from './priority-with-store';

/*
 * Loaded when rendered, not with the page (issue 34's rule for the goods page): only a sale with priority purchase
 * renders it, before its opening, so every other goods page's first load carries neither it nor the client store and SWR
 * it reads. Until it is loaded (and on the server) the bar is the everyday one, `bar` (./buy-bar.tsx, drawn by the
 * server): the same countdown to the opening.
 */
const Bar = lazy(() => import('./priority-with-store'));

export function PriorityIsland({ bar, ...props }: ComponentProps<typeof PriorityWithStore> & { bar: ReactNode }) {
  return (
    <Suspense
      fallback={
        <>
          <p className="min-h-[1lh] text-xs text-neutral-600" data-testid="priority-standing" />
          <div className="flex items-center gap-3">
            {props.children}
            {bar}
          </div>
        </>
      }
    >
      <Bar {...props} />
    </Suspense>
  );
}
