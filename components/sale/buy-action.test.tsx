/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import { SALE_STATUS } from '@/lib/sale/status';
import { resetServerClock } from '@/lib/client/server-clock';
import { BuyAction, type BuyActionLabels } from './buy-action';
import { LiveSaleStatus } from './live-sale-status';

const labels: BuyActionLabels = {
  buy: 'Buy now',
  soldOut: 'Sold out',
  ended: 'Sale ended',
  opensAt: 'Opens 12-01 20:00',
  opensIn: ['Opens in ', 'countdown', ''],
  days: ['', 'days', 'd ', 'clock', ''],
  opened: { 0: 'Coming soon', 1: 'On sale', 2: 'Sold out', 3: 'Ended' },
};
const badgeLabels = {
  text: { 0: 'Coming soon', 1: 'On sale', 2: 'Sold out', 3: 'Ended' },
  opensAt: 'Opens 12-01 20:00',
  days: ['', 'days', 'd ', 'hours', 'h'],
};

describe('a coming-soon sale opens in the page', () => {
  const now = new Date('2026-12-01T11:59:57.400Z').getTime();
  const sale = {
    statusSell: SALE_STATUS.COMING_SOON,
    saleStartTime: '2026-12-01T12:00:00.000Z',
    saleEndTime: null,
    amountAvailable: 10,
  } as const;

  beforeEach(() => {
    jest.useFakeTimers({ now });
    resetServerClock();
    // The server's clock agrees with this one (the page asks it once).
    global.fetch = jest.fn(async () => ({ ok: true, json: async () => ({ now: Date.now() }) }) as Response);
  });
  afterEach(() => jest.useRealTimers());

  it('counts down to the opening second, then offers the buy, without a reload', async () => {
    render(
      <>
        <LiveSaleStatus sale={sale} renderedAt={now} labels={badgeLabels} />
        <BuyAction sale={sale} saleId="7" renderedAt={now} labels={labels} />
      </>,
    );
    await act(async () => {}); // the server's answer about its time
    expect(global.fetch).toHaveBeenCalledTimes(1);
    const timer = screen.getByTestId('buy-button');
    expect(timer).toHaveTextContent('Opens in 00:00:03');
    // Screen readers get when it opens, not a number every second.
    expect(timer).toHaveAttribute('role', 'timer');
    expect(timer).toHaveAttribute('aria-live', 'off');
    expect(timer).toHaveAccessibleName('Opens 12-01 20:00');
    expect(screen.getByTestId('sale-countdown')).toHaveTextContent('00:00:03');
    expect(screen.getByRole('status')).toHaveTextContent('');

    await act(async () => jest.advanceTimersByTime(1000));
    expect(screen.getByTestId('buy-button')).toHaveTextContent('Opens in 00:00:02');
    await act(async () => jest.advanceTimersByTime(1500));
    expect(screen.getByTestId('buy-button')).toHaveTextContent('Opens in 00:00:01');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();

    await act(async () => jest.advanceTimersByTime(250));
    expect(screen.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', '/pay/7');
    expect(screen.getByTestId('sale-status')).toHaveTextContent('On sale');
    expect(screen.getByTestId('sale-status')).toHaveAttribute('data-status', String(SALE_STATUS.ON_SALE));
    expect(screen.getByRole('status')).toHaveTextContent('On sale');
  });

  it('shows days and hours on the badge from a day up', () => {
    const later = { ...sale, saleStartTime: new Date(now + (2 * 86_400 + 3 * 3600 + 30) * 1000).toISOString() };
    render(<LiveSaleStatus sale={later} renderedAt={now} labels={badgeLabels} />);
    expect(screen.getByTestId('sale-countdown')).toHaveTextContent('2d 3h');
    expect(screen.getByRole('timer')).toHaveAccessibleName('Opens 12-01 20:00');
  });
});

describe('Buy is a real link (issue 34)', () => {
  it('goes to the pay page as a plain link would, before any script, and shows the press at once', () => {
    const onSale = {
      statusSell: SALE_STATUS.ON_SALE,
      saleStartTime: '2026-12-01T12:00:00.000Z',
      saleEndTime: null,
      amountAvailable: 10,
    } as const;
    render(<BuyAction sale={onSale} saleId="7" renderedAt={new Date('2026-12-02T00:00:00.000Z').getTime()} labels={labels} />);
    const buy = screen.getByRole('link', { name: 'Buy now' });
    // The proxy sends a visitor without a session on to /login with the way back (proxy.ts), with or without scripts.
    expect(buy).toHaveAttribute('href', '/pay/7');
    expect(buy.className.split(' ')).toContain('active:scale-95');
  });
});
