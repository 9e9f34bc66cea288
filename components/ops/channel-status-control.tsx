'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { consoleCall } from './console-call';

export type StatusWords = {
  pause: string;
  resume: string;
  title: string;
  body: string;
  confirm: string;
  cancel: string;
  working: string;
};

/**
 * Pausing or resuming a channel (issue 31; spec §1: status 0 hides the store's root screen). The dialog says what buyers
 * will see before anything changes; the list shows the new status once the write is done.
 */
export function ChannelStatusControl({
  channel,
  status,
  words,
  locale,
}: {
  channel: string;
  status: number;
  words: StatusWords;
  locale: string;
}) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pausing = status !== 0;

  async function confirm() {
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/channel/setStatus', { channel, status: pausing ? 0 : 1 }, locale);
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message);
      return;
    }
    dialog.current?.close();
    router.refresh();
  }

  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50"
      >
        {pausing ? words.pause : words.resume}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`status-title-${channel}`}
        className="m-auto max-w-md rounded-lg p-0 text-left shadow-xl backdrop:bg-black/40"
      >
        <div className="space-y-4 p-6">
          <h2 id={`status-title-${channel}`} className="text-lg font-semibold text-gray-900">
            {words.title}
          </h2>
          <p className="text-sm text-gray-700">{words.body}</p>
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-3">
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-800 hover:bg-gray-50"
            >
              {words.cancel}
            </button>
            <button
              type="button"
              onClick={confirm}
              disabled={busy}
              className={`rounded-md px-4 py-2 text-sm font-semibold text-white disabled:opacity-60 ${pausing ? 'bg-amber-700 hover:bg-amber-800' : 'bg-blue-700 hover:bg-blue-800'}`}
            >
              {busy ? words.working : words.confirm}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
