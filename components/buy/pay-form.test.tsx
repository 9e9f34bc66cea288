/** @jest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithMessages } from '@/test/render-with-messages';
import { PayForm } from './pay-form';

// The pay page's form: without the terms agreed it only warns; once they are, the warning goes before the buyer is
// sent to pay, so it cannot follow them onto the payment's pages (issue 17, item 11).

const post = jest.fn();
const push = jest.fn();
const toast = jest.fn();
const dismiss = jest.fn();
jest.mock('@/components/shell/api-provider', () => ({ useApi: () => ({ post }) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ push, replace: jest.fn() }) }));
jest.mock('@/components/ui/toast', () => ({
  showToast: (...args: unknown[]) => toast(...args),
  dismissToasts: () => dismiss(),
}));

it('warns without the terms agreed and sends nothing; once agreed, takes the warning down and goes to pay', async () => {
  post.mockImplementation(async (path: string) =>
    path === '/market/api/order/create' ? { orderNo: '20261125000000012345678' } : { payUrl: '/sandbox/cashier/P1' },
  );
  renderWithMessages(<PayForm saleId="1" price={19900} max={5} limit={5} showAmount />);
  fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
  expect(toast).toHaveBeenCalledWith('warn', 'Please agree to the sales terms first');
  expect(post).not.toHaveBeenCalled();
  expect(dismiss).not.toHaveBeenCalled();

  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
  await waitFor(() => expect(push).toHaveBeenCalledWith('/sandbox/cashier/P1'));
  expect(dismiss).toHaveBeenCalledTimes(1);
  // The warning went before the buyer was sent on.
  expect(dismiss.mock.invocationCallOrder[0]).toBeLessThan(push.mock.invocationCallOrder[0]!);
});
