/** @jest-environment jsdom */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import en from '@/lib/i18n/messages/en';
import zhCN from '@/lib/i18n/messages/zh-CN';
import { SalePriority, type PriorityConsoleView } from './sale-priority';

// issue 35, the console's priority purchase on a sale's page: off and on, the store's refusals at the field they name,
// the whitelist's import with its refused rows, frozen once decided with the eligible count, and what support may not
// do. The whole journey runs in e2e/console-priority.spec.ts.

const consoleCall = jest.fn();
const refresh = jest.fn();
jest.mock('./console-call', () => ({ consoleCall: (...args: unknown[]) => consoleCall(...args) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh, push: jest.fn() }) }));

afterEach(() => {
  consoleCall.mockReset();
  refresh.mockReset();
});

const ZONE = 'Asia/Shanghai';
const COLLECTIBLES = [
  { code: 'aurora-fox', name: 'Aurora Fox' },
  { code: 'night-owl', name: 'Night Owl' },
];

function priority(over: Partial<PriorityConsoleView> = {}): PriorityConsoleView {
  return {
    minutesEarly: 10,
    holderCollectibles: ['aurora-fox'],
    minPaidOrders: 3,
    whitelistCount: 0,
    decideAt: '2026-12-01T11:40:00.000Z',
    decidedAt: null,
    eligibleCount: null,
    opensAt: '2026-12-01T11:50:00.000Z',
    saleStartsAt: '2026-12-01T12:00:00.000Z',
    ...over,
  };
}

function show(props: Partial<Parameters<typeof SalePriority>[0]> = {}) {
  return render(
    <SalePriority
      locale="en"
      channel="AURORA"
      sale="spring-drop"
      timeZone={ZONE}
      canWrite
      firstCome
      collectibles={COLLECTIBLES}
      initial={null}
      words={en.priorityConsole}
      {...props}
    />,
  );
}

it('is off until the operator turns it on, then sends the rules with the decision time in the channel’s zone', async () => {
  consoleCall.mockResolvedValue({ ok: true, data: { priority: priority() } });
  show();
  expect(screen.getByRole('checkbox', { name: 'Open early to eligible buyers' })).not.toBeChecked();
  expect(screen.queryByLabelText('Minutes early')).toBeNull();
  // A list may be imported first, to be the only rule.
  expect(screen.getByTestId('priority-whitelist-count')).toHaveTextContent('Nobody on the list');
  fireEvent.click(screen.getByRole('checkbox', { name: 'Open early to eligible buyers' }));
  fireEvent.change(screen.getByLabelText('Minutes early'), { target: { value: '15' } });
  fireEvent.click(screen.getByRole('checkbox', { name: /Night Owl/ }));
  fireEvent.change(screen.getByLabelText('At least this many paid orders (optional)'), { target: { value: '3' } });
  fireEvent.change(screen.getByLabelText(`Eligibility decided at (${ZONE})`), { target: { value: '2026-12-01T19:40' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save priority purchase' }));
  await waitFor(() => expect(refresh).toHaveBeenCalled());
  expect(consoleCall).toHaveBeenCalledWith(
    '/ops/api/sale/priority/set',
    {
      channel: 'AURORA',
      sale: 'spring-drop',
      priority: {
        minutesEarly: 15,
        holderCollectibles: ['night-owl'],
        minPaidOrders: 3,
        decideAt: '2026-12-01T19:40:00.000+08:00',
      },
    },
    'en',
  );
  expect(screen.getByRole('status')).toHaveTextContent('Saved.');
});

it('shows the store’s refusal under the field it names', async () => {
  consoleCall.mockResolvedValue({
    ok: false,
    code: 400,
    message: 'Decide eligibility no later than the early opening.',
    field: 'decideAt',
  });
  show({ initial: priority() });
  fireEvent.click(screen.getByRole('button', { name: 'Save priority purchase' }));
  const decide = screen.getByLabelText(`Eligibility decided at (${ZONE})`);
  await waitFor(() => expect(decide).toHaveAttribute('aria-invalid', 'true'));
  expect(decide.parentElement!.parentElement).toHaveTextContent('Decide eligibility no later than the early opening.');
  expect(refresh).not.toHaveBeenCalled();
});

it('names bad numbers and an unreadable time at their fields without calling the store', () => {
  show();
  fireEvent.click(screen.getByRole('checkbox', { name: 'Open early to eligible buyers' }));
  fireEvent.change(screen.getByLabelText('Minutes early'), { target: { value: 'ten' } });
  fireEvent.change(screen.getByLabelText('At least this many paid orders (optional)'), { target: { value: '2.5' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save priority purchase' }));
  expect(screen.getAllByText('Enter a whole number.')).toHaveLength(2);
  expect(screen.getByText('Enter a date and time.')).toBeTruthy();
  expect(consoleCall).not.toHaveBeenCalled();
});

it('turned off, removes it', async () => {
  consoleCall.mockResolvedValue({ ok: true, data: { priority: null } });
  show({ initial: priority() });
  expect(screen.getByTestId('priority-facts')).toHaveTextContent(
    'Eligible buyers can buy from 2026-12-01 19:50:00 Asia/Shanghai; everyone from 2026-12-01 20:00:00 Asia/Shanghai.',
  );
  fireEvent.click(screen.getByRole('checkbox', { name: 'Open early to eligible buyers' }));
  fireEvent.click(screen.getByRole('button', { name: 'Save priority purchase' }));
  await waitFor(() => expect(refresh).toHaveBeenCalled());
  expect(consoleCall).toHaveBeenCalledWith('/ops/api/sale/priority/set', { channel: 'AURORA', sale: 'spring-drop', priority: null }, 'en');
  expect(screen.getByRole('status')).toHaveTextContent('Priority purchase is off for this sale.');
});

it('imports a whitelist pasted or read from a file, and lists the refused rows with line, value and why', async () => {
  consoleCall.mockResolvedValue({
    ok: true,
    data: {
      imported: 2,
      whitelistCount: 2,
      refused: [
        { line: 3, value: 'abc', reason: 'notAnAccountNumber' },
        { line: 4, value: '1000000009', reason: 'noSuchBuyer' },
        { line: 6, value: '1000000001', reason: 'duplicate' },
      ],
    },
  });
  show({ initial: priority() });
  const list = screen.getByTestId('priority-whitelist');
  expect(within(list).getByTestId('priority-whitelist-count')).toHaveTextContent('Nobody on the list');
  fireEvent.click(within(list).getByRole('button', { name: 'Import the list' }));
  expect(within(list).getByText('Paste account numbers or choose a file.')).toBeTruthy();
  expect(consoleCall).not.toHaveBeenCalled();

  const csv = 'account_number\n1000000001\nabc\n1000000009\n1000000002\n1000000001\n';
  const file = new File([csv], 'invited.csv', { type: 'text/csv' });
  fireEvent.change(within(list).getByLabelText('Or read a CSV file'), { target: { files: [file] } });
  await waitFor(() => expect(within(list).getByLabelText('Account numbers (CSV)')).toHaveValue(csv));
  fireEvent.click(within(list).getByRole('button', { name: 'Import the list' }));
  await waitFor(() => expect(within(list).getByTestId('priority-imported')).toHaveTextContent('Imported 2 accounts.'));
  expect(consoleCall).toHaveBeenCalledWith('/ops/api/sale/priority/whitelist', { channel: 'AURORA', sale: 'spring-drop', csv }, 'en');
  expect(within(list).getByTestId('priority-whitelist-count')).toHaveTextContent('2 buyers on the list');
  expect(within(list).getByText('3 rows refused')).toBeTruthy();
  expect(
    within(within(list).getByTestId('priority-refused'))
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual([
    'Line 3: “abc” — not an account number',
    'Line 4: “1000000009” — no such buyer in this store',
    'Line 6: “1000000001” — already on the list above',
  ]);
});

it('after the decision: read-only, with the eligible buyers’ count', () => {
  show({ initial: priority({ decidedAt: '2026-12-01T11:40:01.000Z', eligibleCount: 42, whitelistCount: 5 }) });
  expect(screen.getByTestId('priority-decided')).toHaveTextContent(
    'Decided at 2026-12-01 19:40:01 Asia/Shanghai: the settings and the list can no longer change.',
  );
  expect(screen.getByTestId('priority-eligible')).toHaveTextContent('Eligible: 42 buyers');
  expect(screen.getByLabelText('Minutes early')).toBeDisabled();
  expect(screen.getByRole('checkbox', { name: /Aurora Fox/ })).toBeDisabled();
  expect(screen.getByRole('checkbox', { name: /Aurora Fox/ })).toBeChecked();
  expect(screen.queryByRole('button', { name: 'Save priority purchase' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Import the list' })).toBeNull();
  expect(screen.getByTestId('priority-whitelist-count')).toHaveTextContent('5 buyers on the list');
});

it('support reads: nothing to change, nothing to save or import', () => {
  show({ canWrite: false, initial: priority() });
  expect(screen.getByText('Your role can look at priority purchase but not change it.')).toBeTruthy();
  expect(screen.getByRole('checkbox', { name: 'Open early to eligible buyers' })).toBeDisabled();
  expect(screen.getByLabelText('Minutes early')).toBeDisabled();
  expect(screen.queryByRole('button', { name: /Save|Import/ })).toBeNull();
});

it('a lottery or waiting-room sale cannot have it', () => {
  show({ firstCome: false });
  expect(screen.getByText(/Priority purchase is for first-come sales/)).toBeTruthy();
  expect(screen.getByRole('checkbox', { name: 'Open early to eligible buyers' })).toBeDisabled();
  expect(screen.queryByTestId('priority-whitelist')).toBeNull();
});

it('speaks Chinese', () => {
  show({
    locale: 'zh-CN',
    words: zhCN.priorityConsole,
    initial: priority({ decidedAt: '2026-12-01T11:40:01.000Z', eligibleCount: 0 }),
  });
  expect(screen.getByRole('heading', { name: '优先购' })).toBeTruthy();
  expect(screen.getByTestId('priority-eligible')).toHaveTextContent('符合条件：无人');
  expect(screen.getByLabelText('提前分钟数')).toBeDisabled();
});
