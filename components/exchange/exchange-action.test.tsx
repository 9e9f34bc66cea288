/** @jest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BusinessError, ServiceError } from '@/lib/client/api-client';
import { renderWithMessages } from '@/test/render-with-messages';
import { ExchangeAction } from './exchange-action';

// The Exchange button (spec §2 exchangeDetail): asks in the confirm sheet, posts exchange/create once per confirmed
// tap, keeps the tap's key when the call failed on the way (so a retry cannot exchange twice), shows the result.

const post = jest.fn();
const refresh = jest.fn();
const toast = jest.fn();
jest.mock('@/components/shell/api-provider', () => ({ useApi: () => ({ post }) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh }) }));
jest.mock('@/components/ui/toast', () => ({ showToast: (...args: unknown[]) => toast(...args) }));

// What the page shows, read from the real English catalogue.
const texts = {
  confirm: 'Spend 2 × Starter Card (#1/20000, #2/20000) to get Swap Club Badge? What you spend is destroyed and cannot be undone.',
  done: 'Exchanged! Swap Club Badge is in your collection now.',
};
const spend = [{ quantity: 2, name: 'Starter Card', editions: ['#1/20000', '#2/20000'] }];

const record = {
  id: '9',
  output: { holdingId: '77', commodity: { name: 'Swap Club Badge', cover: '/goods/jade-dragon.svg' }, number: 12, amountNumber: 1000 },
};

function renderAction(props: Partial<Parameters<typeof ExchangeAction>[0]> = {}) {
  return renderWithMessages(
    <ExchangeAction
      campaignId="6"
      offerId="7"
      holdingIds={['3', '4']}
      requiresCode={false}
      refusal={null}
      spend={spend}
      outputName="Swap Club Badge"
      placeholderColor="#dcfce7"
      {...props}
    />,
  );
}

/** Taps Exchange and answers the sheet. */
async function tapExchange(answer: 'Exchange' | 'Cancel', question = texts.confirm) {
  fireEvent.click(screen.getByRole('button', { name: 'Exchange' }));
  const sheet = await screen.findByRole('dialog', { name: 'Confirm exchange' });
  expect(sheet).toHaveTextContent(question);
  fireEvent.click(within(sheet).getByRole('button', { name: answer }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

const keysSent = () => post.mock.calls.map(([, body]) => (body as { idempotencyKey: string }).idempotencyKey);

beforeEach(() => {
  post.mockReset();
  refresh.mockReset();
  toast.mockReset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

it('cancelling the sheet sends nothing', async () => {
  renderAction();
  await tapExchange('Cancel');
  expect(post).not.toHaveBeenCalled();
  expect(screen.getByRole('button', { name: 'Exchange' })).toBeInTheDocument();
});

it('a confirmed tap spends the holdings shown, then shows the new collectible and refreshes the page', async () => {
  post.mockResolvedValue(record);
  renderAction();
  await tapExchange('Exchange');
  expect(post).toHaveBeenCalledWith('/market/api/exchange/create', {
    id: '6',
    exchangeId: '7',
    holdingIds: ['3', '4'],
    idempotencyKey: expect.stringMatching(/^[0-9a-f]{32}$/),
  });
  const result = await screen.findByTestId('exchange-result');
  expect(result).toHaveTextContent(texts.done);
  expect(within(result).getByTestId('exchange-result-edition')).toHaveTextContent('#12/1000');
  expect(within(result).getByRole('link', { name: 'See my collection' })).toHaveAttribute('href', '/mine/collection');
  expect(within(result).getByRole('link', { name: 'Exchange records' })).toHaveAttribute('href', '/mine/exchange');
  expect(refresh).toHaveBeenCalledTimes(1);
});

it('a tap whose call failed on the way is retried with the same key; after a refusal or a success the next tap has a new one', async () => {
  post
    .mockRejectedValueOnce(new ServiceError('timed out', null, null))
    .mockRejectedValueOnce(new BusinessError('exchange: none of these are left', 409, { reason: 'soldOut' }))
    .mockResolvedValueOnce(record)
    .mockResolvedValueOnce(record);
  renderAction();
  await tapExchange('Exchange');
  await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Exchange' })).not.toHaveAttribute('aria-busy'));
  await tapExchange('Exchange');
  await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Exchange' })).not.toHaveAttribute('aria-busy'));
  await tapExchange('Exchange');
  await screen.findByTestId('exchange-result');
  await tapExchange('Exchange');
  await waitFor(() => expect(post).toHaveBeenCalledTimes(4));
  const [first, retry, afterRefusal, afterSuccess] = keysSent();
  expect(retry).toBe(first);
  expect(afterRefusal).not.toBe(first);
  expect(afterSuccess).not.toBe(afterRefusal);
  expect(screen.queryByTestId('exchange-result')).toBeInTheDocument();
  // The refusal and the two successes each reloaded the page's server parts; the lost answer did not (a retry must find the same page).
  expect(refresh).toHaveBeenCalledTimes(3);
});

it('asks for the redeem code before the sheet when the recipe needs one, and sends it', async () => {
  post.mockResolvedValue(record);
  renderAction({ requiresCode: true, holdingIds: [], spend: [] });
  fireEvent.click(screen.getByRole('button', { name: 'Exchange' }));
  expect(toast).toHaveBeenCalledWith('warn', 'Enter your redeem code');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  fireEvent.change(screen.getByLabelText('Redeem code'), { target: { value: 'abcd efgh' } });
  await tapExchange('Exchange', 'Spend a redeem code to get Swap Club Badge? What you spend is destroyed and cannot be undone.');
  await waitFor(() =>
    expect(post).toHaveBeenCalledWith('/market/api/exchange/create', {
      id: '6',
      exchangeId: '7',
      code: 'abcd efgh',
      idempotencyKey: expect.any(String),
    }),
  );
});

it('shows why the user cannot exchange instead of the button', () => {
  renderAction({ refusal: 'You need 2 × Starter Card to exchange' });
  expect(screen.getByTestId('exchange-refusal')).toHaveTextContent('You need 2 × Starter Card to exchange');
  expect(screen.queryByRole('button', { name: 'Exchange' })).not.toBeInTheDocument();
});
