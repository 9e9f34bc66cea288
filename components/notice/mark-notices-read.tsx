'use client';

import { useEffect } from 'react';
import { useApi } from '@/components/shell/api-provider';

/**
 * Marks the signed-in buyer's notices read once the list is on their screen (issue 32): a call of its own rather than
 * a side effect of rendering, so a prefetch of the page does not take the dot away. Rendered only for a signed-in buyer.
 */
export function MarkNoticesRead() {
  const api = useApi();
  useEffect(() => {
    api.post('/market/api/notice/read', {}).catch(() => {
      // The dot stays until the next visit; nothing for the buyer to do.
    });
  }, [api]);
  return null;
}
