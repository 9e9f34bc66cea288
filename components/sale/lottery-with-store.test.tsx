/** @jest-environment jsdom */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { StorefrontProvider, useStorefrontStore } from '@/components/shell/storefront-provider';
import { resetServerClock } from '@/lib/client/server-clock';
import { CATALOGUES } from '@/lib/i18n/translator';
import LotteryWithStore, { LOTTERY_REGISTER_URL, LOTTERY_STATUS_URL } from './lottery-with-store';

// The lottery's buy bar with what it reads (issue 35): the standing comes from `lottery/status` only where this browser
// has logged in; a double tap on Register sends one registration; a 1010 refusal shows the verify path.

const push = jest.fn();
const toast = jest.fn();
jest.mock('@/components/ui/toast', () => ({ showToast: (...args: unknown[]) => toast(...args) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ push, replace: jest.fn() }) }));

const NOW = new Date('2026-12-01T12:30:00.000Z').getTime();
const TIMES = {
  registrationOpensAt: '2026-12-01T12:00:00.000Z',
  registrationClosesAt: '2026-12-01T13:00:00.000Z',
  drawAt: '2026-12-01T14:00:00.000Z',
};
const STANDING = {
  saleId: '7',
  status: 'notRegistered',
  drawn: false,
  mayBuy: false,
  accountNumber: null,
  registeredAt: null,
  purchaseEndsAt: null,
  waitlistPosition: null,
  ...TIMES,
  commitment: 'c'.repeat(64),
};

type Answer = { code: number; message?: string; data?: unknown };
let answers: Record<string, (() => Promise<Answer>) | undefined>;
const calls: string[] = [];

beforeEach(() => {
  jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  resetServerClock();
  calls.length = 0;
  push.mockReset();
  window.localStorage.clear();
  answers = {};
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    if (url === '/api/time') return { ok: true, status: 200, json: async () => ({ now: Date.now() }) } as Response;
    const answer = await (answers[url] ?? (async () => ({ code: 404 })))();
    return { ok: true, status: 200, json: async () => answer } as Response;
  });
});
afterEach(() => jest.useRealTimers());

function show(identityShown = false) {
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <LotteryWithStore
        saleId="7"
        times={TIMES}
        timeZone="Asia/Shanghai"
        locale="en"
        messages={{ lottery: CATALOGUES.en.lottery }}
        showAmount
        renderedAt={NOW}
        verify={{ href: '/mine/identity?back=%2Fgoods%2Fdetail%2F7', label: 'Verify now' }}
        identityShown={identityShown}
      />
    </SWRConfig>,
  );
}

/** The page's one client store (components/shell/storefront-provider.tsx), as a login leaves it: a phone, no token. */
function storeHas(phone: string | null) {
  function Set() {
    const store = useStorefrontStore();
    if (phone) store.getState().setUser({ phone });
    else store.getState().clearUser();
    return null;
  }
  render(
    <StorefrontProvider showAmount>
      <Set />
    </StorefrontProvider>,
  ).unmount();
}
const signedIn = () => storeHas('13800000001');

it('a visitor is not asked about: Register sends them to log in', async () => {
  storeHas(null);
  show();
  const button = await screen.findByRole('link', { name: 'Register for the draw' });
  expect(button).toHaveAttribute('href', '/login?redirect=%2Fgoods%2Fdetail%2F7');
  expect(calls.filter((c) => c.includes('/lottery/'))).toEqual([]);
});

it('a double tap registers once, and the bar shows the registration with the account number', async () => {
  signedIn();
  answers[LOTTERY_STATUS_URL] = async () => ({ code: 200, data: STANDING });
  let release: () => void = () => {};
  answers[LOTTERY_REGISTER_URL] = () =>
    new Promise((resolve) => {
      release = () => resolve({ code: 200, data: { ...STANDING, status: 'registered', accountNumber: '4821930571' } });
    });
  show();
  const button = await screen.findByRole('button', { name: 'Register for the draw' });
  fireEvent.click(button);
  fireEvent.click(button);
  expect(calls.filter((c) => c === LOTTERY_REGISTER_URL)).toHaveLength(1);
  expect(screen.getByTestId('lottery-button')).toHaveTextContent('Registering…');
  await act(async () => release());
  await waitFor(() => expect(screen.getByTestId('lottery-standing')).toHaveTextContent('Registered · account 4821930571'));
  expect(screen.getByTestId('lottery-button')).toHaveTextContent('Draw in 01:30:00');
  expect(calls.filter((c) => c === LOTTERY_REGISTER_URL)).toHaveLength(1);
});

it('refused for the real-name rule (1010): the verify link, and the buyer may try again after verifying', async () => {
  signedIn();
  answers[LOTTERY_STATUS_URL] = async () => ({ code: 200, data: STANDING });
  answers[LOTTERY_REGISTER_URL] = async () => ({
    code: 1010,
    message: 'This store sells its collectibles only to buyers with a verified real name.',
    data: { reason: 'identity' },
  });
  show();
  fireEvent.click(await screen.findByRole('button', { name: 'Register for the draw' }));
  const notice = await screen.findByTestId('identity-notice');
  expect(notice).toHaveTextContent('only to buyers with a verified real name');
  expect(screen.getByRole('link', { name: 'Verify now' })).toHaveAttribute('href', '/mine/identity?back=%2Fgoods%2Fdetail%2F7');
  expect(screen.getByRole('button', { name: 'Register for the draw' })).toBeEnabled();
});

it('refused for the real-name rule where the page shows the rule’s line with its link already: said in a toast, once', async () => {
  signedIn();
  toast.mockReset();
  answers[LOTTERY_STATUS_URL] = async () => ({ code: 200, data: STANDING });
  answers[LOTTERY_REGISTER_URL] = async () => ({ code: 1010, message: 'Verify your real name first.', data: null });
  show(true);
  fireEvent.click(await screen.findByRole('button', { name: 'Register for the draw' }));
  await waitFor(() => expect(toast).toHaveBeenCalledWith('warn', 'Verify your real name first.'));
  expect(screen.queryByTestId('identity-notice')).toBeNull();
});

it('a session the server no longer knows reads as a visitor (no redirect from a page they only opened)', async () => {
  signedIn();
  answers[LOTTERY_STATUS_URL] = async () => ({ code: 401, message: 'not logged in' });
  show();
  expect(await screen.findByRole('link', { name: 'Register for the draw' })).toHaveAttribute(
    'href',
    '/login?redirect=%2Fgoods%2Fdetail%2F7',
  );
  expect(push).not.toHaveBeenCalled();
});

it('a winner learns it without a reload: once the draw is due the standing is asked again until it ran', async () => {
  signedIn();
  jest.setSystemTime(new Date('2026-12-01T13:59:58.000Z'));
  let drawn = false;
  answers[LOTTERY_STATUS_URL] = async () => ({
    code: 200,
    data: drawn
      ? {
          ...STANDING,
          status: 'winner',
          drawn: true,
          mayBuy: true,
          accountNumber: '4821930571',
          purchaseEndsAt: '2026-12-01T15:00:00.000Z',
        }
      : { ...STANDING, status: 'registered', accountNumber: '4821930571' },
  });
  show();
  await waitFor(() => expect(screen.getByTestId('lottery-standing')).toHaveTextContent('Registered · account 4821930571'));
  drawn = true;
  // The page as it runs: the clock's tick renders it four times a second, each tick its own turn.
  for (let tick = 0; tick < 40; tick++) await act(async () => jest.advanceTimersByTime(250));
  await waitFor(() => expect(screen.getByTestId('lottery-button')).toHaveTextContent('Buy now'));
  expect(screen.getByTestId('lottery-standing')).toHaveTextContent(/You were drawn! Buy within 00:5\d:\d\d/);
});
