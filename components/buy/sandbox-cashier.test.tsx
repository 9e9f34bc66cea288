/** @jest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { renderWithMessages } from '@/test/render-with-messages';
import { BusinessError } from '@/lib/client/api-client';
import type { OrderView } from '@/lib/order/schema';
import { CASHIER_DETAIL_PATH, SandboxCashier, type SandboxPayment } from './sandbox-cashier';

// The sandbox cashier's client part (issue 34): the page is the same for every payment; the payment comes from
// pay/sandbox/detail, and the cashier's buttons settle it as a provider would.

const PAYMENT_NO = 'P202611290800001234567';
const ORDER_NO = '2026112908000012345678';
const replace = jest.fn();
let pathname = `/sandbox/cashier/${PAYMENT_NO}`;
jest.mock('next/navigation', () => ({
  useRouter: () => ({ replace, push: jest.fn(), refresh: jest.fn() }),
  usePathname: () => pathname,
}));
const post = jest.fn();
jest.mock('@/components/shell/api-provider', () => ({ useApi: () => ({ post }) }));

const ORDER: OrderView = {
  orderNo: ORDER_NO,
  saleId: '7',
  quantity: 2,
  price: 4900,
  amount: 9800,
  pricePay: 9800,
  statusTrade: 0,
  cancelReason: null,
  createTime: new Date(Date.now() - 60_000).toISOString(),
  expireTime: new Date(Date.now() + 4 * 60_000 + 30_000).toISOString(),
  payTime: null,
  cancelTime: null,
  commodity: { id: '3', name: 'Aurora Fox', cover: '/goods/fox.svg', isBlindBox: false },
  editions: [],
  refunds: [],
};
const OPEN: SandboxPayment = { paymentNo: PAYMENT_NO, amount: 9800, status: 'created', order: ORDER };

/** The cashier with a fetcher that answers `answer` (or throws it), and what it was asked. */
function show(answer: () => Promise<SandboxPayment>) {
  const asked: unknown[] = [];
  const fetcher = (key: unknown) => {
    asked.push(key);
    return answer();
  };
  renderWithMessages(
    <SWRConfig value={{ fetcher, provider: () => new Map(), shouldRetryOnError: false, dedupingInterval: 0 }}>
      <SandboxCashier merchant="Aurora Collectibles" backLabel="Back" />
    </SWRConfig>,
  );
  return asked;
}

beforeEach(() => {
  replace.mockReset();
  post.mockReset();
  pathname = `/sandbox/cashier/${PAYMENT_NO}`;
});

it('reads the payment of its address, then shows what it charges, for what, the time left and the two buttons', async () => {
  let resolve: (payment: SandboxPayment) => void = () => {};
  const asked = show(() => new Promise((r) => (resolve = r)));
  expect(screen.getByText('Pay to Aurora Collectibles')).toBeInTheDocument();
  expect(screen.getByTestId('cashier-loading')).toHaveTextContent('Reading the payment…');
  expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull();
  resolve(OPEN);
  expect(await screen.findByTestId('cashier-amount')).toHaveTextContent('¥98.00');
  expect(screen.getByText('Item: Aurora Fox × 2')).toBeInTheDocument();
  expect(screen.getByTestId('cashier-countdown')).toHaveTextContent(/^4:(29|30)$/);
  expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', `/pay/fail?orderNo=${ORDER_NO}`);
  expect(asked).toEqual([[CASHIER_DETAIL_PATH, { paymentNo: PAYMENT_NO }]]);

  post.mockResolvedValue({ outcome: 'paid', order: { ...ORDER, statusTrade: 1 } });
  fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
  await waitFor(() => expect(replace).toHaveBeenCalledWith(`/pay/success?orderNo=${ORDER_NO}`));
  expect(post).toHaveBeenCalledWith('/market/api/pay/sandbox/complete', { paymentNo: PAYMENT_NO, outcome: 'paid' });
});

it('reads the payment again once when its time is up, not on every render after, even while that read fails', async () => {
  const expired = { ...OPEN, order: { ...ORDER, expireTime: new Date(Date.now() - 1_000).toISOString() } };
  let calls = 0;
  const asked = show(async () => {
    if (calls++ === 0) return expired;
    throw new Error('offline');
  });
  expect(await screen.findByTestId('cashier-countdown')).toHaveTextContent('0:00');
  await waitFor(() => expect(asked).toHaveLength(2));
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(asked).toHaveLength(2);
});

it('shows a settled or cancelled payment as closed, with no buttons', async () => {
  show(async () => ({ ...OPEN, status: 'paid', order: { ...ORDER, statusTrade: 1 } }));
  expect(await screen.findByTestId('cashier-closed')).toHaveTextContent('This payment is already settled.');
  expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull();
  expect(screen.queryByTestId('cashier-countdown')).toBeNull();
});

it('goes to /404 for an address that is no payment, asking nothing, and for a payment not the buyer’s', async () => {
  pathname = '/sandbox/cashier/P123';
  const asked = show(async () => OPEN);
  await waitFor(() => expect(replace).toHaveBeenCalledWith('/404'));
  expect(asked).toEqual([]);

  replace.mockReset();
  pathname = `/sandbox/cashier/${PAYMENT_NO}`;
  show(async () => {
    throw new BusinessError('Payment not found', 404);
  });
  await waitFor(() => expect(replace).toHaveBeenCalledWith('/404'));
});

it('says the payment did not load and reads it again on a tap', async () => {
  let fail = true;
  show(async () => {
    if (fail) throw new Error('offline');
    return OPEN;
  });
  expect(await screen.findByTestId('cashier-failed')).toHaveTextContent('The payment did not load.');
  fail = false;
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByTestId('cashier-amount')).toHaveTextContent('¥98.00');
});
