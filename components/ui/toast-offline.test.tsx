/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import { showToast, ToastHost, TOAST_DURATION_MS } from './toast';

// When sonner cannot be loaded (the connection dropped: when the busy toast matters most), the message still shows.

jest.mock('./toaster', () => {
  throw new Error('Loading chunk failed');
});

beforeEach(() => {
  jest.useFakeTimers();
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

it('shows the message plainly for the same time', async () => {
  render(<ToastHost label="Notifications" />);
  act(() => showToast('error', 'Too many buyers at the moment'));
  const toast = await screen.findByText('Too many buyers at the moment');
  expect(toast).toHaveAttribute('data-type', 'error');
  expect(toast.closest('[aria-live="polite"]')).not.toBeNull();
  act(() => jest.advanceTimersByTime(TOAST_DURATION_MS - 100));
  expect(screen.getByText('Too many buyers at the moment')).toBeInTheDocument();
  act(() => jest.advanceTimersByTime(200));
  expect(screen.queryByText('Too many buyers at the moment')).not.toBeInTheDocument();
});
