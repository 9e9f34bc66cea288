'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { consoleCall, registerReauthPrompt } from './console-call';
import { ConsoleButton, ConsoleError, ConsoleField } from './field';

export type ReauthWords = { title: string; intro: string; password: string; code: string; submit: string; cancel: string; working: string };

/**
 * The console's re-authentication dialog (issue 31): a sensitive write refused for want of a fresh proof opens it
 * (components/ops/console-call.ts); the operator's password and a new code confirm the session for 5 minutes
 * (/ops/api/session/confirm, with sign-in's limits and refusal), and the write is sent once more. Cancel answers the
 * refusal. Mounted once in the console's frame, so every page's sensitive writes use it.
 */
export function ReauthDialog({ words, locale }: { words: ReauthWords; locale: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(
    () =>
      registerReauthPrompt(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current?.(false);
            settle.current = resolve;
            setError(null);
            setBusy(false);
            dialog.current?.querySelector('form')?.reset();
            dialog.current?.showModal();
          }),
      ),
    [],
  );

  function finish(confirmed: boolean) {
    dialog.current?.close();
    const resolve = settle.current;
    settle.current = null;
    resolve?.(confirmed);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const answer = await consoleCall(
      '/ops/api/session/confirm',
      { password: String(form.get('password') ?? ''), code: String(form.get('code') ?? '') },
      locale,
    );
    setBusy(false);
    if (answer.ok) finish(true);
    else setError(answer.message);
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby="reauth-title"
      onCancel={(event) => {
        event.preventDefault();
        finish(false);
      }}
      className="m-auto w-full max-w-md rounded-lg bg-white p-6 shadow-xl backdrop:bg-gray-900/50"
    >
      <h2 id="reauth-title" className="text-lg font-semibold text-gray-900">
        {words.title}
      </h2>
      <p className="mt-1 mb-4 text-sm text-gray-600">{words.intro}</p>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <ConsoleField
          id="reauth-password"
          name="password"
          type="password"
          label={words.password}
          autoComplete="current-password"
          required
        />
        <ConsoleField id="reauth-code" name="code" label={words.code} autoComplete="one-time-code" required />
        <ConsoleError message={error} />
        <div className="flex gap-3">
          <button
            type="button"
            onClick={() => finish(false)}
            className="inline-flex w-full items-center justify-center rounded-md border border-gray-300 bg-white px-4 py-2.5 text-base font-medium text-gray-800 hover:bg-gray-50"
          >
            {words.cancel}
          </button>
          <ConsoleButton disabled={busy}>{busy ? words.working : words.submit}</ConsoleButton>
        </div>
      </form>
    </dialog>
  );
}
