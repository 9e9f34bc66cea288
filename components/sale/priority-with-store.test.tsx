/** @jest-environment jsdom */
import { act, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { StorefrontProvider, useStorefrontStore } from '@/components/shell/storefront-provider';
import { resetServerClock } from '@/lib/client/server-clock';
import { SALE_STATUS } from '@/lib/sale/status';
import type { BuyActionLabels } from './buy-action';
import PriorityWithStore, { PRIORITY_STATUS_URL, type PriorityStanding, type PriorityTexts } from './priority-with-store';

// issue 35, priority purchase on the goods page: the buy bar of a sale that opens early to eligible buyers. A buyer
// learns when eligibility is decided, then whether they may buy early; an eligible one gets "Buy now" in the early
// window, everyone else the countdown to the opening. The whole story runs in e2e/priority.spec.ts.

const DECIDE = '2026-12-01T11:40:00.000Z';
const OPENS = '2026-12-01T11:50:00.000Z';
const STARTS = '2026-12-01T12:00:00.000Z';
const sale = { statusSell: SALE_STATUS.COMING_SOON, saleStartTime: STARTS, saleEndTime: null, amountAvailable: 10 } as const;
const labels: BuyActionLabels = {
  buy: 'Buy now',
  soldOut: 'Sold out',
  ended: 'Sale ended',
  opensAt: 'Opens 12-01 20:00',
  opensIn: ['Opens in ', 'countdown', ''],
  days: ['', 'days', 'd ', 'clock', ''],
  opened: { 0: 'Coming soon', 1: 'On sale', 2: 'Sold out', 3: 'Ended' },
};
const texts: PriorityTexts = {
  decidesAt: 'Eligibility is decided at 12-01 19:40.',
  eligible: 'You can buy from 12-01 19:50 (priority purchase).',
  notEligible: 'You are not eligible for priority purchase; the sale opens to everyone at 12-01 20:00.',
  logIn: 'Log in to see whether you can buy early.',
  earlyOpensAt: 'You can buy from 12-01 19:50',
};
const standing = (over: Partial<PriorityStanding> = {}): PriorityStanding => ({
  opensAt: OPENS,
  saleStartsAt: STARTS,
  decideAt: DECIDE,
  decided: true,
  eligible: true,
  reasons: ['holder'],
  ...over,
});

let answer: () => { code: number; data?: unknown };
let statusCalls = 0;

function at(iso: string) {
  jest.useFakeTimers({ now: new Date(iso).getTime(), doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  resetServerClock();
}

beforeEach(() => {
  statusCalls = 0;
  window.localStorage.clear();
  answer = () => ({ code: 200, data: { priority: standing() } });
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === '/api/time') return { ok: true, status: 200, json: async () => ({ now: Date.now() }) } as Response;
    if (url !== PRIORITY_STATUS_URL) throw new Error(`unexpected ${url}`);
    statusCalls += 1;
    return { ok: true, status: 200, json: async () => answer() } as Response;
  });
});
afterEach(() => jest.useRealTimers());

/** The page's one client store, as a login leaves it (a phone) or a visitor has it (none). */
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

function show() {
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <PriorityWithStore saleId="7" sale={sale} decideAt={DECIDE} renderedAt={Date.now()} labels={labels} texts={texts} showAmount>
        <span>¥99.00</span>
      </PriorityWithStore>
    </SWRConfig>,
  );
}

it('an eligible buyer in the early window gets “Buy now” to the pay page', async () => {
  at('2026-12-01T11:55:00.000Z');
  storeHas('13800000001');
  show();
  await waitFor(() => expect(screen.getByTestId('priority-standing')).toHaveTextContent(texts.eligible));
  expect(screen.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', '/pay/7');
  expect(screen.getByText('¥99.00')).toBeTruthy();
});

it('an eligible buyer before the early window counts down to their own opening, then buys', async () => {
  at('2026-12-01T11:49:58.000Z');
  storeHas('13800000001');
  show();
  await waitFor(() => expect(screen.getByTestId('buy-button')).toHaveTextContent('Opens in 00:00:02'));
  expect(screen.getByTestId('buy-button')).toHaveAccessibleName(texts.earlyOpensAt);
  await act(async () => jest.advanceTimersByTime(2500));
  expect(screen.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', '/pay/7');
});

it('a buyer who is not eligible is told when the sale opens to everyone, and waits for it', async () => {
  at('2026-12-01T11:55:00.000Z');
  storeHas('13800000001');
  answer = () => ({ code: 200, data: { priority: standing({ eligible: false, reasons: [] }) } });
  show();
  await waitFor(() => expect(screen.getByTestId('priority-standing')).toHaveTextContent(texts.notEligible));
  expect(screen.getByTestId('buy-button')).toHaveTextContent('Opens in 00:05:00');
  expect(screen.queryByRole('link', { name: 'Buy now' })).toBeNull();
});

it('before the decision nobody buys early; once due the page asks again and learns the answer without a reload', async () => {
  at('2026-12-01T11:39:58.000Z');
  storeHas('13800000001');
  answer = () => ({ code: 200, data: { priority: standing({ decided: false, eligible: false, reasons: [] }) } });
  show();
  await waitFor(() => expect(screen.getByTestId('priority-standing')).toHaveTextContent(texts.decidesAt));
  expect(screen.getByTestId('buy-button')).toHaveTextContent('Opens in 00:20:02');
  answer = () => ({ code: 200, data: { priority: standing() } });
  await act(async () => jest.advanceTimersByTime(2500));
  await act(async () => jest.advanceTimersByTime(3500));
  await waitFor(() => expect(screen.getByTestId('priority-standing')).toHaveTextContent(texts.eligible));
  expect(screen.getByTestId('buy-button')).toHaveTextContent(/Opens in 00:09:5\d/);
});

it('a visitor is asked to log in and nothing is fetched; the bar is the everyday one', async () => {
  at('2026-12-01T11:55:00.000Z');
  storeHas(null);
  show();
  await waitFor(() => expect(screen.getByTestId('priority-standing')).toHaveTextContent(texts.logIn));
  expect(screen.getByRole('link', { name: texts.logIn })).toHaveAttribute('href', '/login?redirect=%2Fgoods%2Fdetail%2F7');
  await act(async () => jest.advanceTimersByTime(300));
  expect(screen.getByTestId('buy-button')).toHaveTextContent('Opens in 00:05:00');
  expect(statusCalls).toBe(0);
});

it('a session the server does not know (401) is a visitor’s bar', async () => {
  at('2026-12-01T11:55:00.000Z');
  storeHas('13800000001');
  answer = () => ({ code: 401 });
  show();
  await waitFor(() => expect(statusCalls).toBe(1));
  await act(async () => jest.advanceTimersByTime(300));
  expect(screen.getByTestId('priority-standing')).toHaveTextContent('');
  expect(screen.getByTestId('buy-button')).toHaveTextContent('Opens in 00:05:00');
});
