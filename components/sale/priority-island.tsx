'use client';

import { lazy, Suspense, type ComponentProps } from 'react';
import type PriorityWithStore from './priority-with-store';
import { BuyActionIsland } from './buy-action-island';

/*
 * Loaded when rendered, not with the page (issue 34's rule for the goods page): only a sale with priority purchase
 * renders it, before its opening, so every other goods page's first load carries neither it nor the client store and SWR
 * it reads. Until it is loaded (and on the server) the bar is the everyday one: the same countdown to the opening.
 */
const Bar = lazy(() => import('./priority-with-store'));

export function PriorityIsland(props: ComponentProps<typeof PriorityWithStore>) {
  return (
    <Suspense
      fallback={
        <>
          <p className="min-h-[1lh] text-xs text-neutral-600" data-testid="priority-standing" />
          <div className="flex items-center gap-3">
            {props.children}
            <BuyActionIsland sale={props.sale} saleId={props.saleId} renderedAt={props.renderedAt} labels={props.labels} />
          </div>
        </>
      }
    >
      <Bar {...props} />
    </Suspense>
  );
}
