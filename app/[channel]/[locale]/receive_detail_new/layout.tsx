import type { ReactNode } from 'react';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { AppProviders } from '@/components/shell/app-providers';

/** This section's pages use the client store and the API client (issue 34: only where used; components/shell/app-providers.tsx). */
export default async function Layout({ children, params }: { children: ReactNode; params: Promise<PageParams> }) {
  const channel = await loadPageChannel(params);
  return (
    <AppProviders showAmount={channel.theme.showAmount} busyMessage={channel.t('api.busy')} locale={channel.locale}>
      {children}
    </AppProviders>
  );
}
