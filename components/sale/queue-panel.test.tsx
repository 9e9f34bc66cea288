/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { resetServerClock } from '@/lib/client/server-clock';
import { pollMs, QueuePanel, type QueueLabels, type QueueStanding } from './queue-panel';
import { keptAdmission } from './queue-admission';

// The waiting room's panel on the goods page (issue 35): what a buyer sees in each state of their standing, read from
// `queue/position` (a stand-in API here) and counted down by the server's clock (jest's fake clock here).

const post = jest.fn();
/** The page's watch (`queue/watch`): answered once unless a test streams through it (as a server full of watches does). */
const watch = jest.fn();
const push = jest.fn();
jest.mock('@/components/shell/api-provider', () => ({ useApi: () => ({ post, watch }) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ push, replace: jest.fn() }) }));
/** The buyer this browser's store holds (the masked phone a login keeps), or none: a visitor. */
let phone: string | null = null;
jest.mock('@/components/shell/storefront-provider', () => ({
  useStorefront: <T,>(select: (state: { user: { phone: string | null } }) => T): T => select({ user: { phone } }),
}));

const labels: QueueLabels = {
  title: 'Waiting room',
  intro: 'Join before the opening.',
  opensAt: 'The waiting room opens at 12-01 19:50.',
  logIn: 'Log in to join the queue',
  logInHint: 'Only logged-in buyers can join.',
  join: 'Join the queue',
  joining: 'Joining…',
  joined: 'You are in the queue.',
  shuffleIn: ['Places are drawn at the opening, in ', 'countdown', '.'],
  shuffleNow: 'Drawing places…',
  position: 'Your place',
  ahead: 'Ahead of you',
  wait: 'Estimated wait',
  waitSeconds: ['', 'seconds', ' s'],
  waitMinutes: ['about ', 'minutes', ' min'],
  copiesLeft: 'Copies left',
  keepOpen: 'Keep this page open.',
  yourTurn: 'It’s your turn',
  turnEndsIn: ['Buy within ', 'countdown', ', or your turn goes to the next buyer.'],
  buy: 'Buy now',
  bought: 'You bought a copy of this sale.',
  expired: 'Your turn ran out before you bought.',
  left: 'You left the queue for too long and lost your place.',
  rejoin: 'Join again',
  soldOut: 'Sold out',
  soldOutHint: 'The last copy has gone.',
  ended: 'This sale has ended.',
  failed: 'Your place could not be read just now.',
};

const NOW = new Date('2026-12-01T11:59:50.000Z').getTime();
const OPENS = new Date('2026-12-01T12:00:00.000Z').getTime();
const JOIN_OPENS = OPENS - 10 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

function standing(over: Partial<QueueStanding>): QueueStanding {
  return {
    saleId: '7',
    status: 'notJoined',
    position: null,
    ahead: null,
    estimatedWaitSeconds: null,
    copiesLeft: 5,
    waiting: 0,
    admission: null,
    admissionExpiresAt: null,
    joinOpensAt: iso(JOIN_OPENS),
    shuffleAt: iso(OPENS + 3000),
    pollSeconds: 1,
    ...over,
  };
}

/** The position call answers these in turn (the last one again and again). */
let answers: QueueStanding[] = [];
const positionCalls = () => post.mock.calls.filter(([path]) => path === '/market/api/queue/position').length;

function Providers({ children }: { children: ReactNode }) {
  return (
    <SWRConfig
      value={{ provider: () => new Map(), fetcher: ([path, body]: [string, unknown]) => post(path, body), shouldRetryOnError: false }}
    >
      {children}
    </SWRConfig>
  );
}

function signIn() {
  phone = '137****0001';
}

async function renderPanel(over: 'soldOut' | 'ended' | null = null) {
  render(
    <Providers>
      <QueuePanel saleId="7" joinOpensAt={JOIN_OPENS} over={over} labels={labels} />
    </Providers>,
  );
  await act(async () => {
    await jest.advanceTimersByTimeAsync(10);
  });
}

async function seconds(n: number) {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(n * 1000);
  });
}

beforeEach(() => {
  jest.useFakeTimers({ now: NOW });
  resetServerClock();
  phone = null;
  window.sessionStorage.clear();
  post.mockReset();
  watch.mockReset();
  // As a server with no room for a watch: the place answered once (a join first when asked), then the page polls.
  watch.mockImplementation(async (_path: string, body: { join?: boolean }, onData: (data: unknown, streamed: boolean) => void) => {
    if (body.join) onData(standing({ status: 'waiting', estimatedWaitSeconds: 13, waiting: 1 }), false);
    return 'once';
  });
  push.mockReset();
  answers = [standing({})];
  post.mockImplementation(async () => {
    const next = answers.length > 1 ? answers.shift()! : answers[0]!;
    return next;
  });
  // The server's clock agrees with this one (the page asks it once).
  global.fetch = jest.fn(async () => ({ ok: true, json: async () => ({ now: Date.now() }) }) as Response);
});
afterEach(() => jest.useRealTimers());

test('a visitor is asked to log in and come back, and nothing is asked of the queue', async () => {
  await renderPanel();
  const login = screen.getByRole('link', { name: 'Log in to join the queue' });
  expect(login).toHaveAttribute('href', '/login?redirect=%2Fgoods%2Fdetail%2F7');
  expect(screen.queryByRole('button', { name: 'Join the queue' })).toBeNull();
  expect(post).not.toHaveBeenCalled();
});

test('a buyer joins with a tap, then sees the countdown to the shuffle and the copies left', async () => {
  signIn();
  await renderPanel();
  expect(screen.getByText('Join before the opening.')).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Join the queue' }));
  await seconds(0.01);
  // The tap is one call: the watch, joining first, its refusal said as any call's.
  expect(watch).toHaveBeenCalledWith(
    '/market/api/queue/watch',
    { saleId: '7', join: true },
    expect.any(Function),
    expect.any(AbortSignal),
    {
      say: true,
    },
  );
  expect(screen.getByText('You are in the queue.')).toBeInTheDocument();
  expect(screen.getByText('Places are drawn at the opening, in 0:13.')).toBeInTheDocument();
  expect(screen.getByTestId('queue-position')).toHaveTextContent('–');
  expect(screen.getByTestId('queue-copies-left')).toHaveTextContent('5');
});

test('before joining opens, the buyer is told when, with nothing to tap', async () => {
  jest.setSystemTime(JOIN_OPENS - 60_000);
  signIn();
  await renderPanel();
  expect(screen.getByText('The waiting room opens at 12-01 19:50.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Join the queue' })).toBeNull();
});

test('far back the place is read every few seconds; near the head every second, and it moves without a reload', async () => {
  signIn();
  answers = [
    standing({ status: 'queued', position: 400, ahead: 399, estimatedWaitSeconds: 40, copiesLeft: 90, waiting: 420 }),
    standing({ status: 'queued', position: 400, ahead: 399, estimatedWaitSeconds: 40, copiesLeft: 90, waiting: 420 }),
    standing({ status: 'queued', position: 3, ahead: 2, estimatedWaitSeconds: 1, copiesLeft: 12, waiting: 20 }),
  ];
  await renderPanel();
  expect(screen.getByTestId('queue-position')).toHaveTextContent('#400');
  expect(screen.getByTestId('queue-ahead')).toHaveTextContent('399');
  expect(screen.getByTestId('queue-wait')).toHaveTextContent('40 s');
  expect(screen.getByTestId('queue-copies-left')).toHaveTextContent('90');
  const afterFirst = positionCalls();
  await seconds(1);
  expect(positionCalls()).toBe(afterFirst); // far back: not every second
  await seconds(4);
  expect(positionCalls()).toBe(afterFirst + 1);
  await seconds(5);
  expect(screen.getByTestId('queue-position')).toHaveTextContent('#3');
  expect(screen.getByTestId('queue-ahead')).toHaveTextContent('2');
  expect(screen.getByTestId('queue-copies-left')).toHaveTextContent('12');
  const nearHead = positionCalls();
  await seconds(1);
  expect(positionCalls()).toBe(nearHead + 1); // near the head: every second
});

test('admitted: "It’s your turn", a countdown of the admission’s life, and Buy takes the admission to the pay page', async () => {
  signIn();
  answers = [standing({ status: 'admitted', admission: '7.1.99.sig', admissionExpiresAt: iso(NOW + 60_000) })];
  await renderPanel();
  expect(screen.getByRole('status')).toHaveTextContent('It’s your turn');
  expect(screen.getByTestId('queue-turn-ends')).toHaveTextContent('Buy within 1:00, or your turn goes to the next buyer.');
  await seconds(15);
  expect(screen.getByTestId('queue-turn-ends')).toHaveTextContent('Buy within 0:45');
  fireEvent.click(screen.getByRole('button', { name: 'Buy now' }));
  expect(push).toHaveBeenCalledWith('/pay/7');
  expect(keptAdmission('7')).toBe('7.1.99.sig');
  expect(keptAdmission('8')).toBeNull();
});

test('an admission that ran out is said so, with a way to join again at the back', async () => {
  signIn();
  answers = [standing({ status: 'expired' })];
  await renderPanel();
  expect(screen.getByText('Your turn ran out before you bought.')).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Join again' }));
  await seconds(0.01);
  // The tap is one call: the watch, joining first, its refusal said as any call's.
  expect(watch).toHaveBeenCalledWith(
    '/market/api/queue/watch',
    { saleId: '7', join: true },
    expect.any(Function),
    expect.any(AbortSignal),
    {
      say: true,
    },
  );
  expect(screen.getByText('You are in the queue.')).toBeInTheDocument();
});

test('sold out is said to a waiting buyer at the next read, and the reads stop', async () => {
  signIn();
  answers = [
    standing({ status: 'queued', position: 2, ahead: 1, estimatedWaitSeconds: 1, copiesLeft: 1, waiting: 2 }),
    standing({ status: 'soldOut', copiesLeft: 0 }),
  ];
  await renderPanel();
  expect(screen.getByTestId('queue-position')).toHaveTextContent('#2');
  await seconds(1);
  expect(screen.getByTestId('queue-soldOut')).toHaveTextContent('Sold out');
  expect(screen.queryByRole('button')).toBeNull();
  const calls = positionCalls();
  await seconds(5);
  expect(positionCalls()).toBe(calls);
});

test('a sale sold out when the page was made says so without asking anything', async () => {
  signIn();
  await renderPanel('soldOut');
  expect(screen.getByTestId('queue-soldOut')).toHaveTextContent('Sold out');
  expect(post).not.toHaveBeenCalled();
});

test('an admission kept past its end is not sent with the buy', () => {
  window.sessionStorage.setItem('queue-admission:7', JSON.stringify({ token: 't', expiresAt: NOW - 1 }));
  expect(keptAdmission('7', NOW)).toBeNull();
  window.sessionStorage.setItem('queue-admission:7', '{not json');
  expect(keptAdmission('7', NOW)).toBeNull();
});

test('the pace of reads: a second near the head, five far back, at the shuffle before it, none once it is over', () => {
  expect(pollMs(standing({ status: 'queued', estimatedWaitSeconds: 3 }))).toBe(1000);
  expect(pollMs(standing({ status: 'queued', estimatedWaitSeconds: 300 }))).toBe(5000);
  // Before the shuffle: the next read when it is due (nothing changes before), every five seconds while it is further.
  expect(pollMs(standing({ status: 'waiting', estimatedWaitSeconds: 3 }))).toBe(3000);
  expect(pollMs(standing({ status: 'waiting', estimatedWaitSeconds: 0 }))).toBe(1000);
  expect(pollMs(standing({ status: 'waiting', estimatedWaitSeconds: 60 }))).toBe(5000);
  expect(pollMs(standing({ status: 'admitted' }))).toBe(1000);
  for (const status of ['notJoined', 'bought', 'expired', 'left', 'soldOut', 'ended'] as const)
    expect(pollMs(standing({ status }))).toBe(0);
});

describe('with the watch open (the server pushes: lib/sale/queue-watch.ts)', () => {
  /** The open watch's push, and whether the page has ended it. */
  let pushLine: (standing: QueueStanding) => void;
  let ended: () => boolean;

  beforeEach(() => {
    watch.mockImplementation(
      (_path: string, _body: unknown, onData: (data: unknown, streamed: boolean) => void, signal: AbortSignal) =>
        new Promise<'closed'>((resolve) => {
          pushLine = (s) => act(() => onData(s, true));
          ended = () => signal.aborted;
          signal.addEventListener('abort', () => resolve('closed'));
        }),
    );
  });

  test('the turn and the sell-out arrive as the server pushes them, with no read of the place meanwhile', async () => {
    signIn();
    answers = [standing({ status: 'queued', position: 40, ahead: 39, estimatedWaitSeconds: 40, waiting: 45 })];
    await renderPanel();
    expect(screen.getByTestId('queue-position')).toHaveTextContent('#40');
    expect(watch).toHaveBeenCalledWith('/market/api/queue/watch', { saleId: '7' }, expect.any(Function), expect.any(AbortSignal), {
      say: false,
    });
    const reads = positionCalls();
    pushLine(standing({ status: 'queued', position: 3, ahead: 2, estimatedWaitSeconds: 1, waiting: 8 }));
    expect(screen.getByTestId('queue-position')).toHaveTextContent('#3');
    expect(screen.getByTestId('queue-ahead')).toHaveTextContent('2');
    // Ten seconds near the head: no read, the watch says it all.
    await seconds(10);
    expect(positionCalls()).toBe(reads);
    pushLine(standing({ status: 'admitted', admission: 'signed.token', admissionExpiresAt: iso(NOW + 70_000) }));
    expect(screen.getByRole('status')).toHaveTextContent('It’s your turn');
    pushLine(standing({ status: 'soldOut', copiesLeft: 0 }));
    expect(screen.getByTestId('queue-soldOut').textContent).toBe('Sold out');
    // Over: the watch is ended, and nothing is read again.
    await seconds(1);
    expect(ended()).toBe(true);
    await seconds(10);
    expect(positionCalls()).toBe(reads);
  });

  test('a watch that drops hands over to reads of the place, and is opened again', async () => {
    signIn();
    answers = [standing({ status: 'queued', position: 3, ahead: 2, estimatedWaitSeconds: 1, waiting: 8 })];
    let fail: () => void = () => {};
    watch.mockImplementationOnce(
      (_path: string, _body: unknown, onData: (data: unknown, streamed: boolean) => void) =>
        new Promise<'failed'>((resolve) => {
          onData(standing({ status: 'queued', position: 3, ahead: 2, estimatedWaitSeconds: 1, waiting: 8 }), true);
          fail = () => resolve('failed');
        }),
    );
    await renderPanel();
    const reads = positionCalls();
    await seconds(3);
    expect(positionCalls()).toBe(reads);
    await act(async () => fail());
    // Dropped: the page reads its place every second near the head, and tries the watch again.
    await seconds(3);
    expect(positionCalls()).toBeGreaterThanOrEqual(reads + 2);
    expect(watch).toHaveBeenCalledTimes(2);
  });
});

test('a refused join leaves the button for another tap, and nothing is tried again on its own', async () => {
  signIn();
  watch.mockImplementation(async () => 'refused');
  await renderPanel();
  fireEvent.click(screen.getByRole('button', { name: 'Join the queue' }));
  await seconds(0.01);
  expect(screen.getByRole('button', { name: 'Join the queue' })).toBeEnabled();
  await seconds(60);
  expect(watch).toHaveBeenCalledTimes(1);
});
