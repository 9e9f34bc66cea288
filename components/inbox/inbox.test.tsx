/** @jest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { renderWithMessages } from '@/test/render-with-messages';
import { translator } from '@/lib/i18n/translator';
import type { BuyerMessageView } from '@/lib/notice/inbox';
import { MINE_STATE_PATH, MineMessagesBadge } from '@/components/mine/mine-state';
import { MarkMessagesRead } from './mark-messages-read';
import { MessageList } from './message-list';

// The buyer's messages (issue 35): the list marks the unread ones and links each to its goods page; once on the screen
// the unread ones shown are marked read, by their ids, and Mine's count is read again; Mine's badge shows the number.

const post = jest.fn();
jest.mock('@/components/shell/api-provider', () => ({ useApi: () => ({ post }) }));

afterEach(() => post.mockReset());

const message = (id: string, read: boolean): BuyerMessageView => ({
  id,
  kind: 'lotteryWon',
  title: `You won the lottery for Star fox ${id}!`,
  body: 'A copy of Star fox is yours to buy: buy it in the store by 11-27 20:00.',
  saleId: '42',
  href: '/goods/detail/42',
  createdAt: '2026-11-27T10:00:00.000Z',
  read,
});

it('marks the unread messages and links each to its goods page', () => {
  renderWithMessages(<MessageList messages={[message('2', false), message('1', true)]} timeZone="Asia/Shanghai" t={translator('en')} />);
  const [unread, read] = screen.getAllByTestId('message');
  expect(within(unread!).getByText('New')).toBeInTheDocument();
  expect(unread).toHaveAttribute('href', '/goods/detail/42');
  expect(unread).toHaveTextContent('You won the lottery for Star fox 2!');
  expect(unread).toHaveTextContent('2026-11-27 18:00');
  expect(within(read!).queryByText('New')).toBeNull();
  expect(read).toHaveAttribute('data-read', 'true');
});

it('says so in Chinese when there is none', () => {
  renderWithMessages(<MessageList messages={[]} timeZone="Asia/Shanghai" t={translator('zh-CN')} />, { locale: 'zh-CN' });
  expect(screen.getByTestId('messages-empty')).toHaveTextContent('暂无消息');
});

it('marks the unread ones shown read, then Mine’s badge goes', async () => {
  let unread = 2;
  post.mockImplementation(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    unread = 0;
    return { marked: 2, unread: 0 };
  });
  const fetcher = jest.fn(async () => ({ unreadMessages: unread }));
  renderWithMessages(
    <SWRConfig value={{ provider: () => new Map(), fetcher, dedupingInterval: 0 }}>
      <MineMessagesBadge />
      <MarkMessagesRead ids={['7', '9']} />
    </SWRConfig>,
  );
  expect(await screen.findByTestId('mine-messages-badge')).toHaveTextContent('2');
  await waitFor(() => expect(post).toHaveBeenCalledWith('/market/api/message/read', { ids: ['7', '9'] }));
  await waitFor(() => expect(screen.queryByTestId('mine-messages-badge')).toBeNull());
  expect(fetcher).toHaveBeenCalledWith(MINE_STATE_PATH);
});

it('calls nothing when every message shown is read', async () => {
  renderWithMessages(<MarkMessagesRead ids={[]} />);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(post).not.toHaveBeenCalled();
});

it('shows Mine’s badge with the unread count, in both languages, and nothing at zero', async () => {
  const withState = (unreadMessages: number) => (
    <SWRConfig value={{ provider: () => new Map(), fetcher: () => Promise.resolve({ unreadMessages }) }}>
      <MineMessagesBadge />
    </SWRConfig>
  );
  const { unmount } = renderWithMessages(withState(3));
  expect(await screen.findByTestId('mine-messages-badge')).toHaveTextContent('3');
  expect(screen.getByRole('status', { name: '3 unread messages' })).toBeInTheDocument();
  unmount();
  const zh = renderWithMessages(withState(120), { locale: 'zh-CN' });
  expect(await screen.findByRole('status', { name: '120 条未读消息' })).toHaveTextContent('99+');
  zh.unmount();
  renderWithMessages(withState(0));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(screen.queryByTestId('mine-messages-badge')).toBeNull();
});
