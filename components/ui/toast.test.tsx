/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import { dismissToasts, showToast, ToastHost, TOAST_DURATION_MS } from './toast';
// sonner asks for media preferences, which jsdom cannot answer.
import '@/test/match-media-polyfill';

describe('Toast (spec §2)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    act(() => jest.runOnlyPendingTimers());
    jest.useRealTimers();
  });

  it('shows a message for 3000 ms by default', async () => {
    render(<ToastHost label="Notifications" />);
    act(() => showToast('success', 'Saved'));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('honours a custom duration', async () => {
    render(<ToastHost label="Notifications" />);
    act(() => showToast('warn', 'Sold out', 6000));
    expect(await screen.findByText('Sold out')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(4000));
    expect(screen.getByText('Sold out')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(3000));
    expect(screen.queryByText('Sold out')).not.toBeInTheDocument();
  });

  it('takes every toast off the screen at once when dismissed, before its time is up', async () => {
    render(<ToastHost label="Notifications" />);
    act(() => showToast('warn', 'Please agree to the sales terms first'));
    expect(await screen.findByText('Please agree to the sales terms first')).toBeInTheDocument();
    act(() => dismissToasts());
    // sonner's leaving animation, well within the toast's 3000 ms.
    for (let i = 0; i < 10; i++) act(() => jest.advanceTimersByTime(100));
    expect(screen.queryByText('Please agree to the sales terms first')).not.toBeInTheDocument();
  });

  it("names the toasts' region in the page's language (issue 30: it said Notifications on Chinese pages)", async () => {
    render(<ToastHost label="通知" />);
    act(() => showToast('error', '验证码错误，还可以再试 4 次'));
    expect(await screen.findByText('验证码错误，还可以再试 4 次')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /^通知/ })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Notifications/ })).not.toBeInTheDocument();
  });

  it('rejects any other type with a clear error', () => {
    expect(() => showToast('info' as 'warn', 'x')).toThrow('Toast type "info" is invalid: must be one of success, warn, error');
  });
});
