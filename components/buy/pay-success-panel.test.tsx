/** @jest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { renderWithMessages } from '@/test/render-with-messages';
import { BusinessError } from '@/lib/client/api-client';
import type { OrderView } from '@/lib/order/schema';
import { PaySuccessPanel, PAY_RESULT_PATH } from './pay-success-panel';

// The result page's client part (issue 34): the page is the same for every buyer; the order comes from pay/query.

const ORDER_NO = '2026112908000012345678';
const replace = jest.fn();
let search = `orderNo=${ORDER_NO}`;
jest.mock('next/navigation', () => ({
  useRouter: () => ({ replace, push: jest.fn() }),
  useSearchParams: () => new URLSearchParams(search),
}));

const PAID: OrderView = {
  orderNo: ORDER_NO,
  saleId: '7',
  quantity: 2,
  price: 19900,
  amount: 39800,
  pricePay: 39800,
  statusTrade: 1,
  cancelReason: null,
  createTime: '2026-11-29T08:00:00.000Z',
  expireTime: '2026-11-29T08:05:00.000Z',
  payTime: '2026-11-29T08:01:00.000Z',
  cancelTime: null,
  commodity: { id: '3', name: 'Aurora Fox', cover: '/goods/fox.svg', isBlindBox: false },
  editions: [
    { holdingId: '11', number: 41, amountNumber: 500 },
    { holdingId: '12', number: 42, amountNumber: 500 },
  ],
  refunds: [],
};

/** The panel with a fetcher that answers `answer` (or throws it), and what it was asked. */
function show(answer: () => Promise<OrderView>, showAmount = true) {
  const asked: unknown[] = [];
  const fetcher = (key: unknown) => {
    asked.push(key);
    return answer();
  };
  renderWithMessages(
    <SWRConfig value={{ fetcher, provider: () => new Map(), shouldRetryOnError: false, dedupingInterval: 0 }}>
      <PaySuccessPanel image="/brands/aurora/pay-success.svg" placeholderColor="#eee" showAmount={showAmount} />
    </SWRConfig>,
  );
  return asked;
}

beforeEach(() => {
  replace.mockReset();
  search = `orderNo=${ORDER_NO}`;
});

it('waits for the order, then shows what was bought, its edition numbers and where to see it', async () => {
  let resolve: (order: OrderView) => void = () => {};
  const asked = show(() => new Promise((r) => (resolve = r)));
  // Nothing says paid before the order does: the title waits with the buyer.
  expect(screen.getByRole('heading')).toHaveTextContent('Waiting for the payment result…');
  expect(screen.getByTestId('pay-success-pending')).toBeEmptyDOMElement();
  expect(screen.queryByTestId('pay-success-order')).toBeNull();
  // Nor does the picture: the success picture comes with the paid order, a placeholder stands in its place until then.
  expect(document.querySelector('img[src="/brands/aurora/pay-success.svg"]')).toBeNull();
  expect(screen.getByTestId('result-image-waiting')).toBeInTheDocument();
  resolve(PAID);
  expect(await screen.findByTestId('pay-success-order')).toHaveTextContent('Aurora Fox');
  expect(document.querySelector('img[src="/brands/aurora/pay-success.svg"]')).not.toBeNull();
  expect(screen.queryByTestId('result-image-waiting')).toBeNull();
  expect(screen.getByRole('heading')).toHaveTextContent('Payment successful');
  expect(screen.getByTestId('pay-success-editions')).toHaveTextContent('#41/500#42/500');
  expect(screen.getByText('¥398.00')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'See my collection' })).toHaveAttribute('href', '/mine/collection');
  expect(screen.getByRole('link', { name: 'Order records' })).toHaveAttribute('href', '/mine/records');
  expect(asked).toEqual([[PAY_RESULT_PATH, { orderNo: ORDER_NO }]]);
  expect(replace).not.toHaveBeenCalled();
});

it('sends a blind box to the boxes, and hides the amount where the channel does', async () => {
  show(async () => ({ ...PAID, commodity: { ...PAID.commodity, isBlindBox: true } }), false);
  expect(await screen.findByRole('link', { name: 'Open my blind boxes' })).toHaveAttribute('href', '/mine/box');
  expect(screen.queryByText('¥398.00')).toBeNull();
});

it('goes to the fail page for an order not paid, as the page did on the server', async () => {
  show(async () => ({ ...PAID, statusTrade: 0, payTime: null, editions: [] }));
  await waitFor(() => expect(replace).toHaveBeenCalledWith(`/pay/fail?orderNo=${ORDER_NO}`));
  expect(screen.queryByTestId('pay-success-order')).toBeNull();
  expect(document.querySelector('img[src="/brands/aurora/pay-success.svg"]')).toBeNull();
});

it('goes to /404 for a number that is not an order, asking nothing, and for an order not the buyer’s', async () => {
  search = 'orderNo=12345';
  const asked = show(async () => PAID);
  await waitFor(() => expect(replace).toHaveBeenCalledWith('/404'));
  expect(asked).toEqual([]);

  replace.mockReset();
  search = `orderNo=${ORDER_NO}`;
  show(async () => {
    throw new BusinessError('Order not found', 404);
  });
  await waitFor(() => expect(replace).toHaveBeenCalledWith('/404'));
});

it('says the order did not load and reads it again on a tap', async () => {
  let fail = true;
  show(async () => {
    if (fail) throw new Error('offline');
    return PAID;
  });
  expect(await screen.findByTestId('pay-success-failed')).toHaveTextContent('Your order did not load.');
  fail = false;
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByTestId('pay-success-order')).toHaveTextContent('Aurora Fox');
});
