'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';

export type DomainPanelWords = {
  intro: string;
  host: string;
  status: string;
  lastChecked: string;
  actions: string;
  never: string;
  keyHost: string;
  keyHostHint: string;
  keyState: string;
  primary: string;
  preexisting: string;
  addTitle: string;
  addLabel: string;
  addHint: string;
  add: string;
  adding: string;
  recordsIntro: string;
  recordType: string;
  recordName: string;
  recordValue: string;
  points: string;
  ownership: string;
  copy: string;
  copied: string;
  verify: string;
  verifying: string;
  makePrimary: string;
  remove: string;
  cancel: string;
  readOnly: string;
  removedTitle: string;
  failed: string;
};

/** A custom domain as the tab shows it, its words and times already written by the server page. */
export type DomainRow = {
  host: string;
  status: 'pending' | 'verified' | 'misconfigured' | 'removed';
  statusText: string;
  problemText: string | null;
  isPrimary: boolean;
  served: boolean;
  preexisting: boolean;
  lastChecked: string | null;
  graceAlert: string | null;
  records: { type: string; name: string; value: string; purpose: 'points' | 'ownership' }[];
  recordsTitle: string;
  confirmRemove: string;
};

const BADGE: Record<DomainRow['status'] | 'key', string> = {
  key: 'bg-gray-100 text-gray-800',
  pending: 'bg-blue-50 text-blue-800',
  verified: 'bg-green-50 text-green-800',
  misconfigured: 'bg-red-50 text-red-800',
  removed: 'bg-gray-100 text-gray-600',
};

const SMALL_BUTTON =
  'rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';

/**
 * The Domains tab's table and forms (issue 31, "Domains"). Each action calls its procedure and then reloads the page's
 * data (router.refresh), so what shows is always what the server holds; a refusal shows under the field it names (the
 * add form) or on the row it is about.
 */
export function DomainPanel({
  locale,
  channel,
  keyHost,
  keyIsPrimary,
  rows,
  canWrite,
  words,
}: {
  locale: string;
  channel: string;
  keyHost: string;
  keyIsPrimary: boolean;
  rows: DomainRow[];
  canWrite: boolean;
  words: DomainPanelWords;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [rowError, setRowError] = useState<{ host: string; message: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const live = rows.filter((r) => r.status !== 'removed');
  const removed = rows.filter((r) => r.status === 'removed');
  const alerts = live.filter((r) => r.graceAlert);

  async function act(host: string, action: 'verify' | 'makePrimary' | 'remove') {
    setBusy(`${action}:${host}`);
    setRowError(null);
    const answer = await consoleCall(`/ops/api/domain/${action}`, { channel, host }, locale);
    setBusy(null);
    setConfirming(null);
    if (!answer.ok) setRowError({ host, message: answer.message || words.failed });
    router.refresh();
  }

  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-sm text-gray-700">{words.intro}</p>
      {alerts.map((r) => (
        <p key={r.host} role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {r.graceAlert} {r.problemText}
        </p>
      ))}
      {!canWrite ? <p className="rounded-md bg-gray-100 px-4 py-3 text-sm text-gray-700">{words.readOnly}</p> : null}

      <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
        <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
          <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                {words.host}
              </th>
              <th scope="col" className="px-4 py-3">
                {words.status}
              </th>
              <th scope="col" className="px-4 py-3">
                {words.lastChecked}
              </th>
              <th scope="col" className="px-4 py-3">
                {words.actions}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            <tr data-host={keyHost}>
              <td className="px-4 py-3 align-top">
                <span className="font-mono font-semibold text-gray-900">{keyHost}</span>{' '}
                {keyIsPrimary ? <PrimaryBadge text={words.primary} /> : null}
                <span className="block text-xs text-gray-600">
                  {words.keyHost} · {words.keyHostHint}
                </span>
              </td>
              <td className="px-4 py-3 align-top">
                <StatusBadge status="key" text={words.keyState} />
              </td>
              <td className="px-4 py-3 align-top text-gray-600">—</td>
              <td className="px-4 py-3 align-top">
                {canWrite && !keyIsPrimary ? (
                  <button type="button" className={SMALL_BUTTON} disabled={busy !== null} onClick={() => act(keyHost, 'makePrimary')}>
                    {words.makePrimary}
                  </button>
                ) : null}
                {rowError?.host === keyHost ? <p className="mt-1 text-sm text-red-700">{rowError.message}</p> : null}
              </td>
            </tr>
            {live.map((r) => (
              <DomainTableRow
                key={r.host}
                row={r}
                words={words}
                canWrite={canWrite}
                busy={busy}
                confirming={confirming === r.host}
                error={rowError?.host === r.host ? rowError.message : null}
                onAct={(action) => act(r.host, action)}
                onConfirm={(on) => setConfirming(on ? r.host : null)}
              />
            ))}
          </tbody>
        </table>
      </div>

      {canWrite ? <AddDomainForm locale={locale} channel={channel} words={words} onAdded={() => router.refresh()} /> : null}

      {removed.length > 0 ? (
        <section>
          <h2 className="text-sm font-semibold text-gray-700">{words.removedTitle}</h2>
          <ul className="mt-2 space-y-1 text-sm text-gray-600">
            {removed.map((r) => (
              <li key={r.host} data-host={r.host}>
                <span className="font-mono">{r.host}</span> · {r.statusText}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function PrimaryBadge({ text }: { text: string }) {
  return <span className="ml-1 rounded-full bg-blue-700 px-2 py-0.5 text-xs font-semibold text-white">{text}</span>;
}

function StatusBadge({ status, text }: { status: DomainRow['status'] | 'key'; text: string }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[status]}`}>{text}</span>;
}

function DomainTableRow({
  row,
  words,
  canWrite,
  busy,
  confirming,
  error,
  onAct,
  onConfirm,
}: {
  row: DomainRow;
  words: DomainPanelWords;
  canWrite: boolean;
  busy: string | null;
  confirming: boolean;
  error: string | null;
  onAct: (action: 'verify' | 'makePrimary' | 'remove') => void;
  onConfirm: (on: boolean) => void;
}) {
  return (
    <>
      <tr data-host={row.host}>
        <td className="px-4 py-3 align-top">
          <span className="font-mono font-semibold text-gray-900">{row.host}</span>{' '}
          {row.isPrimary ? <PrimaryBadge text={words.primary} /> : null}
          {row.preexisting ? <span className="block text-xs text-gray-600">{words.preexisting}</span> : null}
        </td>
        <td className="px-4 py-3 align-top">
          <StatusBadge status={row.status} text={row.statusText} />
          {row.problemText ? <p className="mt-1 max-w-xs text-sm text-red-800">{row.problemText}</p> : null}
        </td>
        <td className="px-4 py-3 align-top text-gray-700">{row.lastChecked ?? words.never}</td>
        <td className="px-4 py-3 align-top">
          {canWrite ? (
            <div className="flex flex-wrap gap-2">
              {!row.preexisting ? (
                <button type="button" className={SMALL_BUTTON} disabled={busy !== null} onClick={() => onAct('verify')}>
                  {busy === `verify:${row.host}` ? words.verifying : words.verify}
                </button>
              ) : null}
              {row.status === 'verified' && !row.isPrimary ? (
                <button type="button" className={SMALL_BUTTON} disabled={busy !== null} onClick={() => onAct('makePrimary')}>
                  {words.makePrimary}
                </button>
              ) : null}
              {confirming ? null : (
                <button type="button" className={`${SMALL_BUTTON} text-red-800`} disabled={busy !== null} onClick={() => onConfirm(true)}>
                  {words.remove}
                </button>
              )}
            </div>
          ) : null}
          {confirming ? (
            <div
              role="group"
              aria-label={row.confirmRemove}
              className="mt-2 rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900"
            >
              <p>{row.confirmRemove}</p>
              <div className="mt-2 flex gap-2">
                <button
                  type="button"
                  className="rounded-md bg-red-700 px-2.5 py-1 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
                  disabled={busy !== null}
                  onClick={() => onAct('remove')}
                >
                  {words.remove}
                </button>
                <button type="button" className={SMALL_BUTTON} onClick={() => onConfirm(false)}>
                  {words.cancel}
                </button>
              </div>
            </div>
          ) : null}
          {error ? (
            <p role="alert" className="mt-1 text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </td>
      </tr>
      {row.records.length > 0 ? (
        <tr data-records-for={row.host}>
          <td colSpan={4} className="bg-gray-50 px-4 py-4">
            <DnsRecords row={row} words={words} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function DnsRecords({ row, words }: { row: DomainRow; words: DomainPanelWords }) {
  return (
    <section aria-label={row.recordsTitle}>
      <h3 className="text-sm font-semibold text-gray-900">{row.recordsTitle}</h3>
      <p className="mt-1 text-sm text-gray-700">{words.recordsIntro}</p>
      <table className="mt-3 min-w-full text-left text-sm">
        <thead className="text-xs text-gray-600">
          <tr>
            <th scope="col" className="py-1 pr-4">
              {words.recordType}
            </th>
            <th scope="col" className="py-1 pr-4">
              {words.recordName}
            </th>
            <th scope="col" className="py-1 pr-4">
              {words.recordValue}
            </th>
            <th scope="col" className="py-1">
              <span className="sr-only">{words.copy}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {row.records.map((r) => (
            <tr key={`${r.type}:${r.value}`} data-record={r.type}>
              <td className="py-1 pr-4 align-top font-mono font-semibold">
                {r.type}
                <span className="block font-sans text-xs font-normal text-gray-600">
                  {r.purpose === 'points' ? words.points : words.ownership}
                </span>
              </td>
              <td className="py-1 pr-4 align-top font-mono break-all">{r.name}</td>
              <td className="py-1 pr-4 align-top font-mono break-all">{r.value}</td>
              <td className="py-1 align-top">
                <CopyButton value={r.value} label={`${words.copy} ${r.type}`} words={words} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function CopyButton({ value, label, words }: { value: string; label: string; words: DomainPanelWords }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      className={SMALL_BUTTON}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
        } catch {
          // No clipboard (an insecure origin, a refused permission): the value stays on screen to select by hand.
          setCopied(false);
        }
      }}
    >
      {copied ? words.copied : words.copy}
    </button>
  );
}

function AddDomainForm({
  locale,
  channel,
  words,
  onAdded,
}: {
  locale: string;
  channel: string;
  words: DomainPanelWords;
  onAdded: () => void;
}) {
  const [hostError, setHostError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const host = String(new FormData(form).get('host') ?? '');
    setBusy(true);
    setHostError(null);
    setError(null);
    const answer = await consoleCall('/ops/api/domain/add', { channel, host }, locale);
    setBusy(false);
    if (answer.ok) {
      form.reset();
      onAdded();
      return;
    }
    if (answer.field === 'host') setHostError(answer.message);
    else setError(answer.message || words.failed);
  }

  return (
    <form onSubmit={submit} noValidate className="max-w-xl space-y-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 className="text-base font-semibold text-gray-900">{words.addTitle}</h2>
      <ConsoleField
        id="domain-host"
        name="host"
        label={words.addLabel}
        hint={words.addHint}
        autoCapitalize="none"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={hostError ? true : undefined}
        aria-errormessage={hostError ? 'domain-host-error' : undefined}
        required
      />
      {hostError ? (
        <p id="domain-host-error" role="alert" className="text-sm text-red-700">
          {hostError}
        </p>
      ) : null}
      <ConsoleError message={error} />
      <button
        type="submit"
        disabled={busy}
        className="inline-flex items-center justify-center rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {busy ? words.adding : words.add}
      </button>
    </form>
  );
}
