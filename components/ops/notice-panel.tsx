'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError } from './field';

export type NoticePanelWords = {
  intro: string;
  storeLink: string;
  readOnly: string;
  empty: string;
  title: string;
  type: string;
  state: string;
  publishAt: string;
  actions: string;
  newTitle: string;
  editTitle: string;
  body: string;
  bodyHint: string;
  publishHint: string;
  publishNow: string;
  save: string;
  saving: string;
  publish: string;
  edit: string;
  cancel: string;
  withdraw: string;
  saved: string;
  more: string;
  newer: string;
  failed: string;
};

type NoticeType = 'drop' | 'activity' | 'airdrop' | 'operations';

/** A notice as the tab shows it, its words and times (in the channel's zone) already written by the server page. */
export type NoticeRow = {
  id: string;
  type: NoticeType;
  typeText: string;
  title: string;
  body: string;
  state: 'scheduled' | 'published' | 'withdrawn';
  stateText: string;
  publishText: string;
  /** The publish time as the form's field holds it (yyyy-MM-ddTHH:mm in the channel's zone). */
  publishLocal: string;
  confirmWithdraw: string;
};

const BADGE: Record<NoticeRow['state'], string> = {
  scheduled: 'bg-blue-50 text-blue-800',
  published: 'bg-green-50 text-green-800',
  withdrawn: 'bg-gray-100 text-gray-600',
};

const SMALL_BUTTON =
  'rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';
const INPUT =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none';

/**
 * The Notices tab's table and form (issue 32). Each action calls its procedure and then reloads the page's data
 * (router.refresh), so what shows is what the server holds; a refusal shows under the field it names.
 */
export function NoticePanel({
  locale,
  channel,
  storeUrl,
  rows,
  types,
  defaultPublishLocal,
  canWrite,
  words,
  paging,
}: {
  locale: string;
  channel: string;
  storeUrl: string;
  rows: NoticeRow[];
  types: { value: NoticeType; text: string }[];
  defaultPublishLocal: string;
  canWrite: boolean;
  words: NoticePanelWords;
  paging: { page: number; pages: number };
}) {
  const router = useRouter();
  const [editing, setEditing] = useState<NoticeRow | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [rowError, setRowError] = useState<{ id: string; message: string } | null>(null);

  async function withdraw(row: NoticeRow) {
    setBusy(row.id);
    setRowError(null);
    const answer = await consoleCall('/ops/api/notice/withdraw', { channel, id: row.id }, locale);
    setBusy(null);
    setConfirming(null);
    if (!answer.ok) setRowError({ id: row.id, message: answer.message || words.failed });
    router.refresh();
  }

  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-sm text-gray-700">
        {words.intro}{' '}
        <a
          href={storeUrl}
          target="_blank"
          rel="noreferrer"
          className="font-medium text-blue-800 underline underline-offset-2"
          data-testid="notices-store-link"
        >
          {words.storeLink}
        </a>
      </p>
      {!canWrite ? <p className="rounded-md bg-gray-100 px-4 py-3 text-sm text-gray-700">{words.readOnly}</p> : null}

      <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
        <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="notice-table">
          <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                {words.title}
              </th>
              <th scope="col" className="px-4 py-3">
                {words.type}
              </th>
              <th scope="col" className="px-4 py-3">
                {words.state}
              </th>
              <th scope="col" className="px-4 py-3">
                {words.publishAt}
              </th>
              {canWrite ? (
                <th scope="col" className="px-4 py-3">
                  {words.actions}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-4 py-6 text-center text-gray-600">
                  {words.empty}
                </td>
              </tr>
            ) : null}
            {rows.map((row) => (
              <tr key={row.id} data-notice-id={row.id}>
                <td className="max-w-md px-4 py-3 align-top font-medium text-gray-900">{row.title}</td>
                <td className="px-4 py-3 align-top text-gray-700">{row.typeText}</td>
                <td className="px-4 py-3 align-top">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[row.state]}`}>{row.stateText}</span>
                </td>
                <td className="px-4 py-3 align-top whitespace-nowrap text-gray-700">{row.publishText}</td>
                {canWrite ? (
                  <td className="px-4 py-3 align-top">
                    {row.state !== 'withdrawn' ? (
                      <div className="flex flex-wrap gap-2">
                        <button type="button" className={SMALL_BUTTON} disabled={busy !== null} onClick={() => setEditing(row)}>
                          {words.edit}
                        </button>
                        {confirming === row.id ? (
                          <span className="flex flex-wrap items-center gap-2">
                            <span className="text-gray-800">{row.confirmWithdraw}</span>
                            <button
                              type="button"
                              className="rounded-md bg-red-700 px-2.5 py-1 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
                              disabled={busy !== null}
                              onClick={() => withdraw(row)}
                            >
                              {words.withdraw}
                            </button>
                            <button type="button" className={SMALL_BUTTON} onClick={() => setConfirming(null)}>
                              {words.cancel}
                            </button>
                          </span>
                        ) : (
                          <button type="button" className={SMALL_BUTTON} disabled={busy !== null} onClick={() => setConfirming(row.id)}>
                            {words.withdraw}
                          </button>
                        )}
                      </div>
                    ) : null}
                    {rowError?.id === row.id ? <p className="mt-1 text-sm text-red-700">{rowError.message}</p> : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {paging.pages > 1 ? (
        <nav className="flex gap-4 text-sm">
          {paging.page > 1 ? (
            <Link href={`?page=${paging.page - 1}`} className="text-blue-800 underline">
              {words.newer}
            </Link>
          ) : null}
          {paging.page < paging.pages ? (
            <Link href={`?page=${paging.page + 1}`} className="text-blue-800 underline">
              {words.more}
            </Link>
          ) : null}
        </nav>
      ) : null}

      {canWrite ? (
        <NoticeForm
          key={editing?.id ?? 'new'}
          locale={locale}
          channel={channel}
          editing={editing}
          types={types}
          defaultPublishLocal={defaultPublishLocal}
          words={words}
          onDone={() => {
            setEditing(null);
            router.refresh();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}

/** Writes a new notice or edits one; a refusal shows under the field it names (400 `field: why`, or `data.field`). */
function NoticeForm({
  locale,
  channel,
  editing,
  types,
  defaultPublishLocal,
  words,
  onDone,
  onCancel,
}: {
  locale: string;
  channel: string;
  editing: NoticeRow | null;
  types: { value: NoticeType; text: string }[];
  defaultPublishLocal: string;
  words: NoticePanelWords;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [type, setType] = useState<NoticeType>(editing?.type ?? 'drop');
  const [title, setTitle] = useState(editing?.title ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [publishNow, setPublishNow] = useState(editing === null);
  const [publishAt, setPublishAt] = useState(editing?.publishLocal ?? defaultPublishLocal);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const draft = { channel, type, title, body, ...(publishNow ? { publishNow: true } : { publishAt }) };
    const answer = editing
      ? await consoleCall('/ops/api/notice/update', { ...draft, id: editing.id }, locale)
      : await consoleCall('/ops/api/notice/create', draft, locale);
    setBusy(false);
    if (!answer.ok) {
      setError({ field: answer.field, message: answer.message || words.failed });
      return;
    }
    onDone();
  }

  const errorOf = (field: string) => (error?.field === field ? error.message : null);
  return (
    <form
      onSubmit={submit}
      className="max-w-2xl space-y-4 rounded-lg border border-gray-200 bg-white p-5"
      data-testid="notice-form"
      noValidate
    >
      <h2 className="text-lg font-semibold text-gray-900">{editing ? words.editTitle : words.newTitle}</h2>
      <div className="space-y-1">
        <label htmlFor="notice-type" className="block text-sm font-medium text-gray-800">
          {words.type}
        </label>
        <select id="notice-type" value={type} onChange={(e) => setType(e.target.value as NoticeType)} className={INPUT}>
          {types.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
        <ConsoleError message={errorOf('type')} />
      </div>
      <div className="space-y-1">
        <label htmlFor="notice-title" className="block text-sm font-medium text-gray-800">
          {words.title}
        </label>
        <input id="notice-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={80} className={INPUT} />
        <ConsoleError message={errorOf('title')} />
      </div>
      <div className="space-y-1">
        <label htmlFor="notice-body" className="block text-sm font-medium text-gray-800">
          {words.body}
        </label>
        <textarea
          id="notice-body"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          rows={6}
          maxLength={5000}
          aria-describedby="notice-body-hint"
          className={INPUT}
        />
        <p id="notice-body-hint" className="text-sm text-gray-600">
          {words.bodyHint}
        </p>
        <ConsoleError message={errorOf('body')} />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-gray-800">{words.publishAt}</legend>
        <label className="flex items-center gap-2 text-sm text-gray-800">
          <input type="checkbox" checked={publishNow} onChange={(e) => setPublishNow(e.target.checked)} data-testid="notice-publish-now" />
          {words.publishNow}
        </label>
        {!publishNow ? (
          <div className="space-y-1">
            <input
              id="notice-publish-at"
              type="datetime-local"
              value={publishAt}
              onChange={(e) => setPublishAt(e.target.value)}
              aria-label={words.publishAt}
              aria-describedby="notice-publish-hint"
              className={INPUT}
            />
          </div>
        ) : null}
        <p id="notice-publish-hint" className="text-sm text-gray-600">
          {words.publishHint}
        </p>
        <ConsoleError message={errorOf('publishAt')} />
      </fieldset>
      {error && !['type', 'title', 'body', 'publishAt'].includes(error.field ?? '') ? <ConsoleError message={error.message} /> : null}
      <div className="flex gap-3">
        <button
          type="submit"
          disabled={busy}
          className="inline-flex items-center justify-center rounded-md bg-blue-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
          data-testid="notice-submit"
        >
          {busy ? words.saving : editing ? words.save : words.publish}
        </button>
        {editing ? (
          <button type="button" className={SMALL_BUTTON} onClick={onCancel}>
            {words.cancel}
          </button>
        ) : null}
      </div>
    </form>
  );
}
