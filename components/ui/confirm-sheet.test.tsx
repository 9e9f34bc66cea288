/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { confirm, ConfirmSheet, CONFIRM_CLOSE_DELAY_MS } from './confirm-sheet';

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  act(() => jest.runOnlyPendingTimers());
  jest.useRealTimers();
  document.body.innerHTML = '';
});

function dispatchCancelable(type: 'wheel' | 'touchmove', target: EventTarget): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}

describe('ConfirmSheet (spec §2)', () => {
  it('uses the default texts', () => {
    render(<ConfirmSheet open />);
    expect(screen.getByRole('dialog', { name: 'prompt' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'cancel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'confirm' })).toBeInTheDocument();
    expect(screen.queryByTestId('confirm-success-icon')).not.toBeInTheDocument();
  });

  it('shows its title, success icon, content, description and button texts', () => {
    render(
      <ConfirmSheet
        open
        title="Exchange?"
        successIcon
        content="Spend 2 collectibles"
        description="This cannot be undone"
        cancelText="Not now"
        confirmText="Exchange"
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Exchange?' })).toBeInTheDocument();
    expect(screen.getByTestId('confirm-success-icon')).toBeInTheDocument();
    expect(screen.getByText('Spend 2 collectibles')).toBeInTheDocument();
    expect(screen.getByText('This cannot be undone')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Not now' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Exchange' })).toBeInTheDocument();
  });

  it('becomes visible after mount', () => {
    render(<ConfirmSheet open />);
    expect(screen.getByRole('dialog')).toHaveAttribute('data-visible', 'false');
    // Two animation frames: the hidden state is painted before the slide-in starts.
    act(() => jest.advanceTimersByTime(50));
    expect(screen.getByRole('dialog')).toHaveAttribute('data-visible', 'true');
  });

  it('answers 300 ms after a choice, then closes', () => {
    const onConfirm = jest.fn();
    const onCancel = jest.fn();
    const onClose = jest.fn();
    render(<ConfirmSheet open onConfirm={onConfirm} onCancel={onCancel} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'confirm' }));
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS - 1));
    expect(onConfirm).not.toHaveBeenCalled();
    act(() => jest.advanceTimersByTime(1));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('blocks page scrolling by wheel and touch outside the sheet while open, and not after', () => {
    const page = document.createElement('main');
    document.body.appendChild(page);
    const { rerender } = render(<ConfirmSheet open content="Sure?" />);
    expect(dispatchCancelable('wheel', page).defaultPrevented).toBe(true);
    expect(dispatchCancelable('touchmove', page).defaultPrevented).toBe(true);
    expect(dispatchCancelable('touchmove', screen.getByText('Sure?')).defaultPrevented).toBe(false);
    rerender(<ConfirmSheet open={false} content="Sure?" />);
    expect(dispatchCancelable('wheel', page).defaultPrevented).toBe(false);
    expect(dispatchCancelable('touchmove', page).defaultPrevented).toBe(false);
  });

  it('answers once, even when pressed again or Escaped during the close delay', () => {
    const onConfirm = jest.fn();
    const onCancel = jest.fn();
    const onClose = jest.fn();
    render(<ConfirmSheet open onConfirm={onConfirm} onCancel={onCancel} onClose={onClose} />);
    const ok = screen.getByRole('button', { name: 'confirm' });
    fireEvent.click(ok);
    fireEvent.click(ok);
    fireEvent.keyDown(document, { key: 'Escape' });
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS * 2));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('goes away and frees the page after an answer, even if the parent leaves it open', () => {
    const page = document.createElement('main');
    document.body.appendChild(page);
    render(<ConfirmSheet open />);
    fireEvent.click(screen.getByRole('button', { name: 'cancel' }));
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(dispatchCancelable('wheel', page).defaultPrevented).toBe(false);
  });

  it('returns focus to what was focused before it opened', () => {
    const opener = document.createElement('button');
    document.body.appendChild(opener);
    opener.focus();
    const { rerender } = render(<ConfirmSheet open />);
    expect(screen.getByRole('button', { name: 'confirm' })).toHaveFocus();
    rerender(<ConfirmSheet open={false} />);
    expect(opener).toHaveFocus();
  });

  it('closes on Escape as a cancel', () => {
    const onCancel = jest.fn();
    render(<ConfirmSheet open onCancel={onCancel} />);
    fireEvent.keyDown(document, { key: 'Escape' });
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('opens as a modal dialog (the browser then keeps focus inside it and the page behind inert) with focus on confirm', () => {
    const showModal = jest.spyOn(HTMLDialogElement.prototype, 'showModal');
    render(<ConfirmSheet open />);
    const dialog = screen.getByRole('dialog');
    expect(dialog.tagName).toBe('DIALOG');
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(showModal.mock.contexts[0]).toBe(dialog);
    expect(dialog).toHaveAttribute('open');
    expect(screen.getByRole('button', { name: 'confirm' })).toHaveFocus();
    showModal.mockRestore();
  });
});

describe('confirm() promise API', () => {
  it('resolves on confirm and removes the sheet', async () => {
    let promise!: Promise<void>;
    act(() => {
      promise = confirm({ title: 'Pay now?' });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'confirm' }));
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS + 1));
    await expect(promise).resolves.toBeUndefined();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('rejects on cancel', async () => {
    let promise!: Promise<void>;
    act(() => {
      promise = confirm();
    });
    fireEvent.click(await screen.findByRole('button', { name: 'cancel' }));
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS));
    await expect(promise).rejects.toThrow('cancelled');
  });

  it('rejects on a tap outside the sheet', async () => {
    let promise!: Promise<void>;
    act(() => {
      promise = confirm();
    });
    fireEvent.click(await screen.findByTestId('confirm-backdrop'));
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS));
    await expect(promise).rejects.toThrow('cancelled');
  });

  it('rejects on Escape', async () => {
    let promise!: Promise<void>;
    act(() => {
      promise = confirm();
    });
    await screen.findByRole('dialog');
    fireEvent.keyDown(document, { key: 'Escape' });
    act(() => jest.advanceTimersByTime(CONFIRM_CLOSE_DELAY_MS));
    await expect(promise).rejects.toThrow('cancelled');
  });
});
