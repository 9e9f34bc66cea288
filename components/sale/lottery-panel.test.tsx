/** @jest-environment jsdom */
import { fireEvent, screen } from '@testing-library/react';
import { renderWithMessages } from '@/test/render-with-messages';
import type { Locale } from '@/lib/i18n/locale';
import { LotteryPanelView, type BuyerState, type LotteryPanelViewProps, type LotteryStanding } from './lottery-panel';

// The lottery's buy bar on the goods page (issue 35): what the buyer reads and can tap in each state of their standing,
// by the server's clock, in the channel's time zone (Shanghai, UTC+8), in both languages.

const TIMES = {
  registrationOpensAt: '2026-12-01T12:00:00.000Z',
  registrationClosesAt: '2026-12-01T13:00:00.000Z',
  drawAt: '2026-12-01T14:00:00.000Z',
};
const ms = (iso: string) => new Date(iso).getTime();
const VERIFY = { href: '/mine/identity?back=%2Fgoods%2Fdetail%2F7', label: 'Verify now' };

const standing = (over: Partial<LotteryStanding>): BuyerState => ({
  kind: 'standing',
  standing: {
    saleId: '7',
    status: 'notRegistered',
    drawn: false,
    mayBuy: false,
    accountNumber: null,
    registeredAt: null,
    round: null,
    purchaseEndsAt: null,
    waitlistPosition: null,
    ...TIMES,
    commitment: 'c'.repeat(64),
    ...over,
  },
});

function show(buyer: BuyerState, now: number, extra: Partial<LotteryPanelViewProps> = {}, locale: Locale = 'en') {
  const onRegister = jest.fn();
  const onRetry = jest.fn();
  renderWithMessages(
    <LotteryPanelView
      saleId="7"
      times={TIMES}
      timeZone="Asia/Shanghai"
      now={now}
      buyer={buyer}
      registering={false}
      refusal={null}
      verify={VERIFY}
      onRegister={onRegister}
      onRetry={onRetry}
      {...extra}
    />,
    { locale },
  );
  return { onRegister, onRetry, button: screen.getByTestId('lottery-button'), line: screen.getByTestId('lottery-standing') };
}

const DURING = ms('2026-12-01T12:30:00.000Z');

describe('before the buyer is known', () => {
  it('keeps the button’s place with a placeholder while the page hydrates and the standing is asked', () => {
    const { button, line } = show({ kind: 'pending' }, DURING);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAccessibleName('Checking your registration…');
    expect(button.tagName).toBe('SPAN');
    // The standing's line holds its two lines: the window and the draw until the buyer's standing is known.
    expect(line).toHaveTextContent('Registration 12-01 20:00 – 12-01 21:00 · draw 12-01 22:00');
    expect(line).toHaveClass('min-h-[2lh]');
  });

  it('sends a visitor to log in, and back to this goods page, to register', () => {
    const { button } = show({ kind: 'visitor' }, DURING);
    expect(button).toHaveTextContent('Register for the draw');
    expect(button).toHaveAttribute('href', '/login?redirect=%2Fgoods%2Fdetail%2F7');
  });

  it('counts down to registration’s opening, its accessible name the opening time in the channel’s zone', () => {
    const { button } = show({ kind: 'visitor' }, ms('2026-12-01T11:58:30.000Z'));
    expect(button).toHaveTextContent('Registration opens in 00:01:30');
    expect(button).toHaveAttribute('role', 'timer');
    expect(button).toHaveAccessibleName('Registration opens in 2026-12-01 20:00');
    expect(button).toHaveAttribute('aria-disabled', 'true');
  });

  it('offers a retry when the standing could not be read', () => {
    const { button, onRetry } = show({ kind: 'failed' }, DURING);
    expect(screen.getByText('Your registration could not be checked.')).toBeVisible();
    fireEvent.click(button);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('registering', () => {
  it('a signed-in buyer not registered taps Register; while it goes the button says so and takes no second tap', () => {
    const first = show(standing({}), DURING);
    expect(first.button).toHaveTextContent('Register for the draw');
    fireEvent.click(first.button);
    expect(first.onRegister).toHaveBeenCalledTimes(1);
  });

  it('is disabled while registering', () => {
    const { button, onRegister } = show(standing({}), DURING, { registering: true });
    expect(button).toHaveTextContent('Registering…');
    expect(button).toBeDisabled();
    fireEvent.click(button);
    expect(onRegister).not.toHaveBeenCalled();
  });

  it('refused for the channel’s real-name rule (1010): the same “verify your identity” line as the buy button’s', () => {
    show(standing({}), DURING, {
      refusal: { message: 'This store sells its collectibles only to buyers with a verified real name.', identity: true },
    });
    expect(screen.getByTestId('identity-notice')).toHaveTextContent('only to buyers with a verified real name');
    expect(screen.getByTestId('identity-verify-link')).toHaveAttribute('href', VERIFY.href);
  });

  it('another refusal is said as the server said it', () => {
    show(standing({}), DURING, { refusal: { message: 'Registration for this lottery closed at 2026-12-01 21:00.', identity: false } });
    expect(screen.getByRole('alert')).toHaveTextContent('Registration for this lottery closed');
  });
});

describe('the buyer’s standing', () => {
  it('registered: their account number and a countdown to the draw', () => {
    const { button, line } = show(standing({ status: 'registered', accountNumber: '4821930571' }), ms('2026-12-01T13:00:00.000Z'));
    expect(line).toHaveTextContent('Registered · account 4821930571');
    expect(button).toHaveTextContent('Draw in 01:00:00');
    expect(button).toHaveAccessibleName('Draw in 2026-12-01 22:00');
  });

  it('registered, the draw due but not run: results shortly', () => {
    const { button } = show(standing({ status: 'registered', accountNumber: '4821930571' }), ms('2026-12-01T14:00:05.000Z'));
    expect(button).toHaveTextContent('The draw is due: results shortly');
  });

  it('a winner: a countdown to the end of their purchase window and a Buy button to the pay page', () => {
    const { button, line } = show(
      standing({
        status: 'winner',
        drawn: true,
        mayBuy: true,
        accountNumber: '4821930571',
        purchaseEndsAt: '2026-12-01T15:00:00.000Z',
      }),
      ms('2026-12-01T14:10:00.000Z'),
    );
    expect(line).toHaveTextContent('You were drawn! Buy within 00:50:00');
    expect(button).toHaveTextContent('Buy now');
    expect(button).toHaveAttribute('href', '/pay/7');
  });

  it('a winner whose window ran out while the page was open: no Buy', () => {
    const { button, line } = show(
      standing({ status: 'winner', drawn: true, mayBuy: true, purchaseEndsAt: '2026-12-01T15:00:00.000Z' }),
      ms('2026-12-01T15:00:00.000Z'),
    );
    expect(line).toHaveTextContent('Your time to buy as a winner ended at 2026-12-01 23:00.');
    expect(button).toHaveTextContent('Purchase window over');
    expect(button).not.toHaveAttribute('href');
  });

  it('waitlisted: their place', () => {
    const { button, line } = show(standing({ status: 'waitlist', drawn: true, waitlistPosition: 3 }), ms('2026-12-01T14:10:00.000Z'));
    expect(line).toHaveTextContent('Not drawn this time: you are number 3 on the waitlist.');
    expect(button).toHaveTextContent('On the waitlist');
  });

  it('not registered when registration closed: told so, nothing to tap', () => {
    const { button, line } = show(standing({}), ms('2026-12-01T13:30:00.000Z'));
    expect(line).toHaveTextContent('Registration closed at 2026-12-01 21:00: you did not register for this draw.');
    expect(button).toHaveTextContent('Registration closed');
    expect(button).toHaveAttribute('aria-disabled', 'true');
  });

  it('a visitor after the close sees only that it closed', () => {
    const { button, line } = show({ kind: 'visitor' }, ms('2026-12-01T13:30:00.000Z'));
    expect(button).toHaveTextContent('Registration closed');
    expect(line).not.toHaveTextContent('you did not register');
  });
});

describe('in Chinese', () => {
  it('says each state in the channel’s language', () => {
    show(standing({ status: 'waitlist', drawn: true, waitlistPosition: 2 }), ms('2026-12-01T14:10:00.000Z'), {}, 'zh-CN');
    expect(screen.getByTestId('lottery-standing')).toHaveTextContent('本次未中签：你在候补名单第 2 位。');
    expect(screen.getByTestId('lottery-button')).toHaveTextContent('候补中');
  });

  it('a winner’s countdown and Buy', () => {
    show(
      standing({ status: 'winner', drawn: true, mayBuy: true, purchaseEndsAt: '2026-12-03T15:00:00.000Z' }),
      ms('2026-12-01T14:00:00.000Z'),
      {},
      'zh-CN',
    );
    expect(screen.getByTestId('lottery-standing')).toHaveTextContent('恭喜中签！请在 2天 01:00:00 内购买');
    expect(screen.getByTestId('lottery-button')).toHaveTextContent('立即购买');
  });

  it('registered, with the account number and the draw’s countdown', () => {
    show(standing({ status: 'registered', accountNumber: '4821930571' }), ms('2026-12-01T13:59:50.000Z'), {}, 'zh-CN');
    expect(screen.getByTestId('lottery-standing')).toHaveTextContent('已登记 · 账号 4821930571');
    expect(screen.getByTestId('lottery-button')).toHaveTextContent('00:00:10 后抽签');
  });
});
