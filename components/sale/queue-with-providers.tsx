'use client';

import type { ComponentProps } from 'react';
import { AppProviders } from '@/components/shell/app-providers';
import { QueuePanel } from './queue-panel';

/**
 * The waiting room's panel with the client store and the API client it reads (the goods page carries neither, issue
 * 34). Loaded only for a sale through a waiting room (./queue-lazy).
 */
export default function QueueWithProviders({
  showAmount,
  busyMessage,
  locale,
  ...panel
}: ComponentProps<typeof QueuePanel> & { showAmount: boolean; busyMessage: string; locale: string }) {
  return (
    <AppProviders showAmount={showAmount} busyMessage={busyMessage} locale={locale}>
      <QueuePanel {...panel} />
    </AppProviders>
  );
}
