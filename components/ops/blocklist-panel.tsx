'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';

export type BlocklistRow = {
  id: number;
  kind: 'buyer' | 'identity' | 'phone' | 'cidr';
  what: string;
  everyChannel: boolean;
  reason: string;
  by: string | null;
  /** Already written in the channel's zone by the page. */
  at: string;
};

export type BlocklistWords = {
  empty: string;
  kind: string;
  what: string;
  reason: string;
  by: string;
  at: string;
  lift: string;
  liftReason: string;
  liftConfirm: string;
  everyChannel: string;
  kinds: Record<BlocklistRow['kind'], string>;
  addTitle: string;
  addKind: string;
  addPhone: string;
  addRange: string;
  phone: string;
  phoneHint: string;
  range: string;
  rangeHint: string;
  addReason: string;
  addReasonHint: string;
  addEveryChannel: string;
  add: string;
  failed: string;
};

type Refusal = { field: string | null; message: string };

/**
 * The channel's blocklist (issue 33): every live block of every kind, masked as the server wrote it, each with Lift
 * (and its reason) for owners and managers; and the form that adds a phone number or an address range. A refusal
 * shows under the field it names; on success the page reads the list again from the server.
 */
export function BlocklistPanel({
  locale,
  channel,
  rows,
  canWrite,
  isOwner,
  words,
}: {
  locale: string;
  channel: string;
  rows: BlocklistRow[];
  canWrite: boolean;
  isOwner: boolean;
  words: BlocklistWords;
}) {
  return (
    <div className="space-y-8">
      <BlocklistTable locale={locale} channel={channel} rows={rows} canWrite={canWrite} isOwner={isOwner} words={words} />
      {canWrite ? <BlocklistAdd locale={locale} channel={channel} isOwner={isOwner} words={words} /> : null}
    </div>
  );
}

function BlocklistTable({
  locale,
  channel,
  rows,
  canWrite,
  isOwner,
  words,
}: {
  locale: string;
  channel: string;
  rows: BlocklistRow[];
  canWrite: boolean;
  isOwner: boolean;
  words: BlocklistWords;
}) {
  const [lifting, setLifting] = useState<number | null>(null);
  if (rows.length === 0) {
    return (
      <p className="text-sm text-gray-600" data-testid="blocklist-empty">
        {words.empty}
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
      <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="blocklist">
        <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">
              {words.kind}
            </th>
            <th scope="col" className="px-4 py-3">
              {words.what}
            </th>
            <th scope="col" className="px-4 py-3">
              {words.reason}
            </th>
            <th scope="col" className="px-4 py-3">
              {words.by}
            </th>
            <th scope="col" className="px-4 py-3">
              {words.at}
            </th>
            {canWrite ? (
              <th scope="col" className="px-4 py-3">
                <span className="sr-only">{words.lift}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {rows.map((row) => (
            <tr key={row.id} data-testid="blocklist-row" className="align-top">
              <td className="px-4 py-2 whitespace-nowrap">
                {words.kinds[row.kind]}
                {row.everyChannel ? (
                  <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-800">{words.everyChannel}</span>
                ) : null}
              </td>
              <td className="px-4 py-2 font-mono whitespace-nowrap">{row.what}</td>
              <td className="max-w-xs px-4 py-2 break-words">{row.reason}</td>
              <td className="px-4 py-2">{row.by ?? '—'}</td>
              <td className="px-4 py-2 whitespace-nowrap">{row.at}</td>
              {canWrite ? (
                <td className="px-4 py-2">
                  {row.everyChannel && !isOwner ? null : lifting === row.id ? (
                    <LiftForm locale={locale} channel={channel} id={row.id} words={words} onCancel={() => setLifting(null)} />
                  ) : (
                    <button
                      type="button"
                      onClick={() => setLifting(row.id)}
                      className="rounded-md border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50"
                    >
                      {words.lift}
                    </button>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LiftForm({
  locale,
  channel,
  id,
  words,
  onCancel,
}: {
  locale: string;
  channel: string;
  id: number;
  words: BlocklistWords;
  onCancel: () => void;
}) {
  const router = useRouter();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Refusal | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/blocklist/lift', { channel, id, reason }, locale);
    setBusy(false);
    if (!answer.ok) {
      setError({ field: answer.field, message: answer.message || words.failed });
      return;
    }
    onCancel();
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="min-w-56 space-y-2" data-testid="blocklist-lift-form">
      <ConsoleField
        id={`lift-reason-${id}`}
        label={words.liftReason}
        value={reason}
        maxLength={500}
        required
        aria-invalid={error?.field === 'reason' ? true : undefined}
        onChange={(e) => setReason(e.target.value)}
      />
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-blue-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {words.liftConfirm}
        </button>
        <button type="button" onClick={onCancel} className="rounded-md px-2 py-1.5 text-sm text-gray-700 underline">
          ✕
        </button>
      </div>
      {error ? <ConsoleError message={error.message} /> : null}
    </form>
  );
}

function BlocklistAdd({ locale, channel, isOwner, words }: { locale: string; channel: string; isOwner: boolean; words: BlocklistWords }) {
  const router = useRouter();
  const [kind, setKind] = useState<'phone' | 'cidr'>('cidr');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [everyChannel, setEveryChannel] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Refusal | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/blocklist/add', { channel, kind, value, reason, everyChannel }, locale);
    setBusy(false);
    if (!answer.ok) {
      setError({ field: answer.field, message: answer.message || words.failed });
      return;
    }
    setValue('');
    setReason('');
    router.refresh();
  }

  const fieldError = (field: string) => (error?.field === field ? <ConsoleError message={error.message} /> : null);
  return (
    <form onSubmit={submit} className="max-w-xl space-y-3 rounded-lg border border-gray-200 bg-white p-4" data-testid="blocklist-add-form">
      <h3 className="text-base font-semibold text-gray-900">{words.addTitle}</h3>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-gray-800">{words.addKind}</legend>
        <div className="flex flex-wrap gap-4 text-sm text-gray-800">
          {(['cidr', 'phone'] as const).map((k) => (
            <label key={k} className="flex items-center gap-2">
              <input type="radio" name="blocklist-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
              {k === 'cidr' ? words.addRange : words.addPhone}
            </label>
          ))}
        </div>
      </fieldset>
      <ConsoleField
        id="blocklist-value"
        label={kind === 'cidr' ? words.range : words.phone}
        hint={kind === 'cidr' ? words.rangeHint : words.phoneHint}
        value={value}
        maxLength={64}
        required
        autoComplete="off"
        inputMode={kind === 'phone' ? 'tel' : 'text'}
        aria-invalid={error?.field === 'value' ? true : undefined}
        onChange={(e) => setValue(e.target.value)}
      />
      {fieldError('value')}
      <ConsoleField
        id="blocklist-reason"
        label={words.addReason}
        hint={words.addReasonHint}
        value={reason}
        maxLength={500}
        required
        aria-invalid={error?.field === 'reason' ? true : undefined}
        onChange={(e) => setReason(e.target.value)}
      />
      {fieldError('reason')}
      {isOwner ? (
        <label className="flex items-center gap-2 text-sm text-gray-800">
          <input type="checkbox" checked={everyChannel} onChange={(e) => setEveryChannel(e.target.checked)} />
          {words.addEveryChannel}
        </label>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-red-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-red-800 disabled:opacity-60"
      >
        {words.add}
      </button>
      {error && error.field !== 'value' && error.field !== 'reason' ? <ConsoleError message={error.message} /> : null}
    </form>
  );
}
