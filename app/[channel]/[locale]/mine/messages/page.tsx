import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listMessages, renderMessage } from '@/lib/notice/inbox';
import { MineListPage } from '@/components/layout/mine-list-page';
import { MessageList } from '@/components/inbox/message-list';
import { MarkMessagesRead } from '@/components/inbox/mark-messages-read';

export const generateMetadata = titledPage(({ t }) => t('inbox.title'));

/**
 * /mine/messages (issue 35, "notices tell winners"; login required: a visitor goes to /login and back here): the
 * buyer's own messages on the channel, newest first, 20 a page, in the page's language; unread ones marked, each
 * linking to the goods page of its sale. Once the list is on the screen, the unread ones shown are marked read.
 */
export default async function MessagesPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(props, '/mine/messages');
  const { t, theme, locale } = channel;
  const { rows, pages } = await listMessages(scope, page);
  const messages = rows.map((row) => renderMessage(row, locale, theme.timeZone));
  return (
    <MineListPage
      title={t('inbox.title')}
      backLabel={t('goods.back')}
      pager={{ path: '/mine/messages', page, pages, newer: t('inbox.newer'), older: t('inbox.older'), look: 'link' }}
    >
      <MessageList messages={messages} timeZone={theme.timeZone} t={t} />
      <MarkMessagesRead ids={messages.filter((m) => !m.read).map((m) => m.id)} />
    </MineListPage>
  );
}
