'use client';

import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { useApi } from '@/components/shell/api-provider';
import { MINE_STATE_PATH } from '@/components/mine/mine-state';

/**
 * Marks the messages the buyer has on their screen read (issue 35, /mine/messages): the unread ones of the page shown,
 * by their ids, so a message that arrived after the page was rendered stays unread. A call of its own rather than a
 * side effect of rendering, so a prefetch of the page takes no badge away; then Mine's count is read again.
 */
export function MarkMessagesRead({ ids }: { ids: readonly string[] }) {
  const api = useApi();
  const { mutate } = useSWRConfig();
  const key = ids.join(',');
  useEffect(() => {
    if (key === '') return;
    api
      .post('/market/api/message/read', { ids: key.split(',') })
      .then(() => mutate(MINE_STATE_PATH))
      .catch(() => {
        // They stay unread until the next visit; nothing for the buyer to do.
      });
  }, [api, key, mutate]);
  return null;
}
