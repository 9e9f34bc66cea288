/** @jest-environment jsdom */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import en from '@/lib/i18n/messages/en';
import zhCN from '@/lib/i18n/messages/zh-CN';
import { SaleLottery } from './sale-lottery';
import type { QueueConsoleView } from './sale-queue';

// issue 35, "Each sale has an allocation mode, set in the console's sale form": the waiting room's choice and form in the
// sale's Allocation section, as an operator meets it (set up, refused at a field, frozen once joining opened).

const consoleCall = jest.fn();
const refresh = jest.fn();
jest.mock('./console-call', () => ({ consoleCall: (...args: unknown[]) => consoleCall(...args) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh, push: jest.fn() }) }));

afterEach(() => {
  consoleCall.mockReset();
  refresh.mockReset();
});

const ZONE = 'Asia/Shanghai';

function queue(over: Partial<QueueConsoleView> = {}): QueueConsoleView {
  return {
    joinMinutes: 10,
    graceSeconds: 3,
    holdSeconds: 180,
    admissionSeconds: 60,
    admitPerSecond: 50,
    joinOpensAt: '2026-12-01T11:50:00.000Z',
    shuffleAt: '2026-12-01T12:00:03.000Z',
    frozen: false,
    joined: 0,
    shuffledAt: null,
    ...over,
  };
}

function show(props: Partial<Parameters<typeof SaleLottery>[0]> = {}) {
  return render(
    <SaleLottery
      locale="en"
      channel="AURORA"
      sale="spring-drop"
      timeZone={ZONE}
      copies={3}
      canWrite
      initial={null}
      queue={null}
      result={null}
      verifyUrl="http://aurora.localhost/lottery/7"
      renderedAt={Date.now()}
      words={en.ops.lottery}
      {...props}
    />,
  );
}

it('sets a first-come sale up with a waiting room, sending the settings as numbers, and reads the page again', async () => {
  consoleCall.mockResolvedValue({ ok: true, data: {} });
  show();
  expect(screen.queryByTestId('queue-form')).toBeNull();
  fireEvent.click(screen.getByRole('radio', { name: /Waiting room/ }));
  expect(screen.getByLabelText('Buyers let in a second')).toHaveValue('50');
  fireEvent.change(screen.getByLabelText('Joining opens (minutes before the opening)'), { target: { value: '15' } });
  fireEvent.click(screen.getByRole('button', { name: 'Set up the waiting room' }));
  await waitFor(() => expect(refresh).toHaveBeenCalled());
  expect(consoleCall).toHaveBeenCalledWith(
    '/ops/api/sale/queue/set',
    {
      channel: 'AURORA',
      sale: 'spring-drop',
      joinMinutes: 15,
      graceSeconds: 3,
      holdSeconds: 180,
      admissionSeconds: 60,
      admitPerSecond: 50,
    },
    'en',
  );
  expect(screen.getByRole('status')).toHaveTextContent('Saved.');
});

it('shows the store’s refusal under the field it names', async () => {
  consoleCall.mockResolvedValue({ ok: false, code: 400, message: 'Joining would open in the past.', field: 'joinMinutes' });
  show();
  fireEvent.click(screen.getByRole('radio', { name: /Waiting room/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Set up the waiting room' }));
  const join = screen.getByLabelText('Joining opens (minutes before the opening)');
  await waitFor(() => expect(join).toHaveAttribute('aria-invalid', 'true'));
  expect(join.parentElement!.parentElement).toHaveTextContent('Joining would open in the past.');
  expect(refresh).not.toHaveBeenCalled();
});

it('once set up, shows when joining opens and who is shuffled; it may still become a lottery, not plain first come', () => {
  show({ queue: queue({ joined: 4 }) });
  expect(screen.getByRole('radio', { name: /Waiting room/ })).toBeChecked();
  expect(screen.getByTestId('queue-facts')).toHaveTextContent('Joining opens at 2026-12-01 19:50:00 Asia/Shanghai');
  expect(screen.getByTestId('queue-facts')).toHaveTextContent('2026-12-01 20:00:03 Asia/Shanghai is shuffled together');
  expect(screen.getByTestId('queue-joined')).toHaveTextContent('4');
  expect(screen.getByRole('radio', { name: /First come/ })).toBeDisabled();
  expect(screen.getByRole('radio', { name: /Lottery/ })).toBeEnabled();
  expect(screen.getByRole('button', { name: 'Save the waiting room' })).toBeEnabled();
});

it('once joining opened, keeps every setting read-only with the reason, and no mode can be chosen', () => {
  show({ queue: queue({ frozen: true, joined: 120, shuffledAt: '2026-12-01T12:00:03.000Z' }) });
  expect(screen.getByTestId('queue-frozen')).toHaveTextContent('Frozen: joining opened at 2026-12-01 19:50:00 Asia/Shanghai');
  expect(screen.getByLabelText('Grace after the opening (seconds)')).toBeDisabled();
  expect(screen.queryByRole('button', { name: 'Save the waiting room' })).toBeNull();
  expect(screen.getByRole('radio', { name: /Lottery/ })).toBeDisabled();
  expect(screen.getByText('Shuffled at 2026-12-01 20:00:03 Asia/Shanghai.')).toBeTruthy();
});

it('speaks Chinese to a Chinese operator, and a support operator only reads', () => {
  show({ locale: 'zh-CN', words: zhCN.ops.lottery, canWrite: false, queue: queue() });
  expect(screen.getByRole('radio', { name: /^排队/ })).toBeChecked();
  expect(screen.getByLabelText('每秒放行人数')).toBeDisabled();
  expect(screen.queryByRole('button', { name: '保存排队设置' })).toBeNull();
});
