'use client';

import { lazy, Suspense, type ComponentProps } from 'react';
import { saleStatusAt } from '@/lib/sale/status';
import { SaleStatusView } from './sale-status-view';

/*
 * Loaded when rendered (issue 34): only a sale not yet open counts down in the browser, so the badge of a sale already
 * open (most goods pages) carries no client code. Until the clock is loaded, the badge as the server drew it.
 */
const Live = lazy(() => import('./live-sale-status').then((m) => ({ default: m.LiveSaleStatus })));

export function LiveSaleStatusIsland(props: ComponentProps<typeof Live>) {
  const { status, secondsLeft } = saleStatusAt(props.sale, props.renderedAt);
  return (
    <Suspense fallback={<SaleStatusView status={status} secondsLeft={secondsLeft} labels={props.labels} testId={props.testId} />}>
      <Live {...props} />
    </Suspense>
  );
}
