'use client';

import { lazy, Suspense, type ComponentProps } from 'react';
import type QueueWithProviders from './queue-with-providers';
import { QueuePlaceholder } from './queue-panel-frame';

/*
 * Loaded when rendered, not with the page (issue 34): only a sale through a waiting room renders it, so every other
 * goods page's first load carries neither the panel nor the API client and store it brings (./queue-with-providers).
 */
const Panel = lazy(() => import('./queue-with-providers'));

export function QueueLazy(props: ComponentProps<typeof QueueWithProviders>) {
  return (
    <Suspense fallback={<QueuePlaceholder title={props.labels.title} />}>
      <Panel {...props} />
    </Suspense>
  );
}
