/** @jest-environment jsdom */
import { render, screen, waitFor } from '@testing-library/react';
import { GoodsIdentityNotice, STATUS_URL } from './goods-identity-notice';

// The goods page's line above Buy (issue 33): the shared HTML says the rule; the buyer's own state comes from the
// browser, and only where this browser logged in.

let phone: string | null = null;
jest.mock('@/components/shell/storefront-provider', () => ({
  useStorefront: (select: (s: { user: { phone: string | null } }) => unknown) => select({ user: { phone } }),
}));

const fetchMock = jest.fn();
beforeAll(() => {
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterEach(() => {
  fetchMock.mockReset();
  phone = null;
});

const answer = (verified: boolean) => ({ json: async () => ({ code: 200, data: { verified } }) });
const props = {
  rule: 'For buyers aged 18 and over, with their real name verified.',
  notice: 'This store asks buyers to verify their real name before buying.',
  verify: { href: '/mine/identity?back=%2Fgoods%2Fdetail%2F7', label: 'Verify now' },
};

it('tells a visitor the rule in one line and asks the server nothing', () => {
  render(<GoodsIdentityNotice {...props} ageAsked />);
  expect(screen.getByTestId('identity-rule')).toHaveTextContent('aged 18 and over');
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
  expect(fetchMock).not.toHaveBeenCalled();
});

it('tells a signed-in buyer who has not verified, with the way to verify and come back', async () => {
  phone = '138****0000';
  fetchMock.mockResolvedValue(answer(false));
  render(<GoodsIdentityNotice {...props} ageAsked />);
  expect(await screen.findByTestId('identity-notice')).toHaveTextContent('verify their real name before buying');
  expect(screen.getByRole('link', { name: 'Verify now' })).toHaveAttribute('href', props.verify.href);
  expect(fetchMock).toHaveBeenCalledWith(STATUS_URL, expect.objectContaining({ method: 'POST', credentials: 'same-origin' }));
});

it('leaves a verified buyer the age rule where one is asked, and nothing where only real-name is', async () => {
  phone = '138****0000';
  fetchMock.mockResolvedValue(answer(true));
  const { unmount } = render(<GoodsIdentityNotice {...props} ageAsked />);
  await waitFor(() => expect(fetchMock).toHaveBeenCalled());
  expect(screen.getByTestId('identity-rule')).toBeInTheDocument();
  expect(screen.queryByTestId('identity-notice')).not.toBeInTheDocument();
  unmount();

  render(<GoodsIdentityNotice {...props} ageAsked={false} />);
  await waitFor(() => expect(screen.queryByTestId('identity-rule')).not.toBeInTheDocument());
});

it('keeps the rule when the session ran out (401), with no redirect and no toast', async () => {
  phone = '138****0000';
  fetchMock.mockResolvedValue({ json: async () => ({ code: 401, message: 'not logged in', data: null }) });
  render(<GoodsIdentityNotice {...props} ageAsked={false} />);
  await waitFor(() => expect(fetchMock).toHaveBeenCalled());
  expect(screen.getByTestId('identity-rule')).toBeInTheDocument();
});
