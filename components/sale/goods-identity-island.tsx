'use client';

import { lazy, Suspense, type ComponentProps } from 'react';
import type GoodsIdentityWithStore from './goods-identity-with-store';

/*
 * Loaded when rendered, not with the page (issue 34): only a channel that asks for real names renders the notice, and
 * every other goods page's first load carries neither it nor the client store (zustand) it reads. The server renders
 * it in full; in the browser its code comes while the page hydrates, the server's HTML standing until then.
 */
const Notice = lazy(() => import('./goods-identity-with-store'));

export function GoodsIdentityIsland(props: ComponentProps<typeof GoodsIdentityWithStore>) {
  return (
    <Suspense fallback={null}>
      <Notice {...props} />
    </Suspense>
  );
}
