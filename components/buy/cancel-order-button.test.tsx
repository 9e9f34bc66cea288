/** @jest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithMessages } from '@/test/render-with-messages';
import { BusinessError } from '@/lib/client/api-client';
import { CancelOrderButton } from './cancel-order-button';

// Cancelling an order said nothing: the row changed its word and that was all (issue 30).

const post = jest.fn();
const refresh = jest.fn();
const toast = jest.fn();
jest.mock('@/components/shell/api-provider', () => ({ useApi: () => ({ post }) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh }) }));
jest.mock('@/components/ui/confirm', () => ({ confirm: () => Promise.resolve() }));
jest.mock('@/components/ui/toast', () => ({ showToast: (...args: unknown[]) => toast(...args) }));

afterEach(() => {
  post.mockReset();
  refresh.mockReset();
  toast.mockReset();
});

it('says the order was cancelled once the store has cancelled it, and shows the records again', async () => {
  post.mockResolvedValue({ orderNo: '2026112600000012345678' });
  renderWithMessages(<CancelOrderButton orderNo="2026112600000012345678" />);
  fireEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
  await waitFor(() => expect(refresh).toHaveBeenCalled());
  expect(post).toHaveBeenCalledWith('/market/api/order/cancel', { orderNo: '2026112600000012345678' });
  expect(toast).toHaveBeenCalledWith('success', 'Order cancelled');
});

it('says it in the channel’s language', async () => {
  post.mockResolvedValue({ orderNo: '2026112600000012345678' });
  renderWithMessages(<CancelOrderButton orderNo="2026112600000012345678" />, { locale: 'zh-CN' });
  fireEvent.click(screen.getByRole('button', { name: '取消订单' }));
  await waitFor(() => expect(toast).toHaveBeenCalledWith('success', '订单已取消'));
});

it('claims nothing when the store refused (the client has shown its refusal)', async () => {
  post.mockRejectedValue(new BusinessError('This order is already paid.', 409));
  renderWithMessages(<CancelOrderButton orderNo="2026112600000012345678" />);
  fireEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
  await waitFor(() => expect(refresh).toHaveBeenCalled());
  expect(toast).not.toHaveBeenCalled();
});
