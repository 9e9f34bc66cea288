import 'server-only';
import type { ReactNode } from 'react';
import type { PageChannel } from '@/lib/page/channel';
import { pickMessages, type Namespace } from '@/lib/i18n/pick-messages';
import { MessagesProvider } from './messages-provider';

/**
 * Server side of the message provider: a page wraps its client components in this with the namespaces they read,
 * and only those namespaces of the channel's locale are sent to the browser.
 */
export function ClientMessages({
  channel,
  namespaces,
  children,
}: {
  channel: Pick<PageChannel, 'locale' | 'theme'>;
  namespaces: readonly Namespace[];
  children: ReactNode;
}) {
  return (
    <MessagesProvider locale={channel.locale} timeZone={channel.theme.timeZone} messages={pickMessages(channel.locale, namespaces)}>
      {children}
    </MessagesProvider>
  );
}
