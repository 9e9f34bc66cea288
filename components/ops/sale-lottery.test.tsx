/** @jest-environment jsdom */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import en from '@/lib/i18n/messages/en';
import zhCN from '@/lib/i18n/messages/zh-CN';
import { SaleLottery, type LotteryConsoleView } from './sale-lottery';

// issue 35, the console's lottery on a sale's page: the states an operator meets (first come, set up, frozen, the draw
// asked first, drawn) and what a support operator may not do. The whole journey runs in e2e/console-lottery.spec.ts.

const consoleCall = jest.fn();
const refresh = jest.fn();
jest.mock('./console-call', () => ({ consoleCall: (...args: unknown[]) => consoleCall(...args) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh, push: jest.fn() }) }));

afterEach(() => {
  consoleCall.mockReset();
  refresh.mockReset();
});

const ZONE = 'Asia/Shanghai';
const HOUR = 3_600_000;
const COMMITMENT = 'a'.repeat(64);

function lottery(over: Partial<LotteryConsoleView> = {}): LotteryConsoleView {
  const opens = Date.now() + HOUR;
  return {
    copies: 3,
    registrationOpensAt: new Date(opens).toISOString(),
    registrationClosesAt: new Date(opens + HOUR).toISOString(),
    drawAt: new Date(opens + 2 * HOUR).toISOString(),
    purchaseWindowMinutes: 30,
    publicValueSource: 'Welfare Lottery 3D, draw 2026321',
    commitment: COMMITMENT,
    frozen: false,
    registrants: 0,
    drawnAt: null,
    publicValue: null,
    listHash: null,
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

it('goes first come until the operator chooses a lottery, then shows its form', () => {
  show();
  expect(screen.getByRole('radio', { name: /First come/ })).toBeChecked();
  expect(screen.queryByRole('button', { name: 'Set up the lottery' })).toBeNull();
  fireEvent.click(screen.getByRole('radio', { name: /Lottery/ }));
  expect(screen.getByText(/The first 3 are winners and may buy/)).toBeTruthy();
  expect(screen.getByLabelText(`Registration opens (${ZONE})`)).toBeEnabled();
  expect(screen.getByRole('button', { name: 'Set up the lottery' })).toBeEnabled();
});

it('shows the store’s refusal under the field it names, and sends the times in the channel’s zone', async () => {
  consoleCall.mockResolvedValue({
    ok: false,
    code: 400,
    message: 'Registration must close after it opens.',
    field: 'registrationClosesAt',
  });
  show();
  fireEvent.click(screen.getByRole('radio', { name: /Lottery/ }));
  fireEvent.change(screen.getByLabelText(`Registration opens (${ZONE})`), { target: { value: '2026-12-01T20:00:05' } });
  fireEvent.change(screen.getByLabelText(`Registration closes (${ZONE})`), { target: { value: '2026-12-01T19:00' } });
  fireEvent.change(screen.getByLabelText(`Draw (${ZONE})`), { target: { value: '2026-12-02T20:00' } });
  fireEvent.change(screen.getByLabelText('Where the public value comes from'), { target: { value: 'Welfare Lottery 3D' } });
  fireEvent.click(screen.getByRole('button', { name: 'Set up the lottery' }));
  const closes = screen.getByLabelText(`Registration closes (${ZONE})`);
  await waitFor(() => expect(closes).toHaveAttribute('aria-invalid', 'true'));
  expect(closes.parentElement!.parentElement).toHaveTextContent('Registration must close after it opens.');
  expect(consoleCall).toHaveBeenCalledWith(
    '/ops/api/sale/lottery/set',
    expect.objectContaining({
      registrationOpensAt: '2026-12-01T20:00:05.000+08:00',
      registrationClosesAt: '2026-12-01T19:00:00.000+08:00',
      purchaseWindowMinutes: 30,
      publicValueSource: 'Welfare Lottery 3D',
    }),
    'en',
  );
  expect(refresh).not.toHaveBeenCalled();
});

it('names an unreadable time at its field without calling the store', () => {
  show();
  fireEvent.click(screen.getByRole('radio', { name: /Lottery/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Set up the lottery' }));
  expect(screen.getAllByText('Enter a date and time.')).toHaveLength(3);
  expect(consoleCall).not.toHaveBeenCalled();
});

it('once set up, shows the commitment with a copy button, the registrants, and keeps the sale a lottery', async () => {
  const writeText = jest.fn().mockResolvedValue(undefined);
  Object.assign(navigator, { clipboard: { writeText } });
  show({ initial: lottery({ registrants: 12 }) });
  expect(screen.getByTestId('lottery-commitment')).toHaveTextContent(COMMITMENT);
  expect(screen.getByText(/Public from now on/)).toBeTruthy();
  expect(screen.getByTestId('lottery-registrants')).toHaveTextContent('12');
  expect(screen.getByRole('radio', { name: /First come/ })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Save the lottery' })).toBeEnabled();
  fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
  await screen.findByRole('button', { name: 'Copied' });
  expect(writeText).toHaveBeenCalledWith(COMMITMENT);
  expect(screen.getByTestId('lottery-draw')).toHaveTextContent('The draw can be run from');
});

it('frozen once registration opened: every setting read-only, saying since when', () => {
  show({ initial: lottery({ frozen: true, registrationOpensAt: '2026-12-01T12:00:00.000Z' }) });
  expect(screen.getByTestId('lottery-frozen')).toHaveTextContent(
    'Frozen: registration opened at 2026-12-01 20:00:00 Asia/Shanghai, so the settings that decide the draw can no longer change.',
  );
  for (const label of [
    `Registration opens (${ZONE})`,
    `Draw (${ZONE})`,
    'Winners’ time to buy (minutes)',
    'Where the public value comes from',
  ])
    expect(screen.getByLabelText(label)).toBeDisabled();
  expect(screen.queryByRole('button', { name: 'Save the lottery' })).toBeNull();
});

it('after the draw’s time asks for the public value beside its source, and draws only once confirmed', async () => {
  const past = Date.now() - 1000;
  consoleCall.mockResolvedValue({ ok: true, data: {} });
  show({ initial: lottery({ frozen: true, registrants: 5, drawAt: new Date(past).toISOString() }) });
  const draw = screen.getByTestId('lottery-draw');
  expect(within(draw).getByTestId('lottery-draw-source')).toHaveTextContent('Welfare Lottery 3D, draw 2026321');
  fireEvent.change(within(draw).getByLabelText('Public value'), { target: { value: '3 1 4' } });
  fireEvent.click(within(draw).getByRole('button', { name: 'Draw…' }));
  const confirm = screen.getByRole('alertdialog', { name: 'Draw now?' });
  expect(confirm).toHaveTextContent('The draw runs once and cannot be undone. 5 registrants will be ranked with the value “3 1 4”');
  expect(consoleCall).not.toHaveBeenCalled();
  fireEvent.click(within(confirm).getByRole('button', { name: 'Back' }));
  expect(screen.queryByRole('alertdialog')).toBeNull();
  fireEvent.click(within(draw).getByRole('button', { name: 'Draw…' }));
  fireEvent.click(screen.getByRole('button', { name: 'Yes, draw now' }));
  await waitFor(() => expect(refresh).toHaveBeenCalled());
  expect(consoleCall).toHaveBeenCalledWith(
    '/ops/api/sale/lottery/draw',
    { channel: 'AURORA', sale: 'spring-drop', publicValue: '3 1 4' },
    'en',
  );
});

it('shows a refused draw under the public value', async () => {
  consoleCall.mockResolvedValue({
    ok: false,
    code: 400,
    message: 'Enter the public value as its source published it.',
    field: 'publicValue',
  });
  show({ initial: lottery({ frozen: true, drawAt: new Date(Date.now() - 1000).toISOString() }) });
  fireEvent.click(screen.getByRole('button', { name: 'Draw…' }));
  fireEvent.click(screen.getByRole('button', { name: 'Yes, draw now' }));
  await waitFor(() => expect(screen.getByLabelText('Public value')).toHaveAttribute('aria-invalid', 'true'));
  expect(screen.getByText('Enter the public value as its source published it.')).toBeTruthy();
  expect(refresh).not.toHaveBeenCalled();
});

it('once drawn, shows the winners, the waitlist, the value, the list hash and the verify page', () => {
  show({
    initial: lottery({
      frozen: true,
      drawnAt: '2026-12-02T12:00:00.000Z',
      publicValue: '3 1 4',
      listHash: 'b'.repeat(64),
      registrants: 5,
      rounds: [
        { round: 1, from: 1, through: 3, opensAt: '2026-12-02T12:00:00.000Z', endsAt: '2026-12-02T13:00:00.000Z' },
        { round: 2, from: 4, through: 4, opensAt: '2026-12-02T13:00:02.000Z', endsAt: '2026-12-02T14:00:02.000Z' },
      ],
    }),
    result: { winners: ['100023', '100007', '100042'], waitlist: 2 },
  });
  const result = screen.getByTestId('lottery-result');
  expect(within(result).getByTestId('lottery-winners-count')).toHaveTextContent('3 winners');
  expect(
    within(within(result).getByTestId('lottery-winners'))
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['100023', '100007', '100042']);
  // The purchase rounds, in the store's zone: the winners', then the waitlist's turn for the copy left.
  expect(
    within(within(result).getByTestId('lottery-rounds'))
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual([
    'Round 1: ranks 1–3, buying until 2026-12-02 21:00:00 Asia/Shanghai',
    'Round 2: ranks 4–4, buying until 2026-12-02 22:00:02 Asia/Shanghai',
  ]);
  expect(within(result).getByTestId('lottery-waitlist')).toHaveTextContent('2 buyers waiting');
  expect(within(result).getByTestId('lottery-public-value')).toHaveTextContent('3 1 4');
  expect(within(result).getByTestId('lottery-list-hash')).toHaveTextContent('b'.repeat(64));
  expect(within(result).getByRole('link', { name: 'The buyers’ verify page' })).toHaveAttribute(
    'href',
    'http://aurora.localhost/lottery/7',
  );
  expect(screen.queryByTestId('lottery-draw')).toBeNull();
});

it('support reads: the form disabled, no saving and no draw', () => {
  show({ canWrite: false, initial: lottery({ frozen: true, drawAt: new Date(Date.now() - 1000).toISOString() }) });
  expect(screen.getAllByText('Your role can look at the lottery but not change it.').length).toBeGreaterThan(0);
  expect(screen.getByRole('radio', { name: /Lottery/ })).toBeDisabled();
  expect(screen.getByLabelText('Where the public value comes from')).toBeDisabled();
  expect(screen.queryByRole('button', { name: /Save|Set up/ })).toBeNull();
  expect(screen.queryByLabelText('Public value')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Draw…' })).toBeNull();
});

it('support sees a first-come sale read-only too', () => {
  show({ canWrite: false });
  expect(screen.getByRole('radio', { name: /First come/ })).toBeDisabled();
  expect(screen.getByRole('radio', { name: /Lottery/ })).toBeDisabled();
});

it('speaks Chinese', () => {
  show({
    locale: 'zh-CN',
    words: zhCN.ops.lottery,
    initial: lottery({ frozen: true, drawnAt: '2026-12-02T12:00:00.000Z', publicValue: '3 1 4', listHash: 'b'.repeat(64) }),
    result: { winners: ['100023'], waitlist: 0 },
  });
  expect(screen.getByRole('heading', { name: '分配方式' })).toBeTruthy();
  expect(screen.getByTestId('lottery-winners-count')).toHaveTextContent('1 人中签');
  expect(screen.getByTestId('lottery-waitlist')).toHaveTextContent('无人候补');
  expect(screen.getByRole('link', { name: '买家验证页' })).toBeTruthy();
});
