'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';

export type BlocklistIdentityWords = {
  title: string;
  intro: string;
  reason: string;
  reasonHint: string;
  everyChannel: string;
  block: string;
  failed: string;
};

/**
 * "Block this person" on a verified buyer's page (issue 33): blocks the identity they verified with, so every account
 * verified with it is refused, not only this one. The server finds the identity from the account number; the page
 * never holds its hash. A refusal shows under the field it names; on success the page reads its state again.
 */
export function BlocklistIdentity({
  locale,
  channel,
  accountNumber,
  isOwner,
  words,
}: {
  locale: string;
  channel: string;
  accountNumber: string;
  isOwner: boolean;
  words: BlocklistIdentityWords;
}) {
  const router = useRouter();
  const [reason, setReason] = useState('');
  const [everyChannel, setEveryChannel] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/blocklist/add', { channel, kind: 'identity', accountNumber, reason, everyChannel }, locale);
    setBusy(false);
    if (!answer.ok) {
      setError({ field: answer.field, message: answer.message || words.failed });
      return;
    }
    setReason('');
    router.refresh();
  }

  return (
    <form
      onSubmit={submit}
      className="mt-4 max-w-xl space-y-3 rounded-lg border border-gray-200 bg-white p-4"
      data-testid="blocklist-identity-form"
    >
      <h3 className="text-base font-semibold text-gray-900">{words.title}</h3>
      <p className="text-sm text-gray-700">{words.intro}</p>
      <ConsoleField
        id="identity-block-reason"
        label={words.reason}
        hint={words.reasonHint}
        value={reason}
        maxLength={500}
        required
        aria-invalid={error?.field === 'reason' ? true : undefined}
        onChange={(e) => setReason(e.target.value)}
      />
      {error?.field === 'reason' ? <ConsoleError message={error.message} /> : null}
      {isOwner ? (
        <label className="flex items-center gap-2 text-sm text-gray-800">
          <input type="checkbox" checked={everyChannel} onChange={(e) => setEveryChannel(e.target.checked)} />
          {words.everyChannel}
        </label>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-red-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-red-800 disabled:opacity-60"
      >
        {words.block}
      </button>
      {error && error.field !== 'reason' ? <ConsoleError message={error.message} /> : null}
    </form>
  );
}
