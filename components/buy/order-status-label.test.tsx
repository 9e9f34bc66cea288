/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import { translator } from '@/lib/i18n/translator';
import { ORDER_STATUS } from '@/lib/order/status';
import { OrderStatusLabel } from './order-status-label';

// An order that ran out of time unpaid read "Cancelled", the same as one the buyer cancelled (issue 30).

const expired = { statusTrade: ORDER_STATUS.cancelled, cancelReason: 'expired' };
const cancelled = { statusTrade: ORDER_STATUS.cancelled, cancelReason: 'buyer' };

it.each([
  ['en', 'Expired', 'Cancelled'],
  ['zh-CN', '已过期', '已取消'],
] as const)('in %s an expired order reads "%s", one the buyer cancelled "%s"', (locale, expiredText, cancelledText) => {
  const t = translator(locale);
  render(
    <ul>
      <li data-testid="expired">
        <OrderStatusLabel order={expired} t={t} />
      </li>
      <li data-testid="cancelled">
        <OrderStatusLabel order={cancelled} t={t} />
      </li>
    </ul>,
  );
  expect(screen.getByTestId('expired')).toHaveTextContent(new RegExp(`^${expiredText}$`));
  expect(screen.getByTestId('cancelled')).toHaveTextContent(new RegExp(`^${cancelledText}$`));
});

it('writes the other states as before', () => {
  const t = translator('en');
  const { container } = render(
    <>
      <OrderStatusLabel order={{ statusTrade: ORDER_STATUS.toPay, cancelReason: null }} t={t} />
      <OrderStatusLabel order={{ statusTrade: ORDER_STATUS.paid, cancelReason: null }} t={t} />
      <OrderStatusLabel order={{ statusTrade: ORDER_STATUS.closed, cancelReason: 'paidLate' }} t={t} />
    </>,
  );
  expect(Array.from(container.querySelectorAll('span'), (s) => s.textContent)).toEqual(['To pay', 'Paid', 'Closed']);
});

it.each([
  ['en', 'Refunded', 'Paid'],
  ['zh-CN', '已退款', '已支付'],
] as const)(
  'in %s a paid order refunded copy by copy reads "%s" once every copy is back, "%s" before (issue 32)',
  (locale, whole, part) => {
    const t = translator(locale);
    const paid = { statusTrade: ORDER_STATUS.paid, cancelReason: null, quantity: 2 };
    const { container } = render(
      <>
        <OrderStatusLabel order={{ ...paid, refunds: [{ quantity: 1 }] }} t={t} />
        <OrderStatusLabel order={{ ...paid, refunds: [{ quantity: 1 }, { quantity: 1 }] }} t={t} />
      </>,
    );
    expect(Array.from(container.querySelectorAll('span'), (s) => s.textContent)).toEqual([part, whole]);
  },
);
