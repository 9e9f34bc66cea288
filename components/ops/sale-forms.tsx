'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField, FieldError } from './field';
import { fromZoneInput, toZoneInput } from './sale-time';

/** The sale forms' words, written by the server page (lib/i18n `ops.sales.*`). */
export type SaleWords = Record<string, string>;

/** A sale as its form edits it: times as the wire's ISO moments, price in fen. */
export type SaleDraft = {
  code: string;
  collectible: string;
  price: number;
  copies: number;
  limitPerUser: number;
  saleStartTime: string;
  saleEndTime: string | null;
  listed: boolean;
  sort: number;
};

const BUTTON = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';
const SMALL =
  'rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';

/**
 * A sale's form (issue 32, "Sales"): new (`editing` null) or an edit. Times are typed in the channel's time zone, named
 * by the labels; price in yuan, sent in fen. Once the sale has orders its price, limit and opening time are shown
 * read-only with the reason. An opening time in the past is asked about first (the call refuses it otherwise).
 */
export function SaleForm({
  locale,
  channel,
  timeZone,
  editing,
  frozen,
  initial,
  collectibles,
  canWrite,
  words,
}: {
  locale: string;
  channel: string;
  timeZone: string;
  editing: string | null;
  frozen: boolean;
  initial: SaleDraft;
  collectibles: { code: string; name: string }[];
  canWrite: boolean;
  words: SaleWords;
}) {
  const router = useRouter();
  const [form, setForm] = useState({
    code: initial.code,
    collectible: initial.collectible,
    price: (initial.price / 100).toFixed(2),
    copies: String(initial.copies),
    limitPerUser: String(initial.limitPerUser),
    start: toZoneInput(initial.saleStartTime, timeZone),
    end: toZoneInput(initial.saleEndTime, timeZone),
    listed: initial.listed,
    sort: String(initial.sort),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const set = (key: keyof typeof form, value: string | boolean) => setForm((f) => ({ ...f, [key]: value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    const saleStartTime = fromZoneInput(form.start, timeZone);
    if (!saleStartTime) {
      setErrors({ saleStartTime: words.saleStartTime! });
      return;
    }
    const saleEndTime = form.end.trim() ? fromZoneInput(form.end, timeZone) : null;
    const opensInPast = new Date(saleStartTime).getTime() < Date.now() && saleStartTime !== initial.saleStartTime;
    // issue 32: "an opening time in the past asks for confirmation".
    const confirmPast = opensInPast ? window.confirm(words.confirmPast) : false;
    if (opensInPast && !confirmPast) return;
    const terms = {
      channel,
      price: Math.round(Number(form.price) * 100),
      copies: Number(form.copies),
      limitPerUser: Number(form.limitPerUser),
      saleStartTime,
      saleEndTime,
      listed: form.listed,
      sort: Number(form.sort),
      confirmPast,
    };
    setBusy(true);
    setNotice(null);
    const answer = editing
      ? await consoleCall('/ops/api/sale/edit', { ...terms, sale: editing }, locale)
      : await consoleCall('/ops/api/sale/create', { ...terms, code: form.code, collectible: form.collectible }, locale);
    setBusy(false);
    if (answer.ok) {
      setErrors({});
      setNotice(words.saved!);
      if (editing) router.refresh();
      else router.push(`/channels/${channel}/sales/${answer.data.code}`);
      return;
    }
    setErrors({ [answer.field ?? 'form']: answer.message || words.failed! });
  }

  const field = (
    key: 'code' | 'price' | 'copies' | 'limitPerUser' | 'sort',
    props: { type?: string; inputMode?: 'numeric' | 'decimal'; locked?: boolean } = {},
  ) => (
    <div>
      <ConsoleField
        id={`sale-${key}`}
        name={key}
        label={words[key]!}
        type={props.type ?? 'text'}
        inputMode={props.inputMode}
        value={form[key]}
        disabled={!canWrite || props.locked}
        hint={props.locked ? words.frozen : undefined}
        onChange={(e) => set(key, e.target.value)}
      />
      <FieldError id={`sale-${key}-error`} message={errors[key]} />
    </div>
  );

  return (
    <form onSubmit={save} className="max-w-2xl space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        {!editing && field('code')}
        {!editing && (
          <div className="space-y-1">
            <label htmlFor="sale-collectible" className="block text-sm font-medium text-gray-800">
              {words.collectible}
            </label>
            <select
              id="sale-collectible"
              value={form.collectible}
              disabled={!canWrite}
              onChange={(e) => set('collectible', e.target.value)}
              className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base"
            >
              <option value="" />
              {collectibles.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
            <FieldError id="sale-collectible-error" message={errors.collectible} />
          </div>
        )}
        {field('price', { inputMode: 'decimal', locked: frozen })}
        {field('copies', { inputMode: 'numeric' })}
        {field('limitPerUser', { inputMode: 'numeric', locked: frozen })}
        {field('sort', { inputMode: 'numeric' })}
        <div>
          <ConsoleField
            id="sale-saleStartTime"
            name="saleStartTime"
            type="datetime-local"
            label={words.saleStartTime!}
            value={form.start}
            disabled={!canWrite || frozen}
            hint={frozen ? words.frozen : undefined}
            onChange={(e) => set('start', e.target.value)}
          />
          <FieldError id="sale-saleStartTime-error" message={errors.saleStartTime} />
        </div>
        <div>
          <ConsoleField
            id="sale-saleEndTime"
            name="saleEndTime"
            type="datetime-local"
            label={words.saleEndTime!}
            hint={words.saleEndHint}
            value={form.end}
            disabled={!canWrite}
            onChange={(e) => set('end', e.target.value)}
          />
          <FieldError id="sale-saleEndTime-error" message={errors.saleEndTime} />
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm text-gray-800">
        <input type="checkbox" checked={form.listed} disabled={!canWrite} onChange={(e) => set('listed', e.target.checked)} />
        {words.listed}
      </label>
      <ConsoleError message={errors.form ?? errors.sale ?? null} />
      {notice && (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      )}
      {canWrite && (
        <button type="submit" className={BUTTON} disabled={busy}>
          {busy ? words.saving : editing ? words.save : words.create}
        </button>
      )}
    </form>
  );
}

/**
 * A sale's drop-day controls (issue 32): pause buying now or resume, add copies, archive, or delete one without orders.
 * Each calls its procedure and reloads the page's data, so what shows is what the server holds.
 */
export function SaleControls({
  locale,
  channel,
  sale,
  paused,
  archived,
  hasOrders,
  words,
}: {
  locale: string;
  channel: string;
  sale: string;
  paused: boolean;
  archived: boolean;
  hasOrders: boolean;
  words: SaleWords;
}) {
  const router = useRouter();
  const [copies, setCopies] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(call: () => Promise<{ ok: boolean; message?: string }>, after?: () => void) {
    setBusy(true);
    const answer = await call();
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message || words.failed!);
      return;
    }
    setError(null);
    if (after) after();
    else router.refresh();
  }

  if (archived) return null;
  return (
    <section className="max-w-2xl space-y-3 rounded-md border border-gray-200 p-4" aria-labelledby="sale-controls">
      <h2 id="sale-controls" className="text-lg font-semibold text-gray-900">
        {words.controls}
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        <button
          type="button"
          className={SMALL}
          disabled={busy}
          onClick={() => run(() => consoleCall('/ops/api/sale/pause', { channel, sale, paused: !paused }, locale))}
        >
          {paused ? words.resume : words.pause}
        </button>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void run(
              () => consoleCall('/ops/api/sale/addCopies', { channel, sale, copies: Number(copies) }, locale),
              () => {
                setCopies('');
                router.refresh();
              },
            );
          }}
        >
          <ConsoleField
            id="sale-add-copies"
            label={words.addCopiesLabel!}
            inputMode="numeric"
            value={copies}
            onChange={(e) => setCopies(e.target.value)}
          />
          <button type="submit" className={SMALL} disabled={busy || !copies}>
            {words.addCopies}
          </button>
        </form>
        <button
          type="button"
          className={SMALL}
          disabled={busy}
          onClick={() => {
            if (!window.confirm(hasOrders ? words.confirmArchive : words.confirmDelete)) return;
            void (hasOrders
              ? run(() => consoleCall('/ops/api/sale/archive', { channel, sale }, locale))
              : run(
                  () => consoleCall('/ops/api/sale/delete', { channel, sale }, locale),
                  () => router.push(`/channels/${channel}/sales`),
                ));
          }}
        >
          {hasOrders ? words.archive : words.delete}
        </button>
      </div>
      <ConsoleError message={error} />
    </section>
  );
}
