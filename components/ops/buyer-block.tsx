'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';

export type BuyerBlockWords = {
  intro: string;
  reason: string;
  reasonHint: string;
  everyChannel: string;
  block: string;
  unblock: string;
  failed: string;
};

/**
 * Block or lift a buyer's block on the channel (issue 32), with a reason; owners may block on every channel at once.
 * A refusal shows under the field it names; on success the page reads the block state again from the server.
 */
export function BuyerBlock({
  locale,
  channel,
  accountNumber,
  blocked,
  everyChannelBlock,
  isOwner,
  words,
}: {
  locale: string;
  channel: string;
  accountNumber: string;
  blocked: boolean;
  everyChannelBlock: boolean;
  isOwner: boolean;
  words: BuyerBlockWords;
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
    const body = { channel, accountNumber, reason, everyChannel: blocked ? everyChannelBlock && isOwner : everyChannel };
    const answer = blocked
      ? await consoleCall('/ops/api/buyer/unblock', body, locale)
      : await consoleCall('/ops/api/buyer/block', body, locale);
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
      data-testid="buyer-block-form"
    >
      <p className="text-sm text-gray-700">{words.intro}</p>
      <ConsoleField
        id="block-reason"
        label={words.reason}
        hint={words.reasonHint}
        value={reason}
        maxLength={500}
        required
        aria-invalid={error?.field === 'reason' ? true : undefined}
        onChange={(e) => setReason(e.target.value)}
      />
      {error?.field === 'reason' ? <ConsoleError message={error.message} /> : null}
      {isOwner && !blocked ? (
        <label className="flex items-center gap-2 text-sm text-gray-800">
          <input type="checkbox" checked={everyChannel} onChange={(e) => setEveryChannel(e.target.checked)} />
          {words.everyChannel}
        </label>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className={`rounded-md px-4 py-2.5 text-base font-semibold text-white disabled:opacity-60 ${blocked ? 'bg-blue-700 hover:bg-blue-800' : 'bg-red-700 hover:bg-red-800'}`}
      >
        {blocked ? words.unblock : words.block}
      </button>
      {error && error.field !== 'reason' ? <ConsoleError message={error.message} /> : null}
    </form>
  );
}
