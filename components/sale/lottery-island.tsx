'use client';

import { lazy, Suspense, type ComponentProps } from 'react';
import type LotteryWithStore from './lottery-with-store';

/*
 * Loaded when rendered, not with the page (issue 34's rule for the goods page): only a lottery sale's goods page renders
 * the lottery's buy bar, and every other goods page's first load carries neither it nor the client store and SWR it
 * reads. The server renders it (a placeholder of its final size where the buyer's standing goes).
 */
const Panel = lazy(() => import('./lottery-with-store'));

export function LotteryIsland(props: ComponentProps<typeof LotteryWithStore>) {
  return (
    <Suspense fallback={null}>
      <Panel {...props} />
    </Suspense>
  );
}
