import Link from 'next/link';
import type { BuyerMessageView } from '@/lib/notice/inbox';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate } from '@/lib/format/date';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';

/**
 * The buyer's own messages (issue 35, /mine/messages), newest first: each its title, body and time in the channel's
 * time zone, an unread one marked (a dot and "New", in the channel's colours) and linking to its goods page; or, with
 * none, the empty state.
 */
export function MessageList({ messages, timeZone, t }: { messages: readonly BuyerMessageView[]; timeZone: string; t: Translator }) {
  if (messages.length === 0) {
    return (
      <EmptyState art="notices" data-testid="messages-empty">
        {t('inbox.empty')}
      </EmptyState>
    );
  }
  return (
    <ul className="flex flex-col gap-3" data-testid="messages">
      {messages.map((m) => {
        const content = (
          <>
            <div className="flex items-center justify-between gap-2">
              <h2 className="flex min-w-0 items-center gap-1.5 text-base font-semibold text-skin-1">
                {m.read ? null : <span className="size-2 shrink-0 rounded-full bg-red-500" aria-hidden="true" />}
                <span className="line-clamp-2">{m.title}</span>
              </h2>
              {m.read ? null : (
                <span className="shrink-0 rounded-full bg-skin-light px-2 py-0.5 text-xs font-medium text-skin-1" data-testid="message-new">
                  {t('inbox.new')}
                </span>
              )}
            </div>
            <p className="mt-1 text-sm text-neutral-600">{m.body}</p>
            <div className="mt-2 flex items-center justify-between gap-2 text-xs text-neutral-500">
              <time dateTime={m.createdAt}>{formatDate(m.createdAt, 'yyyy-MM-dd HH:mm', timeZone)}</time>
              {m.href ? (
                <span className="font-medium text-skin-1">{t(m.kind.startsWith('gift') ? 'inbox.openGift' : 'inbox.open')} →</span>
              ) : null}
            </div>
          </>
        );
        const props = {
          className: `block p-4 ${m.read ? '' : 'ring-1 ring-skin-1/30'} ${m.href ? 'active:opacity-80' : ''}`,
          'data-testid': 'message',
          'data-message-id': m.id,
          'data-read': m.read ? 'true' : 'false',
        };
        return (
          <li key={m.id}>
            {m.href ? (
              <Card as={Link} href={m.href} {...props}>
                {content}
              </Card>
            ) : (
              <Card as="div" {...props}>
                {content}
              </Card>
            )}
          </li>
        );
      })}
    </ul>
  );
}
