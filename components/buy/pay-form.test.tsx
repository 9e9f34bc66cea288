/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithMessages } from '@/test/render-with-messages';
import { PayForm, type PayBuyer } from './pay-form';
import { PAY_CLIENTS } from '@/lib/payment/clients';
import { navigation } from './go-pay';
import { BusinessError } from '@/lib/client/api-client';

// The pay page's form: without the terms agreed it only warns; once they are, the warning goes before the buyer is
// sent to pay, so it cannot follow them onto the payment's pages (issue 17, item 11).

/** The buyer's own part as `saleRecord/payState` answers it (issue 34): nothing held, nothing asked. */
const BUYER: PayBuyer = {
  saleId: '1',
  limit: 5,
  held: 0,
  left: 5,
  identity: { standing: 'ok', message: null },
  hasWechatIdentity: false,
  unpaidOrder: null,
  lottery: null,
  notOpenYet: null,
};
const VERIFY = { href: '/mine/identity?back=%2Fpay%2F1', label: 'Verify now' };

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
// The slider itself has its own tests (components/auth); here it stands for a buyer who solves it or closes it.
jest.mock('@/components/auth/slider-captcha', () => ({
  SliderCaptcha: ({ onSolved, onClose }: { onSolved: (ticket: string) => void; onClose: () => void }) => (
    <div role="dialog">
      <button type="button" onClick={() => onSolved('ticket-from-the-slider')}>
        solve the captcha
      </button>
      <button type="button" onClick={onClose}>
        close the captcha
      </button>
    </div>
  ),
}));

it('warns without the terms agreed and sends nothing; once agreed, takes the warning down and goes to pay', async () => {
  post.mockImplementation(async (path: string) =>
    path === '/market/api/order/create' ? { orderNo: '20261125000000012345678' } : { payUrl: '/sandbox/cashier/P1' },
  );
  renderWithMessages(
    <PayForm
      verify={VERIFY}
      buyer={BUYER}
      saleId="1"
      price={19900}
      max={5}
      limit={5}
      showAmount
      options={[{ name: 'sandbox', clients: PAY_CLIENTS }]}
    />,
  );
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

it('carries the waiting room’s admission kept for this sale into the buy (issue 35), and none for another sale', async () => {
  post.mockImplementation(async (path: string) =>
    path === '/market/api/order/create' ? { orderNo: '20261125000000012345678' } : { payUrl: '/sandbox/cashier/P1' },
  );
  window.sessionStorage.setItem('queue-admission:2', JSON.stringify({ token: '2.9.1.sig', expiresAt: Date.now() + 60_000 }));
  try {
    const form = (saleId: string) => (
      <PayForm
        verify={VERIFY}
        buyer={{ ...BUYER, saleId }}
        saleId={saleId}
        price={19900}
        max={5}
        limit={5}
        showAmount
        options={[{ name: 'sandbox', clients: PAY_CLIENTS }]}
      />
    );
    const { unmount } = renderWithMessages(form('2'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(push).toHaveBeenCalledWith('/sandbox/cashier/P1'));
    expect(post).toHaveBeenCalledWith('/market/api/order/create', expect.objectContaining({ saleId: '2', admission: '2.9.1.sig' }));
    unmount();

    post.mockClear();
    renderWithMessages(form('1'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/market/api/order/create', expect.anything()));
    expect(post.mock.calls[0]![1]).not.toHaveProperty('admission');
  } finally {
    window.sessionStorage.clear();
  }
});

describe('the amount (issue 30: a channel that hides amounts showed the price first at the cashier)', () => {
  const options = [{ name: 'sandbox' as const, clients: PAY_CLIENTS }];

  it('where the channel hides amounts, says before the buyer pays that the amount is shown at payment', () => {
    renderWithMessages(
      <PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount={false} options={options} />,
      {
        locale: 'zh-CN',
      },
    );
    expect(screen.getByTestId('pay-amount-at-payment')).toHaveTextContent('金额将在支付时显示');
    expect(screen.queryByText('¥199.00')).not.toBeInTheDocument();
  });

  it('where it shows them, shows the total instead', () => {
    renderWithMessages(<PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={options} />);
    expect(screen.getByTestId('pay-total')).toHaveTextContent('¥199.00');
    expect(screen.queryByText('The amount is shown when you pay')).not.toBeInTheDocument();
  });
});

describe('the way to pay', () => {
  const PHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const WECHAT = `${PHONE} MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN`;
  const options = [
    { name: 'wechatpay' as const, clients: ['wechat', 'mobile'] as const },
    { name: 'sandbox' as const, clients: PAY_CLIENTS },
  ];
  const assign = jest.fn();
  const realUserAgent = navigator.userAgent;
  beforeAll(() => {
    jest.spyOn(navigation, 'leave').mockImplementation(assign);
  });
  afterEach(() => {
    Object.defineProperty(navigator, 'userAgent', { value: realUserAgent, configurable: true });
    post.mockReset();
    assign.mockReset();
  });
  const as = (userAgent: string) => Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });

  it('asks which provider in a phone browser, and opens the chosen one (WeChat Pay H5 is a page of WeChat)', async () => {
    as(PHONE);
    post.mockImplementation(async (path: string) =>
      path === '/market/api/order/create'
        ? { orderNo: '20261125000000012345678' }
        : { payUrl: 'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1' },
    );
    renderWithMessages(<PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={options} />);
    const radios = await screen.findAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).value)).toEqual(['wechatpay', 'sandbox']);
    fireEvent.click(screen.getByRole('radio', { name: 'WeChat Pay' }));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx1'));
    expect(post).toHaveBeenCalledWith('/market/api/pay/create', { orderNo: '20261125000000012345678', provider: 'wechatpay' });
  });

  it('offers the sandbox and Alipay on a phone browser, and only the sandbox inside WeChat', async () => {
    const alipayChannel = [
      { name: 'sandbox' as const, clients: PAY_CLIENTS },
      { name: 'alipay' as const, clients: ['mobile'] as const },
    ];
    as(PHONE);
    post.mockImplementation(async (path: string) =>
      path === '/market/api/order/create'
        ? { orderNo: '20261125000000012345678' }
        : { payUrl: 'https://openapi.alipay.com/gateway.do?method=alipay.trade.wap.pay' },
    );
    const { unmount } = renderWithMessages(
      <PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={alipayChannel} />,
    );
    const radios = await screen.findAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).value)).toEqual(['sandbox', 'alipay']);
    fireEvent.click(screen.getByRole('radio', { name: 'Alipay' }));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://openapi.alipay.com/gateway.do?method=alipay.trade.wap.pay'));
    expect(post).toHaveBeenCalledWith('/market/api/pay/create', { orderNo: '20261125000000012345678', provider: 'alipay' });
    unmount();

    as(WECHAT);
    renderWithMessages(
      <PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={alipayChannel} />,
    );
    await screen.findByRole('button', { name: 'Pay now' });
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
  });

  it('asks nothing on a computer, where only the sandbox fits', async () => {
    as('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Safari/537.36');
    renderWithMessages(<PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={options} />);
    await screen.findByRole('button', { name: 'Pay now' });
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
  });

  it("inside WeChat learns the buyer's WeChat identity first, before any order is made", async () => {
    as(WECHAT);
    renderWithMessages(
      <PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={[options[0]!]} />,
    );
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect(assign).toHaveBeenCalledWith('/api/pay/wechat/oauth?return=%2F');
    expect(post).not.toHaveBeenCalled();
  });
});

it('keeps the order’s key when only its payment could not be opened, so the next tap pays the same order instead of asking for a second one', async () => {
  const keys: string[] = [];
  let payAttempts = 0;
  post.mockReset();
  post.mockImplementation(async (path: string, body: { idempotencyKey?: string }) => {
    if (path === '/market/api/order/create') {
      keys.push(body.idempotencyKey!);
      return { orderNo: '20261125000000012345678' };
    }
    // The first payment attempt is refused (too many attempts a moment ago), the second opens.
    if (++payAttempts === 1) throw new BusinessError('too many payment attempts', 429, { reason: 'flood' });
    return { payUrl: '/sandbox/cashier/P2' };
  });
  renderWithMessages(
    <PayForm
      verify={VERIFY}
      buyer={BUYER}
      saleId="1"
      price={19900}
      max={5}
      limit={5}
      showAmount
      options={[{ name: 'sandbox', clients: PAY_CLIENTS }]}
    />,
  );
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
  await waitFor(() => expect(payAttempts).toBe(1));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Pay now' })).toBeEnabled());
  fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
  await waitFor(() => expect(push).toHaveBeenCalledWith('/sandbox/cashier/P2'));
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
});

describe("the channel's real-name and age rules above Pay (issue 33)", () => {
  const options = [{ name: 'sandbox' as const, clients: PAY_CLIENTS }];
  const verify = VERIFY;
  afterEach(() => post.mockReset());

  it('tells a buyer who has not verified, with the way to verify and back, before they tap', () => {
    renderWithMessages(
      <PayForm
        verify={VERIFY}
        saleId="1"
        price={19900}
        max={5}
        limit={5}
        showAmount
        options={options}
        buyer={{
          ...BUYER,
          identity: { standing: 'unverified', message: 'This store asks buyers to verify their real name before buying.' },
        }}
      />,
    );
    expect(screen.getByTestId('pay-identity-notice')).toHaveTextContent('verify their real name before buying');
    expect(screen.getByRole('link', { name: 'Verify now' })).toHaveAttribute('href', verify.href);
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  });

  it("tells a verified buyer under the age the channel's rule, with no link, and Pay is off", () => {
    renderWithMessages(
      <PayForm
        verify={VERIFY}
        saleId="1"
        price={19900}
        max={5}
        limit={5}
        showAmount
        options={options}
        buyer={{ ...BUYER, identity: { standing: 'underAge', message: 'This store sells this to buyers aged 18 and over.' } }}
      />,
    );
    expect(screen.getByTestId('pay-identity-notice')).toHaveTextContent('aged 18 and over');
    expect(screen.queryByRole('link', { name: 'Verify now' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox'));
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect(post).not.toHaveBeenCalled();
  });

  it('shows nothing where the channel asks nothing', () => {
    renderWithMessages(<PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={options} />);
    expect(screen.queryByTestId('pay-identity-notice')).not.toBeInTheDocument();
  });

  it('shows a real-name refusal at the tap (the rules changed meanwhile) above Pay, with the Verify link', async () => {
    post.mockRejectedValue(new BusinessError('Please verify your real name first.', 1010, { reason: 'identityRequired', action: 'buy' }));
    renderWithMessages(<PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={options} />);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect(await screen.findByTestId('pay-identity-notice')).toHaveTextContent('Please verify your real name first.');
    expect(screen.getByRole('link', { name: 'Verify now' })).toHaveAttribute('href', verify.href);
  });

  it("shows an age refusal at the tap as the channel's rule, and turns Pay off", async () => {
    post.mockRejectedValue(
      new BusinessError('This channel sells to buyers aged 14 and over.', 1011, { reason: 'ageRestricted', action: 'buy', minAge: 14 }),
    );
    renderWithMessages(<PayForm verify={VERIFY} buyer={BUYER} saleId="1" price={19900} max={5} limit={5} showAmount options={options} />);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect(await screen.findByTestId('pay-identity-notice')).toHaveTextContent('aged 14 and over');
    expect(screen.queryByRole('link', { name: 'Verify now' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
  });
});

describe('the captcha at the buy tap (issue 33)', () => {
  beforeEach(() => {
    post.mockReset();
    toast.mockReset();
  });

  it('on 1013 captchaRequired shows the captcha, and once solved sends the same buy again with its ticket', async () => {
    let asked = false;
    post.mockImplementation(async (path: string) => {
      if (path !== '/market/api/order/create') return { payUrl: '/sandbox/cashier/P9' };
      if (!asked) {
        asked = true;
        throw new BusinessError('Please complete a quick security check to place this order.', 1013, { reason: 'captchaRequired' });
      }
      return { orderNo: '20261125000000012345679' };
    });
    renderWithMessages(
      <PayForm
        verify={VERIFY}
        buyer={BUYER}
        saleId="7"
        price={19900}
        max={5}
        limit={5}
        showAmount
        options={[{ name: 'sandbox', clients: PAY_CLIENTS }]}
      />,
    );
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));

    fireEvent.click(await screen.findByRole('button', { name: 'solve the captcha' }));
    await waitFor(() => expect(push).toHaveBeenCalledWith('/sandbox/cashier/P9'));
    const buys = post.mock.calls.filter(([path]) => path === '/market/api/order/create').map(([, body]) => body as Record<string, unknown>);
    expect(buys).toHaveLength(2);
    expect(buys[0]).not.toHaveProperty('captchaTicket');
    expect(buys[1]).toEqual({ ...buys[0], captchaTicket: 'ticket-from-the-slider' });
    expect(screen.queryByRole('button', { name: 'solve the captcha' })).not.toBeInTheDocument();
  });

  it('closed unsolved, says nothing was ordered and sends nothing more', async () => {
    post.mockImplementation(async () => {
      throw new BusinessError('Please complete a quick security check to place this order.', 1013, { reason: 'captchaRequired' });
    });
    renderWithMessages(
      <PayForm
        verify={VERIFY}
        buyer={BUYER}
        saleId="7"
        price={19900}
        max={5}
        limit={5}
        showAmount
        options={[{ name: 'sandbox', clients: PAY_CLIENTS }]}
      />,
    );
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    fireEvent.click(await screen.findByRole('button', { name: 'close the captcha' }));
    expect(toast).toHaveBeenCalledWith('warn', expect.stringContaining('No order was placed'));
    expect(post).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'solve the captcha' })).not.toBeInTheDocument();
  });
});

describe("the buyer's own part, read after the page is shown (issue 34: the page's HTML is the same for every buyer)", () => {
  const options = [{ name: 'sandbox' as const, clients: PAY_CLIENTS }];
  beforeEach(() => post.mockReset());
  const form = (buyer: PayBuyer | null, more: { buyerFailed?: boolean; onRetry?: () => void } = {}) => (
    <PayForm verify={VERIFY} buyer={buyer} {...more} saleId="1" price={19900} max={5} limit={5} showAmount options={options} />
  );

  it('while it loads, holds its line with a placeholder and keeps Pay off', () => {
    renderWithMessages(form(null));
    expect(screen.getByTestId('pay-buyer-loading')).toHaveAttribute('aria-busy', 'true');
    fireEvent.click(screen.getByRole('checkbox'));
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'One more' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    expect(post).not.toHaveBeenCalled();
  });

  it('once known, says how many more the buyer may buy, and the quantity stops there', () => {
    const { rerender } = renderWithMessages(form(null));
    rerender(form({ ...BUYER, held: 3, left: 2 }));
    expect(screen.getByTestId('pay-buyer-left')).toHaveTextContent('You may buy 2 more');
    expect(screen.queryByTestId('pay-buyer-loading')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'One more' }));
    expect(screen.getByTestId('pay-quantity')).toHaveTextContent('2');
    expect(screen.getByRole('button', { name: 'One more' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  });

  it('points a buyer with an unpaid order of the sale to paying it', () => {
    renderWithMessages(
      form({
        ...BUYER,
        held: 5,
        left: 0,
        unpaidOrder: { orderNo: '20261127000000012345678', quantity: 5, amount: 99500, expireTime: '2026-11-27T08:05:00.000Z' },
      }),
    );
    expect(screen.getByTestId('pay-unpaid-order')).toHaveTextContent('You have an unpaid order of this sale (5).');
    expect(screen.getByRole('link', { name: 'Pay it' })).toHaveAttribute('href', '/mine/records');
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
  });

  it('tells a buyer who holds the most one buyer may, and keeps Pay off', () => {
    renderWithMessages(form({ ...BUYER, held: 5, left: 0 }));
    expect(screen.getByTestId('pay-limit-reached')).toHaveTextContent('You hold 5, the most one buyer may buy of this sale.');
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
  });

  it("on a lottery sale, tells a buyer who may not buy now why (the server's words), and keeps Pay off; a winner in time pays", () => {
    const message = 'You were not drawn among the winners of this lottery: you are number 2 on its waitlist.';
    const waitlisted = {
      status: 'waitlist' as const,
      mayBuy: false,
      round: null,
      purchaseEndsAt: null,
      waitlistPosition: 2,
      refusal: 'waitlist' as const,
      message,
    };
    const { unmount } = renderWithMessages(form({ ...BUYER, lottery: waitlisted }));
    expect(screen.getByTestId('pay-not-admitted')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
    unmount();
    const winner = {
      status: 'winner' as const,
      mayBuy: true,
      round: 1,
      purchaseEndsAt: '2026-11-22T09:00:00.000Z',
      waitlistPosition: null,
      refusal: null,
      message: null,
    };
    renderWithMessages(form({ ...BUYER, lottery: winner }));
    expect(screen.queryByTestId('pay-not-admitted')).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  });

  it("in a priority purchase's early window, tells a buyer who is not eligible when the sale opens, and keeps Pay off", () => {
    const message = 'This sale opens at 2026-12-01 20:00 (Asia/Shanghai).';
    const { unmount } = renderWithMessages(form({ ...BUYER, notOpenYet: message }));
    expect(screen.getByTestId('pay-not-admitted')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
    unmount();
    renderWithMessages(form(BUYER));
    expect(screen.queryByTestId('pay-not-admitted')).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  });

  it('when it could not be read, says so with a way to try again, and Pay stays off', () => {
    const retry = jest.fn();
    renderWithMessages(form(null, { buyerFailed: true, onRetry: retry }));
    expect(screen.getByTestId('pay-state-failed')).toHaveTextContent('Your buying details did not load.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
  });

  it('reads the buyer’s part again after a refused buy (their limit may be held by an order made elsewhere)', async () => {
    const reread = jest.fn();
    post.mockRejectedValue(new BusinessError('You already hold 5, the most one buyer may.', 409, { reason: 'limit' }));
    renderWithMessages(form(BUYER, { onRetry: reread }));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(reread).toHaveBeenCalledTimes(1));
  });

  it('inside WeChat, with the WeChat identity known, buys at once rather than asking WeChat again', async () => {
    const realUserAgent = navigator.userAgent;
    const leave = jest.spyOn(navigation, 'leave').mockImplementation(() => {});
    leave.mockClear();
    Object.defineProperty(navigator, 'userAgent', {
      value: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 MicroMessenger/8.0.47(0x18002f2c)',
      configurable: true,
    });
    post.mockImplementation(async (path: string) =>
      path === '/market/api/order/create' ? { orderNo: '20261125000000012345678' } : { payUrl: '/sandbox/cashier/P3' },
    );
    try {
      renderWithMessages(
        <PayForm
          verify={VERIFY}
          buyer={{ ...BUYER, hasWechatIdentity: true }}
          saleId="1"
          price={19900}
          max={5}
          limit={5}
          showAmount
          options={[{ name: 'wechatpay', clients: ['wechat'] }]}
        />,
      );
      fireEvent.click(screen.getByRole('checkbox'));
      fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
      await waitFor(() => expect(post).toHaveBeenCalledWith('/market/api/pay/create', expect.objectContaining({ provider: 'wechatpay' })));
      expect(leave).not.toHaveBeenCalledWith(expect.stringContaining('/api/pay/wechat/oauth'));
    } finally {
      Object.defineProperty(navigator, 'userAgent', { value: realUserAgent, configurable: true });
      leave.mockRestore();
    }
  });
});

// issue 35, the pay page of a sale through a waiting room: the page's HTML is shared, so the buyer's admission is read
// in the browser from the one the goods page kept in the tab. With it, their turn and a live countdown; without it (or
// once it ran out), the waiting room with the way back to the goods page to join, and Pay off: a buy without one is
// sure to be refused.
describe('a sale through a waiting room (issue 35)', () => {
  const keep = (expiresAt: number, token = '2.9.1.sig') =>
    window.sessionStorage.setItem('queue-admission:2', JSON.stringify({ token, expiresAt }));
  const form = (
    <PayForm
      verify={VERIFY}
      buyer={{ ...BUYER, saleId: '2' }}
      saleId="2"
      price={19900}
      max={5}
      limit={5}
      showAmount
      options={[{ name: 'sandbox', clients: PAY_CLIENTS }]}
      waitingRoom
    />
  );
  /** The page's clock moves on a second at a time: each second's render sets the next second's tick. */
  const seconds = (count: number) => {
    for (let i = 0; i < count; i++) act(() => jest.advanceTimersByTime(1_000));
  };
  beforeEach(() => {
    post.mockReset();
    push.mockReset();
  });
  afterEach(() => {
    jest.useRealTimers();
    window.sessionStorage.clear();
  });

  it('counts the buyer’s turn down live with Pay on, and says so when it runs out on the page, Pay off', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-28T08:00:00Z') });
    keep(Date.now() + 65_000);
    renderWithMessages(form);
    expect(screen.getByRole('timer')).toHaveTextContent('It’s your turn: buy within 1:05');
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeEnabled();
    seconds(1);
    expect(screen.getByRole('timer')).toHaveTextContent('buy within 1:04');
    seconds(54);
    expect(screen.getByRole('timer')).toHaveTextContent('buy within 0:10');
    expect(screen.queryByRole('link', { name: /Join the queue/ })).toBeNull();

    seconds(10);
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByTestId('pay-admission-ended')).toHaveTextContent('Your turn to buy has ended.');
    expect(screen.getByRole('link', { name: 'Join the queue again' })).toHaveAttribute('href', '/goods/detail/2');
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
  });

  it('sends the kept admission with the buy', async () => {
    keep(Date.now() + 60_000);
    post.mockImplementation(async (path: string) =>
      path === '/market/api/order/create' ? { orderNo: '20261125000000012345678' } : { payUrl: '/sandbox/cashier/P1' },
    );
    renderWithMessages(form);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(push).toHaveBeenCalledWith('/sandbox/cashier/P1'));
    expect(post).toHaveBeenCalledWith('/market/api/order/create', expect.objectContaining({ saleId: '2', admission: '2.9.1.sig' }));
  });

  it.each([
    ['en', 'This sale goes through a waiting room: join the queue on the sale’s page', 'Join the queue', 'Pay now'],
    ['zh-CN', '本商品需排队购买：请到商品页排队', '去排队', '立即支付'],
  ] as const)(
    'without an admission (%s), says the sale goes through a waiting room, links to join, and sends nothing',
    (locale, text, join, pay) => {
      renderWithMessages(form, { locale });
      expect(screen.getByTestId('pay-admission-none')).toHaveTextContent(text);
      expect(screen.getByRole('link', { name: join })).toHaveAttribute('href', '/goods/detail/2');
      expect(screen.queryByRole('timer')).toBeNull();
      fireEvent.click(screen.getByRole('checkbox'));
      expect(screen.getByRole('button', { name: pay })).toBeDisabled();
      fireEvent.click(screen.getByRole('button', { name: pay }));
      expect(post).not.toHaveBeenCalled();
    },
  );

  it('in Chinese, counts the turn down and says when it ended', () => {
    jest.useFakeTimers({ now: new Date('2026-11-28T08:00:00Z') });
    keep(Date.now() + 3_000);
    renderWithMessages(form, { locale: 'zh-CN' });
    expect(screen.getByRole('timer')).toHaveTextContent('轮到您了：请在 0:03 内购买');
    seconds(3);
    expect(screen.getByTestId('pay-admission-ended')).toHaveTextContent('您的购买时间已结束。');
    expect(screen.getByRole('link', { name: '重新排队' })).toHaveAttribute('href', '/goods/detail/2');
  });

  it('an admission kept for another sale is none of this one’s', () => {
    window.sessionStorage.setItem('queue-admission:3', JSON.stringify({ token: '3.9.1.sig', expiresAt: Date.now() + 60_000 }));
    renderWithMessages(form);
    expect(screen.getByTestId('pay-admission-none')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay now' })).toBeDisabled();
  });

  it('retries a tap whose payment did not open with the admission it first sent, even once that ran out', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-28T08:00:00Z'), advanceTimers: true });
    keep(Date.now() + 2_000);
    let payAttempts = 0;
    post.mockImplementation(async (path: string) => {
      if (path === '/market/api/order/create') return { orderNo: '20261125000000012345678' };
      if (++payAttempts === 1) throw new BusinessError('too many payment attempts', 429, { reason: 'flood' });
      return { payUrl: '/sandbox/cashier/P2' };
    });
    renderWithMessages(form);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(payAttempts).toBe(1));
    act(() => jest.advanceTimersByTime(3_000));
    // The order is made: its payment is what is left to do, the admission's end notwithstanding.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay now' })).toBeEnabled());
    expect(screen.queryByTestId('pay-admission-ended')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pay now' }));
    await waitFor(() => expect(push).toHaveBeenCalledWith('/sandbox/cashier/P2'));
    const buys = post.mock.calls.filter(([path]) => path === '/market/api/order/create');
    expect(buys).toHaveLength(2);
    expect(buys[1]![1]).toEqual(buys[0]![1]);
    expect(buys[1]![1]).toMatchObject({ admission: '2.9.1.sig' });
  });
});
