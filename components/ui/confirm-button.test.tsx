/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithMessages } from '@/test/render-with-messages';
import { ConfirmButton } from './confirm-button';

// The "ask, then act" button of logging out and of signing out the other sessions (issue 36): the confirm sheet asks
// the question; cancelling does nothing; confirming runs the action once, the button disabled meanwhile.

afterEach(() => {
  document.body.innerHTML = '';
});

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

async function answerSheet(name: 'Cancel' | 'Confirm' | '取消' | '确定') {
  await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('data-visible', 'true'));
  fireEvent.click(screen.getByRole('button', { name }));
}

it('asks first; cancelling does nothing, confirming acts once with the button disabled until it is done', async () => {
  const acting = deferred();
  const action = jest.fn(() => acting.promise);
  renderWithMessages(
    <ConfirmButton question="Sign out everywhere else?" onConfirmed={action} className="x">
      Sign out others
    </ConfirmButton>,
  );
  const button = screen.getByRole('button', { name: 'Sign out others' });

  fireEvent.click(button);
  expect(await screen.findByText('Sign out everywhere else?')).toBeInTheDocument();
  await answerSheet('Cancel');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(action).not.toHaveBeenCalled();
  expect(button).toBeEnabled();

  fireEvent.click(button);
  await answerSheet('Confirm');
  await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
  expect(button).toBeDisabled();
  acting.resolve();
  await waitFor(() => expect(button).toBeEnabled());
});

it('is enabled again after a failed action, and stays disabled after one that leaves the page', async () => {
  const failing = jest.fn(() => Promise.reject(new Error('refused')));
  const { unmount } = renderWithMessages(
    <ConfirmButton question="Q?" onConfirmed={failing} className="x">
      Act
    </ConfirmButton>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Act' }));
  await answerSheet('Confirm');
  await waitFor(() => expect(failing).toHaveBeenCalled());
  await waitFor(() => expect(screen.getByRole('button', { name: 'Act' })).toBeEnabled());
  unmount();
  document.body.innerHTML = '';

  const leaving = jest.fn(() => Promise.resolve());
  renderWithMessages(
    <ConfirmButton question="Log out?" onConfirmed={leaving} staysBusy card className="x">
      Log out
    </ConfirmButton>,
    { locale: 'zh-CN' },
  );
  fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
  await answerSheet('确定');
  await waitFor(() => expect(leaving).toHaveBeenCalled());
  await waitFor(() => expect(screen.getByRole('button', { name: 'Log out' })).toBeDisabled());
  // And it stays so once the action has finished (the next page is loading).
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(screen.getByRole('button', { name: 'Log out' })).toBeDisabled();
});
