'use client';

import type { ReactNode } from 'react';
import { StorefrontProvider } from './storefront-provider';
import { ApiProvider } from './api-provider';

/**
 * The client store and the API client (zustand, SWR) for the pages that use them: login, pay, Mine, chain-up, gifts,
 * exchanges, notices, the sandbox cashier. Put in those sections' layouts, not in the channel's root layout, so that a
 * shared page (goods detail, home) does not ship them (issue 34: first-load JavaScript of the goods page).
 * test/client-imports.test.ts checks that every page that uses them sits under such a layout.
 */
export function AppProviders({
  showAmount,
  busyMessage,
  locale,
  children,
}: {
  showAmount: boolean;
  busyMessage: string;
  locale: string;
  children: ReactNode;
}) {
  return (
    <StorefrontProvider showAmount={showAmount}>
      <ApiProvider busyMessage={busyMessage} locale={locale}>
        {children}
      </ApiProvider>
    </StorefrontProvider>
  );
}
