'use client';

import { lazy, Suspense, type ComponentProps } from 'react';
import { saleStatusAt } from '@/lib/sale/status';
import { BuyActionView } from './buy-action-view';

/*
 * The buy bar's countdown, loaded when rendered (issue 34): only a sale not yet open renders it (./buy-bar.tsx), so a
 * goods page of a sale already open carries no client code for its buy bar. Until it is loaded, the bar as the server
 * drew it.
 */
const Live = lazy(() => import('./buy-action').then((m) => ({ default: m.BuyAction })));

export function BuyActionIsland(props: ComponentProps<typeof Live>) {
  const { status, secondsLeft } = saleStatusAt(props.sale, props.renderedAt);
  return (
    <Suspense fallback={<BuyActionView status={status} secondsLeft={secondsLeft} saleId={props.saleId} labels={props.labels} />}>
      <Live {...props} />
    </Suspense>
  );
}
